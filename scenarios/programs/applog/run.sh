#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: a log writer that appends one 4 KiB record at a
# time and fsyncs it (busybox dd oflag=append conv=fsync: O_APPEND, the
# write, fsync(2) on the same fd, exit 1 when it fails), as a write-ahead
# log or an append-only file does.  Four records are durable before the
# faults are armed, so the log has allocated extents to aim at; every
# record after it lands in blocks the file system allocates then.  What
# the writer acknowledged goes to $WBERR_DIR/acked, outside the file
# system under test; the records it could not make durable to failed.
set -u
n=${APPLOG_RECORDS:-8}
record() { yes "record $1" | head -c 4096; }
append() { record "$1" | dd of=log bs=4096 count=1 oflag=append conv=notrunc,fsync 2> dd.err; }

: > log
: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
i=1
while [ "$i" -le 4 ]; do
	append "$i" || { cat dd.err; exit 1; }
	echo "$i" >> "$WBERR_DIR/acked"
	i=$((i + 1))
done
echo "WBERR-ARM log"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done
while [ "$i" -le "$n" ]; do
	if append "$i"; then
		echo "$i" >> "$WBERR_DIR/acked"
		echo "record $i: durable"
	else
		echo "$i $(cat dd.err)" >> "$WBERR_DIR/failed"
		echo "record $i: failed: $(cat dd.err)"
	fi
	i=$((i + 1))
done
rm -f dd.err
exit 0
