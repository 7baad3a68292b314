#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: an object store that commits as git writes loose
# objects.  Each commit writes a new object under a temporary name, fsyncs
# it (busybox dd conv=fsync: fsync(2) after the write, exit 1 when it
# fails), renames it into place and appends it to the log; a commit whose
# fsync fails is abandoned and its temporary file removed.  What it
# acknowledged goes outside the file system under test, to $WBERR_DIR/acked
# (and the failures to $WBERR_DIR/failed).  Its own `yes | head` pipelines
# break a pipe on every commit: a write to a pipe is no write-back error.
set -u
n=${OBJSTORE_COMMITS:-8}

mkdir -p objects || exit 1
: > log || exit 1
: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
# the fault is aimed by sectors: the marker only says when to arm it
echo "WBERR-ARM"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done

i=1
while [ "$i" -le "$n" ]; do
	tmp=objects/tmp.$i
	if yes "object $i" | head -c 65536 | dd of="$tmp" bs=65536 conv=fsync 2> dd.err; then
		mv "$tmp" "objects/$i" && echo "$i" >> log && echo "$i" >> "$WBERR_DIR/acked"
		echo "commit $i"
	else
		echo "$i $(cat dd.err)" >> "$WBERR_DIR/failed"
		rm -f "$tmp"
		echo "commit $i abandoned: $(cat dd.err)"
	fi
	i=$((i + 1))
done
rm -f dd.err
[ -s "$WBERR_DIR/failed" ] || { echo "no commit failed: the fault never reached a commit's fsync"; exit 1; }
exit 0
