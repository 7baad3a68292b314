#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The cost of a burst of dm-wberr adds: 4096 "add all ioerr" messages, each
# copying the rule set (~200 bytes a rule), sent back to back through one
# ioctl each (wberr-msgfuzz lines).  Prints one line:
#   BURST adds=4096 seconds=S peak_kib=K rules=N
# peak_kib is the largest drop of MemFree below its value before the burst
# (sampled every 50 ms): the old rule sets waiting for RCU.
#
#   harness/run-guest ... --smp 2 --cmd 'sh /opt/wberr/libexec/bench-burst.sh'
. /opt/wberr/libexec/lib.sh
wberr_load_dm || exit 1
set -- $WBERR_DISKS
dmsetup create wbburst --table "0 2097152 wberr $1 2048" || exit 1
awk 'BEGIN { for (i = 0; i < 4096; i++) printf "add all ioerr sectors=%d-%d\n", i * 8, i * 8 + 7 }' \
	> /tmp/burst-adds
sync
echo 3 > /proc/sys/vm/drop_caches
sleep 1
base=$(awk '/^MemFree/ { print $2 }' /proc/meminfo)
(while :; do awk '/^MemFree/ { print $2 }' /proc/meminfo; sleep 0.05; done) > /tmp/burst-free &
sampler=$!
t0=$(cut -d' ' -f1 /proc/uptime)
sent=$(wberr-msgfuzz lines wbburst < /tmp/burst-adds)
t1=$(cut -d' ' -f1 /proc/uptime)
sleep 1
kill $sampler
wait $sampler 2> /dev/null
min=$(sort -n /tmp/burst-free | head -n 1)
[ "$sent" = "sent=4096 ok=4096" ] || { echo "bench-burst: $sent" >&2; exit 1; }
echo "BURST adds=4096 seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	"peak_kib=$((base > min ? base - min : 0)) rules=$(dmsetup status wbburst | cut -d' ' -f7)"
dmsetup remove wbburst
