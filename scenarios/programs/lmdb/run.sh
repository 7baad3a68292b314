#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: LMDB 0.9.24's mdb_load (Debian's lmdb-utils),
# one process and one transaction per record (-T: plain key and value
# lines), into the environment lmdb/ on the file system under test.  Four
# records are committed before the faults are armed; the marker names
# data.mdb, which grows as copy-on-write transactions take new pages.  A
# record is acknowledged when mdb_load exited 0: its number goes to
# $WBERR_DIR/acked, a failed one with mdb_load's message to failed.  The
# last line says what mdb_load did ("did: ...").
set -u
n=${LMDB_RECORDS:-10}
mkdir -p lmdb || exit 1
: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
load() {	# $1: the record's number
	if out=$(printf 'k%s\nvalue-%s-%s\n' "$1" "$1" "$(yes v | head -n 600 | tr -d '\n')" | mdb_load -T lmdb 2>&1); then
		echo "$1" >> "$WBERR_DIR/acked"
		echo "record $1: committed"
	else
		echo "$1 $out" | tr '\n' ' ' >> "$WBERR_DIR/failed"
		echo >> "$WBERR_DIR/failed"
		echo "record $1: failed: $out"
	fi
}
i=1
while [ "$i" -le 4 ]; do load "$i"; i=$((i + 1)); done
echo "WBERR-ARM lmdb/data.mdb"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done
while [ "$i" -le "$n" ]; do load "$i"; i=$((i + 1)); done
if [ -s "$WBERR_DIR/failed" ]; then
	echo "did: refused the commit ($(head -n 1 "$WBERR_DIR/failed" | grep -oE 'txn_commit: [^ ].*' | cut -c1-60)), the next transactions continued"
else
	echo "did: continued, no commit failed"
fi
exit 0
