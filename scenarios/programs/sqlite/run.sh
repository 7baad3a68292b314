#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: the sqlite3 shell, one process per transaction, as
# an application would commit.  Rows 1..N exist before the faults are armed
# (so their pages are allocated and the fault's FIEMAP covers them); each
# commit then updates one row.  What the shell answered is kept outside the
# file system under test, in $WBERR_DIR: acked (ids the shell committed) and
# failed (id and the shell's message).
#
# $1: journal mode (delete or persist: persist keeps app.db-journal on disk
# between transactions, so a fault can aim at it; wal: a connection held
# open in the background keeps the other processes from checkpointing and
# deleting app.db-wal when they close, so each commit appends to it, as an
# application's open database does).  The last line says what the shell
# did with a failed commit ("did: ...", for the report card).
set -u
mode=${1:-delete}
n=${SQLITE_COMMITS:-6}

sql() { sqlite3 -batch -bail app.db "$@"; }
. "$WBERR_SCENARIO_DIR/sqlite/wal.sh"

sql "PRAGMA journal_mode=$mode;" > /dev/null || exit 1
sql "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);" || exit 1
i=1
while [ "$i" -le "$n" ]; do
	sql "INSERT INTO t VALUES($i, 'old-$i' || printf('%.3000c', 'o'));" || exit 1
	i=$((i + 1))
done
# A first transaction in this mode leaves the journal file there (persist).
# A real change: SQLite writes nothing for 'UPDATE t SET v = v'.
sql "PRAGMA journal_mode=$mode; INSERT INTO t VALUES(0, 'warm-up');" > /dev/null || exit 1
[ "$mode" != persist ] || [ -s app.db-journal ] ||
	{ echo "journal_mode=persist left no app.db-journal"; exit 1; }

if [ "$mode" = wal ]; then
	{ echo "SELECT count(*) FROM t;"; while [ ! -e "$WBERR_DIR/done" ]; do sleep 0.2; done; } |
		sqlite3 -batch app.db > /dev/null &
	holder=$!
	sleep 0.5
	[ -e app.db-wal ] || { echo "journal_mode=wal left no app.db-wal"; exit 1; }
fi

# Aim the faults (the YAML says at which file) and wait until they are armed.
echo "WBERR-ARM app.db app.db-journal"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done

: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
i=1
while [ "$i" -le "$n" ]; do
	if out=$(sql "PRAGMA journal_mode=$mode; UPDATE t SET v = 'new-$i' || printf('%.3000c', 'n') WHERE id = $i;" 2>&1); then
		echo "$i" >> "$WBERR_DIR/acked"
		echo "commit $i: done"
	else
		echo "$i $out" | tr '\n' ' ' >> "$WBERR_DIR/failed"
		echo >> "$WBERR_DIR/failed"
		echo "commit $i: failed: $out"
	fi
	[ "$mode" = wal ] && wal_frames | tail -n 2 | sed "s/^/after commit $i: /"
	i=$((i + 1))
done
if [ "$mode" = wal ]; then
	touch "$WBERR_DIR/done"
	wait "$holder"
fi
if [ -s "$WBERR_DIR/failed" ]; then
	echo "did: refused the commit (the shell said: $(head -n 1 "$WBERR_DIR/failed" | cut -d' ' -f2- | tr -s ' ' | cut -c1-60)), continued"
else
	echo "did: continued, no commit failed"
fi
exit 0
