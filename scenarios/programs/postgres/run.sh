#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: a PostgreSQL 15 server (Debian's binaries from the
# apps disk) on the file system under test, and clients that commit.
#   1. the cluster initdb made when the apps disk was built
#      (harness/mkapps.sh: `initdb -N -U postgres --locale=C -E UTF8 -A
#      trust`, 0.7 s there against 8-17 s under TCG) copied onto the file
#      system under test, start the server, create table t and CHECKPOINT,
#      so the table's file is allocated on disk;
#   2. print the marker with the table's file, so the runner aims the fault
#      at it, and wait until it is armed;
#   3. commit one UPDATE per client, each acknowledged in $WBERR_DIR/acked
#      (outside the file system under test);
#   4. CHECKPOINT: the checkpointer writes the table's pages and fsyncs the
#      file, on an fd it opened itself, and the write-back fails.
#      data_sync_retry=off (the default): the checkpointer PANICs, and with
#      restart_after_crash=off the postmaster stops; the checker's start is
#      the crash recovery.  data_sync_retry=on: the checkpoint fails with an
#      ERROR, and the next CHECKPOINT is retried (its fsync returns 0: the
#      error was already reported) and completes; then a clean shutdown.
# $1: data_sync_retry (off or on)
set -u
retry=${1:-off}
. "$WBERR_SCENARIO_DIR/postgres/env.sh"

cp -R /opt/apps/usr/share/wberr/pgdata "$PGDATA" && chmod -R go-rwx "$PGDATA" ||
	{ echo "no cluster to copy: an apps disk from an older harness/mkapps.sh (make apps)"; exit 1; }
pg_conf "$retry"
pg_ctl -w -t 120 -l "$WBERR_DIR/server.log" start > /dev/null || { cat "$WBERR_DIR/server.log"; exit 1; }
psql -q -v ON_ERROR_STOP=1 -c "CREATE TABLE t(id int PRIMARY KEY, v text);" \
	-c "INSERT INTO t SELECT g, 'old-' || g FROM generate_series(1, 100) g;" \
	-c "CHECKPOINT;" || exit 1
rel=$(psql -At -c "SELECT pg_relation_filepath('t');") || exit 1

echo "WBERR-ARM pgdata/$rel"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done

: > "$WBERR_DIR/acked"
for i in 1 2 3 4 5; do
	if psql -q -v ON_ERROR_STOP=1 -c "UPDATE t SET v = 'new-$i' WHERE id = $i;"; then
		echo "$i" >> "$WBERR_DIR/acked"
	fi
done
echo "acknowledged: $(tr '\n' ' ' < "$WBERR_DIR/acked")"
if psql -q -c "CHECKPOINT;"; then echo "checkpoint: done"; else echo "checkpoint: failed"; fi
if [ "$retry" = on ]; then
	# the checkpointer keeps the request and tries again
	if psql -q -c "CHECKPOINT;"; then echo "second checkpoint: done"; else echo "second checkpoint: failed"; fi
	pg_ctl -w -m fast stop > /dev/null
fi
# after a PANIC the postmaster stops on its own (restart_after_crash=off)
for _ in $(seq 1 600); do
	pg_ctl status > /dev/null 2>&1 || break
	sleep 0.1
done
grep -E 'PANIC|ERROR|could not fsync' "$WBERR_DIR/server.log" | head -n 5
# for the report card: what the server did with the failed fsync
if grep -q 'PANIC' "$WBERR_DIR/server.log"; then
	echo "did: panic (the checkpointer PANICked, the server stopped)"
elif grep -q 'could not fsync' "$WBERR_DIR/server.log"; then
	echo "did: retry (the checkpoint failed with an ERROR and was retried)"
else
	echo "did: continued, no fsync failure logged"
fi
exit 0
