#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The checker, after the recovery (faults cleared, page cache dropped): start
# the server (after a PANIC this is the crash recovery, WAL redo), and every
# UPDATE a client saw committed must be there.
set -u
. "$WBERR_SCENARIO_DIR/postgres/env.sh"
bad=0

pg_ctl -w -t 300 -l "$WBERR_DIR/server-check.log" start > /dev/null ||
	{ echo "the server does not start:"; tail -n 20 "$WBERR_DIR/server-check.log"; echo "restart: needs repair"; exit 2; }
echo "restart: ok"
grep -E 'redo (starts|done)|database system was' "$WBERR_DIR/server-check.log" | head -n 4
for i in $(cat "$WBERR_DIR/acked"); do
	v=$(psql -At -c "SELECT v FROM t WHERE id = $i;" 2>&1)
	if [ "$v" = "new-$i" ]; then
		echo "ok: update $i committed and present"
	else
		echo "LOST: update $i was committed, the table reads '$v'"
		bad=1
	fi
done
[ -s "$WBERR_DIR/acked" ] || { echo "NO COMMIT: nothing was acknowledged"; bad=1; }
[ "$bad" = 0 ] && echo "intact: yes" || echo "intact: no"
pg_ctl -w -m fast stop > /dev/null
exit $bad
