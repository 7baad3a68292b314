#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checker, after the recovery: open the DB again (ldb scan), as the next
# process would, with no repair; every acknowledged key must read back.
# "restart:" and "intact:" lines for the report card; exit 0 when both
# hold, 1 otherwise.
set -u
bad=0
if ! ldb --db=rocks scan > "$WBERR_DIR/scan.txt" 2>&1; then
	echo "restart: needs repair"
	head -n 3 "$WBERR_DIR/scan.txt"
	echo "intact: no"
	exit 1
fi
echo "restart: ok"
for i in $(cat "$WBERR_DIR/acked"); do
	grep -qx "k$i : value-$i" "$WBERR_DIR/scan.txt" || { echo "LOST: k$i was acknowledged, the scan lacks it"; bad=1; }
done
[ -s "$WBERR_DIR/acked" ] || { echo "NO COMMIT: nothing was acknowledged"; bad=1; }
[ "$bad" = 0 ] && echo "intact: yes" || echo "intact: no"
echo "$(wc -l < "$WBERR_DIR/acked") acknowledged, $(wc -l < "$WBERR_DIR/failed") failed"
exit $bad
