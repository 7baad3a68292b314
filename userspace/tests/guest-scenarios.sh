#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wberr-suite: default
#
# The scenario library: wberr-run over every scenario under
# $WBERR_SHARE/scenarios, on a dm-wberr device over the first scratch disk.
# TAP on stdout (one test per scenario instance); the per-filesystem summary
# (summary.txt), the errno-fidelity table (errno-fidelity.md/.csv) and
# wberr-run's JUnit land in $WBERR_RESULTS.
#
# `make run SCENARIOS=... FILTER=...` brings its own (the host checked them
# before the boot): the files and directories in /payload/scenarios replace
# the library baked into the image, and the globs in /payload/scenario-filter
# (commas or spaces between them) replace $WBERR_SCENARIO_FILTER.

set -- $WBERR_DISKS
disk=$1

filter=$WBERR_SCENARIO_FILTER
[ -f /payload/scenario-filter ] && filter=$(cat /payload/scenario-filter)
# Each entry on its own, as the host's check saw it: a file the user named
# is read whatever its suffix, while a directory is scanned for *.yaml.
if [ -d /payload/scenarios ]; then
	set -- /payload/scenarios/*
else
	set -- "$WBERR_SHARE/scenarios"
fi

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
	${filter:+--filter "$filter"} "$@"
