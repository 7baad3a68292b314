#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checker, after the recovery (faults cleared, page cache dropped or the
# file system remounted): every commit the shell acknowledged must be in the
# database, every commit that failed must have been reported to the caller
# as a disk I/O error, and the plan must have made at least one fail.
set -u
. "$WBERR_SCENARIO_DIR/sqlite/wal.sh"
# the WAL as the disk has it, before sqlite3 recovers it
wal_frames
bad=0
lost=0
acked=0
failed=0

for i in $(cat "$WBERR_DIR/acked"); do
	acked=$((acked + 1))
	v=$(sqlite3 -batch app.db "SELECT substr(v, 1, 12) FROM t WHERE id = $i;" 2>&1)
	case "$v" in
	"new-$i"*) echo "ok: commit $i acknowledged and present" ;;
	*) echo "LOST: commit $i was acknowledged, the database reads '$v'"; bad=1; lost=1 ;;
	esac
done
while read -r i msg; do
	[ -n "$i" ] || continue
	failed=$((failed + 1))
	v=$(sqlite3 -batch app.db "SELECT substr(v, 1, 12) FROM t WHERE id = $i;" 2>&1)
	case "$msg" in
	*"disk I/O error"*) echo "ok: commit $i failed as a disk I/O error (now reads '$v')" ;;
	*) echo "WRONG: commit $i failed without a disk I/O error: $msg"; bad=1 ;;
	esac
done < "$WBERR_DIR/failed"
integrity=$(sqlite3 -batch app.db "PRAGMA integrity_check;" 2>&1)
[ "$integrity" = ok ] || { echo "CORRUPT: integrity_check says: $integrity"; bad=1; }
[ "$failed" -gt 0 ] || { echo "NO FAILURE: no commit failed, so the plan proved nothing"; bad=1; }
echo "acknowledged $acked, failed $failed, integrity $integrity"
# for the report card: the database opens and checks clean without repair
case "$integrity" in ok) echo "restart: ok" ;; *) echo "restart: needs repair" ;; esac
[ "$lost" = 0 ] && [ "$integrity" = ok ] && echo "intact: yes" || echo "intact: no"
exit $bad
