#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wberr-suite: default
#
# The scenario library: wberr-run over every scenario under
# $WBERR_SHARE/scenarios, on a dm-wberr device over the first scratch disk.
# TAP on stdout (one test per scenario instance); the per-filesystem summary
# (summary.txt), the errno-fidelity table (errno-fidelity.md/.csv) and
# wberr-run's JUnit land in $WBERR_RESULTS.

set -- $WBERR_DISKS
disk=$1

if [ ! -d /sys/module/dm_wberr ] && ! insmod "$WBERR_MODDIR/dm-wberr.ko"; then
	echo "TAP version 14"
	echo "1..1"
	echo "not ok 1 - dm-wberr.ko loads (insmod $WBERR_MODDIR/dm-wberr.ko failed)"
	exit 1
fi
[ -n "$disk" ] || { echo "TAP version 14"; echo "1..1"; echo "not ok 1 - a scratch disk (WBERR_DISKS is empty)"; exit 1; }

mkdir -p /mnt/wberr "$WBERR_RESULTS"
exec wberr-run --disk "$disk" --mnt /mnt/wberr \
	--results "$WBERR_RESULTS" --junit "$WBERR_RESULTS/wberr-run.junit.xml" \
	${WBERR_SCENARIO_FILTER:+--filter "$WBERR_SCENARIO_FILTER"} \
	"$WBERR_SHARE/scenarios"
