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
# between transactions, so a fault can aim at it).
set -u
mode=${1:-delete}
n=${SQLITE_COMMITS:-6}

sql() { sqlite3 -batch -bail app.db "$@"; }

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
	i=$((i + 1))
done
exit 0
