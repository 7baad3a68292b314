#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The program under test: an etcd 3.4 member and a client that puts one
# key at a time (etcdctl put, one process each).  Four keys are put before
# the faults are armed; the marker names the WAL segment, which etcd
# preallocated (64 MiB, fallocate), so its extents exist when the plan is
# armed.  A put is acknowledged when etcdctl said OK: its number goes to
# $WBERR_DIR/acked (outside the file system under test), a failed one to
# $WBERR_DIR/failed.  The last line says what the member did ("did: ...").
set -u
n=${ETCD_PUTS:-10}
. "$WBERR_SCENARIO_DIR/etcd/env.sh"

etcd_start "$WBERR_DIR/etcd.log" || { echo "etcd did not start"; tail -n 20 "$WBERR_DIR/etcd.log"; exit 1; }
: > "$WBERR_DIR/acked"
: > "$WBERR_DIR/failed"
put() {
	# a member that exited answers nothing: no need for the client's timeouts
	if etcd_alive; then r=$(ctl put "k$1" "value-$1" 2>&1); else r="the member is gone"; fi
	if [ "$r" = OK ]; then echo "$1" >> "$WBERR_DIR/acked"; else echo "$1 $r" | tr '\n' ' ' >> "$WBERR_DIR/failed"; echo >> "$WBERR_DIR/failed"; fi
	echo "put k$1: $(echo "$r" | head -n 1)"
}
i=1
while [ "$i" -le 4 ]; do put "$i"; i=$((i + 1)); done
wal=$(cd "$WBERR_MNT" && ls etcd/member/wal/*.wal | tail -n 1)
echo "WBERR-ARM $wal"
while [ ! -e "$WBERR_ARMED" ]; do sleep 0.05; done
while [ "$i" -le "$n" ]; do put "$i"; i=$((i + 1)); done
sleep 1
if etcd_alive; then
	did=continued
	kill "$(cat "$WBERR_DIR/etcd.pid")"
else
	did="exit ($(grep -oE 'failed to save[a-zA-Z ]+' "$WBERR_DIR/etcd.log" | head -n 1))"
fi
grep -E 'fatal|panic|failed to save|sync' "$WBERR_DIR/etcd.log" | cut -c1-300 | head -n 4
echo "did: $did"
exit 0
