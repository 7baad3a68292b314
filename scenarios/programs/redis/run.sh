#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: a Redis 7.0 server with appendonly yes, and a
# client that SETs one key at a time (redis-cli, one process per command, as
# an application's requests).  Four keys are written before the faults are
# armed; the marker names the AOF's incremental file, the one that grows.
# A SET is acknowledged when redis-cli got OK: the id goes to
# $WBERR_DIR/acked, outside the file system under test; a refused or
# failed one to $WBERR_DIR/failed with the reply.  Between SETs the client
# waits 0.3 s, so that with everysec the background fsync runs among them.
# What the server did is the last line: "did: ..." (the report card reads it).
# $1: appendfsync (always or everysec)
set -u
mode=${1:-always}
n=${REDIS_SETS:-14}
. "$WBERR_SCENARIO_DIR/redis/env.sh"

redis_start "$mode" "$WBERR_DIR/redis.log" || { echo "redis-server did not start"; cat "$WBERR_DIR/redis.log"; exit 1; }
: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
set_key() {	# $1: the key's number; acknowledged or failed
	r=$(cli set "k$1" "value-$1" 2>&1)
	if [ "$r" = OK ]; then echo "$1" >> "$WBERR_DIR/acked"; else echo "$1 $r" >> "$WBERR_DIR/failed"; fi
	echo "SET k$1: $r"
}
i=1
while [ "$i" -le 4 ]; do set_key "$i"; i=$((i + 1)); done
sleep 1.2	# everysec: the first keys' fsync is done
aof=$(cd "$WBERR_MNT" && ls redis/appendonlydir/*.incr.aof)
echo "WBERR-ARM $aof"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done
while [ "$i" -le "$n" ]; do set_key "$i"; i=$((i + 1)); sleep 0.3; done
sleep 1.2
if redis_alive; then
	if grep -q MISCONF "$WBERR_DIR/failed"; then did="refused writes"; else did="continued"; fi
	cli shutdown nosave > /dev/null 2>&1
else
	did=exit
fi
grep -E "fsync|AOF|Exiting|Background" "$WBERR_DIR/redis.log" | tail -n 5
echo "did: $did"
exit 0
