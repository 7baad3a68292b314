#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wberr-suite: own-boot
#
# Positive controls for the debug kernel (`make test KCONFIG=debug`): every
# other suite passes only if the kernel log stays free of KASAN, lockdep
# and kmemleak reports, which means nothing unless those detectors can
# fire.  Here each one is made to fire on purpose:
#
#  1. kmemleak: load the kernel's own kmemleak sample (samples/kmemleak),
#     which leaks on purpose; a scan must report objects it allocated.
#  2. lockdep: it is tracking lock classes, and debug_locks is still 1 (the
#     validator switches itself off at its first report, so 1 also says no
#     report happened before this point).
#  3. KASAN: the kernel's KASAN KUnit suite; each case makes one bad access
#     and fails unless KASAN reported it.
#
# The suite runs in a boot of its own (`# wberr-suite: own-boot`: never in
# `all`, `default` or `smp`): a KASAN report taints the kernel and turns
# lockdep off for the rest of the boot.  It clears the kernel log after
# each control, so the deliberate reports do not fail it in the harness;
# what it cleared is kept in $WBERR_RESULTS/debug-controls-*.dmesg.  On a
# kernel without these detectors every check SKIPs with the reason.

. /opt/wberr/libexec/tap.sh
moddir=${WBERR_MODDIR:-/opt/wberr/modules}
results=${WBERR_RESULTS:-/tmp}
kmemleak=/sys/kernel/debug/kmemleak
work=/tmp/debug-controls
mkdir -p "$work"

tap_begin 6

# 1. kmemleak
if [ ! -w "$kmemleak" ] || [ ! -f "$moddir/kmemleak-test.ko" ]; then
	tap_skip "kmemleak reports a deliberate leak" "no $kmemleak or kmemleak-test.ko (not the debug kernel)"
	tap_skip "kmemleak's report names the leaking module's allocations" "as above"
else
	echo clear > "$kmemleak"
	# The sample's init leaks on purpose (kmalloc and vmalloc results it
	# only prints).  Scanned while it is loaded, so the allocation
	# backtraces still resolve to its symbols; kmemleak reports only
	# objects older than 5 s.
	# The first scan only records each new object's checksum (a changed
	# object is never reported in that scan), the second reports.  The
	# module stays loaded: unloading would orphan its list too, after the
	# clear below, for the harness's own scan to find.
	# Known flaky (open in issue 7): the sample's leak went unreported in 3
	# of 5 runs, 8 rounds of scans included.  Stale pointer copies on task
	# stacks were the first suspect, but stack=off passed only 1 run of 2.
	insmod "$moddir/kmemleak-test.ko"
	sleep 6
	echo stack=off > "$kmemleak"	# task stacks hold stale copies too
	round=0
	while [ $round -lt 8 ]; do
		round=$((round + 1))
		echo scan > "$kmemleak"
		sleep 1
		echo scan > "$kmemleak"
		cat "$kmemleak" > "$work/kmemleak.txt"
		grep -q '^unreferenced object' "$work/kmemleak.txt" && break
		for i in 1 2 3 4 5 6 7 8; do sh -c 'ls /proc > /dev/null'; done
	done
	echo stack=on > "$kmemleak"
	tap_diag "kmemleak: $round scan round(s)"
	n=$(grep -c '^unreferenced object' "$work/kmemleak.txt")
	tap_ok "$([ "$n" -gt 0 ]; echo $?)" "kmemleak reports a deliberate leak ($n unreferenced objects)"
	grep -q 'kmemleak_test_init' "$work/kmemleak.txt"
	tap_ok $? "kmemleak's report names the leaking module's allocations (kmemleak_test_init in a backtrace)"
	[ "$n" -gt 0 ] || head -n 20 "$work/kmemleak.txt" | sed 's/^/# /'
	echo clear > "$kmemleak"
	cp "$work/kmemleak.txt" "$results/debug-controls-kmemleak.txt"
	dmesg -c > "$results/debug-controls-kmemleak.dmesg"
fi

# 2. lockdep
if [ ! -r /proc/lockdep_stats ]; then
	tap_skip "lockdep tracks lock classes" "no /proc/lockdep_stats (CONFIG_PROVE_LOCKING not set)"
	tap_skip "lockdep is still on (debug_locks 1: no report so far)" "as above"
else
	classes=$(sed -n 's/^ *lock-classes: *\([0-9]*\).*/\1/p' /proc/lockdep_stats)
	tap_ok "$([ "${classes:-0}" -gt 100 ]; echo $?)" "lockdep tracks lock classes (${classes:-none})"
	tap_is "$(sed -n 's/^ *debug_locks: *\([0-9]*\).*/\1/p' /proc/lockdep_stats)" 1 \
		"lockdep is still on (debug_locks 1: no report so far)"
fi

# 3. KASAN, last: its reports turn lockdep off.
if [ ! -f "$moddir/kasan_test.ko" ]; then
	tap_skip "KASAN KUnit suite: every deliberate bad access reported" "no kasan_test.ko (CONFIG_KASAN_KUNIT_TEST not set)"
	tap_skip "KASAN KUnit suite ran cases" "as above"
else
	WBERR_KUNIT_MODULES=kasan_test sh /opt/wberr/suites/guest-kunit.sh > "$work/kasan.tap" 2> "$work/kasan.err"
	rc=$?
	pass=$(grep -c '^ok .*kasan' "$work/kasan.tap")
	skip=$(grep -c '^ok .*# SKIP' "$work/kasan.tap")
	fail=$(grep -c '^not ok' "$work/kasan.tap")
	tap_ok "$rc" "KASAN KUnit suite: every deliberate bad access reported ($pass ok, $skip skipped, $fail failed)"
	grep '^not ok' "$work/kasan.tap" | sed 's/^/# /'
	tap_ok "$([ "$((pass - skip))" -gt 20 ]; echo $?)" "KASAN KUnit suite ran cases ($((pass - skip)) passed, more than 20 wanted)"
	cp "$work/kasan.tap" "$results/debug-controls-kasan.txt"	# not .tap: the totals would count it twice
	dmesg -c > "$results/debug-controls-kasan.dmesg"
fi

tap_end
