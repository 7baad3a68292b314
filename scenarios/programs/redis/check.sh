#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# $1: appendfsync, as run.sh had it.
# The checker, after the recovery (server killed, faults cleared, page
# cache dropped): start the server again on the same directory, as an
# operator would, with no repair; every key a client saw OK must read
# back.  Prints "restart: ok" or "restart: needs repair" and "intact: yes"
# or "intact: no" for the report card; exit 0 when both hold, 1 when a key
# is lost or the server does not come up without redis-check-aof --fix.
set -u
. "$WBERR_SCENARIO_DIR/redis/env.sh"
bad=0
if ! redis_start "${1:-always}" "$WBERR_DIR/redis-check.log"; then
	echo "restart: needs repair"
	grep -E "Bad file format|redis-check-aof|Unrecoverable|truncated|Fatal" "$WBERR_DIR/redis-check.log" | head -n 3
	# what the AOF's tail holds: the failed append's bytes, or what the disk had
	for f in "$WBERR_MNT"/redis/appendonlydir/*.incr.aof; do
		echo "$(basename "$f"): $(wc -c < "$f") bytes, the last 48: $(tail -c 48 "$f" | od -An -c | tr -s ' \n' ' ')"
	done
	echo "intact: no"
	exit 1
fi
echo "restart: ok"
grep -E "truncated|DB loaded|Reading the remaining" "$WBERR_DIR/redis-check.log" | head -n 3
for i in $(cat "$WBERR_DIR/acked"); do
	v=$(cli get "k$i" 2>&1)
	[ "$v" = "value-$i" ] || { echo "LOST: k$i was acknowledged, it reads '$v'"; bad=1; }
done
[ -s "$WBERR_DIR/acked" ] || { echo "NO COMMIT: nothing was acknowledged"; bad=1; }
[ "$bad" = 0 ] && echo "intact: yes" || echo "intact: no"
echo "$(wc -l < "$WBERR_DIR/acked") acknowledged, $(wc -l < "$WBERR_DIR/failed") refused or failed"
cli shutdown nosave > /dev/null 2>&1
exit $bad
