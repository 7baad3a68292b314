#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wberr-suite: own-boot
#
# Positive controls for the debug kernel (`make test KCONFIG=debug`): every
# other suite passes only if the kernel log stays free of KASAN, lockdep
# and kmemleak reports, which means nothing unless those detectors can
# fire.  Here each one is made to fire on purpose:
#
#  1. kmemleak: load wberr_leak_control (kernel/tests/leak-control), which
#     registers a page with more required references than memory could
#     hold; a scan must report it, naming the module's function.
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
if [ ! -w "$kmemleak" ] || [ ! -f "$moddir/wberr_leak_control.ko" ]; then
	tap_skip "kmemleak reports the control module's under-referenced page" "no $kmemleak or wberr_leak_control.ko (not the debug kernel)"
	tap_skip "kmemleak's report names the allocation site" "as above"
else
	# wberr_leak_control registers one page whose minimum reference count
	# no stale value in memory can reach, so every completed scan must
	# report it.  A genuine deliberate leak is no reliable control:
	# kmemleak counts stale pointer values as references and missed the
	# kernel's own sample in 3 runs of 5 (kernel/tests/leak-control).
	echo clear > "$kmemleak"
	insmod "$moddir/wberr_leak_control.ko"
	sleep 6		# kmemleak reports only objects older than 5 s
	# The first scan records each object's checksum, the second reports.
	echo scan > "$kmemleak"
	echo scan > "$kmemleak"
	cat "$kmemleak" > "$work/kmemleak.txt"
	# One line per reported object from the module: "<size> <init named>".
	awk '/^unreferenced object/ { if (mine) print size, named
				      size = $5; sub(/\):$/, "", size); mine = named = 0 }
	     /\[wberr_leak_control\]/ { mine = 1 }
	     /register_pinned_block\+/ { named = 1 }
	     END { if (mine) print size, named }' "$work/kmemleak.txt" > "$work/kmemleak.ours"
	pages=$(grep -c '^4096 ' "$work/kmemleak.ours")
	tap_is "$pages" 1 "kmemleak reports the control module's under-referenced page"
	tap_is "$(grep -c '^4096 1$' "$work/kmemleak.ours")" 1 \
		"kmemleak's report names the allocation site (register_pinned_block in its backtrace)"
	[ "$pages" = 1 ] || head -n 20 "$work/kmemleak.txt" | sed 's/^/# /'
	rmmod wberr_leak_control	# frees the page and unregisters it
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
