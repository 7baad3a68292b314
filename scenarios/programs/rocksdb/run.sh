#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: RocksDB 7.8's ldb (Debian's rocksdb-tools), one
# process per put (ldb --create_if_missing put), as a script that stores
# with the tool would.  Each process opens the DB (a new WAL), puts, and
# closes it, which flushes the memtable to a new SST file and syncs the
# WAL: every write after the open lands in newly allocated blocks.  Four
# keys are put before the faults are armed; the marker names the WAL.  A
# put is acknowledged when ldb printed OK and exited 0: its number goes to
# $WBERR_DIR/acked, a failed one to failed.  The last line: "did: ...".
set -u
n=${ROCKSDB_PUTS:-8}
: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
put() {
	out=$(ldb --db=rocks --create_if_missing put "k$1" "value-$1" 2>&1)
	rc=$?
	if [ "$rc" = 0 ] && [ "$out" = OK ]; then
		echo "$1" >> "$WBERR_DIR/acked"
	else
		echo "$1 rc=$rc $out" | tr '\n' ' ' >> "$WBERR_DIR/failed"
		echo >> "$WBERR_DIR/failed"
	fi
	echo "put k$1: rc=$rc $out"
}
i=1
while [ "$i" -le 4 ]; do put "$i"; i=$((i + 1)); done
wal=$(cd "$WBERR_MNT" && ls rocks/*.log | tail -n 1)
echo "WBERR-ARM $wal"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done
while [ "$i" -le "$n" ]; do put "$i"; i=$((i + 1)); done
errs=$(grep -hE 'IO error|Unable to Sync|error' rocks/LOG 2> /dev/null | grep -v 'ERROR_FILE' | cut -c1-200 | head -n 3)
[ -n "$errs" ] && printf '%s\n' "$errs"
if [ -s "$WBERR_DIR/failed" ]; then
	echo "did: refused the put ($(head -n 1 "$WBERR_DIR/failed" | cut -c1-60))"
elif [ -n "$errs" ]; then
	echo "did: continued: ldb said OK and exited 0, the error went to the LOG only"
else
	echo "did: continued, no put failed"
fi
exit 0
