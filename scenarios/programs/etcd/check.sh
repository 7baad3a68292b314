#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checker, after the recovery (member killed, faults cleared, page
# cache dropped): start the member again on the same data directory, as an
# operator would, with no repair; every key a client saw OK must read
# back.  "restart:" and "intact:" lines for the report card; exit 0 when
# both hold, 1 otherwise.
set -u
. "$WBERR_SCENARIO_DIR/etcd/env.sh"
bad=0
if ! etcd_start "$WBERR_DIR/etcd-check.log"; then
	echo "restart: needs repair"
	tail -n 5 "$WBERR_DIR/etcd-check.log" | cut -c1-300
	echo "intact: no"
	exit 1
fi
echo "restart: ok"
for i in $(cat "$WBERR_DIR/acked"); do
	v=$(ctl get --print-value-only "k$i" 2>&1)
	[ "$v" = "value-$i" ] || { echo "LOST: k$i was acknowledged, it reads '$v'"; bad=1; }
done
[ -s "$WBERR_DIR/acked" ] || { echo "NO COMMIT: nothing was acknowledged"; bad=1; }
[ "$bad" = 0 ] && echo "intact: yes" || echo "intact: no"
echo "$(wc -l < "$WBERR_DIR/acked") acknowledged, $(wc -l < "$WBERR_DIR/failed") failed"
kill "$(cat "$WBERR_DIR/etcd.pid")" 2> /dev/null
exit $bad
