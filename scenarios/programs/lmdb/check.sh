#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checker, after the recovery: open the environment again (mdb_stat),
# as the next process would, with no repair; every acknowledged record
# must read back whole (mdb_dump -p).  "restart:" and "intact:" lines for
# the report card; exit 0 when both hold, 1 otherwise.
set -u
bad=0
if ! mdb_stat lmdb > "$WBERR_DIR/mdb_stat.out" 2>&1; then
	echo "restart: needs repair"
	head -n 3 "$WBERR_DIR/mdb_stat.out"
	echo "intact: no"
	exit 1
fi
echo "restart: ok"
mdb_dump -p lmdb > "$WBERR_DIR/dump.txt" 2>&1 || { echo "mdb_dump failed: $(head -n 2 "$WBERR_DIR/dump.txt")"; bad=1; }
for i in $(cat "$WBERR_DIR/acked"); do
	want="value-$i-$(yes v | head -n 600 | tr -d '\n')"
	got=$(awk -v k=" k$i" 'f { print substr($0, 2); exit } $0 == k { f = 1 }' "$WBERR_DIR/dump.txt")
	[ "$got" = "$want" ] || { echo "LOST: record $i was acknowledged, it reads '$(echo "$got" | cut -c1-20)'"; bad=1; }
done
[ -s "$WBERR_DIR/acked" ] || { echo "NO COMMIT: nothing was acknowledged"; bad=1; }
[ "$bad" = 0 ] && echo "intact: yes" || echo "intact: no"
echo "$(wc -l < "$WBERR_DIR/acked") acknowledged, $(wc -l < "$WBERR_DIR/failed") failed"
exit $bad
