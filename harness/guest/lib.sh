# SPDX-License-Identifier: GPL-2.0
# The shared guest library: `. /opt/wberr/libexec/lib.sh` in a guest test
# (run-suites and bench-dm.sh source it too).  It brings the TAP helpers
# (lib/sh/tap.sh, installed beside this file), the one way to load dm-wberr,
# the flusher setting and the errseq trace setup.

. "${WBERR_LIBEXEC:-/opt/wberr/libexec}/tap.sh"

# wberr_cmdline KEY: the value of the last KEY=VALUE word on the kernel
# command line (how run-guest --append and make test SHARD= reach a guest
# test: wberr_shard, wberr_evidence, the wberr_stress_* knobs), empty if
# there is none.
wberr_cmdline() {
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}

# wberr_shard: this boot's make test SHARD=I/N ($WBERR_SHARD, else
# wberr_shard= on the kernel command line), empty for all of it.
wberr_shard() {
	echo "${WBERR_SHARD:-$(wberr_cmdline wberr_shard)}"
}

# wberr_wait_until SECONDS COMMAND...: run COMMAND every 0.1 s until it
# succeeds, for at most SECONDS; status 1 if it never did.  The wait for an
# event that has no fixed time (a bio held, a process gone, a deferred
# removal done), instead of a sleep long enough for a slow guest.
wberr_wait_until() {
	_wait_left=$(($1 * 10))
	shift
	until "$@"; do
		[ "$_wait_left" -gt 0 ] || return 1
		_wait_left=$((_wait_left - 1))
		sleep 0.1
	done
}

# wberr_load_dm: make the dm "wberr" target available.  Returns 0 when
# `dmsetup targets` lists it (loaded now or by an earlier test); otherwise
# prints one line on stderr naming what failed (the .ko missing, insmod's
# own message, or a load that registered no target) and returns 1.  A test
# that needs the target says `# wberr-requires: dm-wberr` and run-suites
# calls this before it; a failure is then the test's one `not ok`.
wberr_load_dm() {
	ko=${WBERR_MODDIR:-/opt/wberr/modules}/dm-wberr.ko
	if [ ! -d /sys/module/dm_wberr ]; then
		if [ ! -f "$ko" ]; then
			echo "wberr_load_dm: $ko is missing (the image was built without the module)" >&2
			return 1
		fi
		err=$(insmod "$ko" 2>&1) || {
			echo "wberr_load_dm: insmod $ko failed: $err" >&2
			return 1
		}
	fi
	dmsetup targets 2>/dev/null | grep -q '^wberr ' || {
		echo "wberr_load_dm: dm_wberr is loaded but 'dmsetup targets' lists no wberr target" >&2
		return 1
	}
}

# wberr_series_present: true when the running kernel carries our patch
# series (kernel/patches), told by what the kernel shows, not by its name:
# patch 0004 adds "wb_err:" and "sb_err:" lines to /proc/<pid>/fdinfo/<fd> of
# a regular file (fs/proc/fd.c, seq_show_wb_err()); a kernel without the
# series has no such line.  The file read is this library, a regular file
# on the initramfs (fd 0 of grep, /proc/self being grep).
wberr_series_present() {
	grep -q '^wb_err:' /proc/self/fdinfo/0 < "${WBERR_LIBEXEC:-/opt/wberr/libexec}/lib.sh"
}

# wberr_debian_shipped: when the running kernel is one Debian built and
# ships (make KERNEL=debian-6.12|debian-6.1), prints "Debian's shipped
# <release>" and returns 0.  Told by the kernel's own banner: Debian's
# builds name their builder, "(debian-kernel@lists.debian.org)", in
# /proc/version; our build of the same source names this machine's user.
wberr_debian_shipped() {
	grep -q '(debian-kernel@lists\.debian\.org)' /proc/version || return 1
	echo "Debian's shipped $(uname -r)"
}

# wberr_need_series TEST: for a test of the series itself (tests/kunit,
# tests/errseq-patches).  Returns 0 when the series is there (run
# everything).  Otherwise prints the test's one result and returns 1: on
# a Debian shipped kernel an ok with "# SKIP the kernel has no wberr patch
# series (Debian's shipped <release>)", on any other kernel (our own
# build, which must carry the series) a not ok, and sets TAP_FAILED.
wberr_need_series() {
	wberr_series_present && return 0
	if _ws_deb=$(wberr_debian_shipped); then
		echo "1..1"
		tap_skip "$1" "the kernel has no wberr patch series ($_ws_deb)"
	elif [ "$(wberr_cmdline wberr_kernel)" = unpatched ]; then
		echo "1..1"
		tap_skip "$1" "the kernel has no wberr patch series (our build without it, make KERNEL=unpatched)"
	else
		echo "1..1"
		tap_ok 1 "$1: the kernel $(uname -r) has no wberr patch series (no wb_err: line in a regular file's fdinfo) and is not one of Debian's shipped kernels"
	fi
	return 1
}

# flusher_hold / flusher_restore: only the test's own fsync, sync or
# eviction starts writeback; why an hour and not 0 is in lib/c/wb_sys.h
# (wb_flusher_hold, which wberr-run uses).  restore puts back the kernel's
# defaults (5 s interval, 30 s expiry).
flusher_hold() {
	echo 360000 > /proc/sys/vm/dirty_writeback_centisecs &&
		echo 360000 > /proc/sys/vm/dirty_expire_centisecs
}
flusher_restore() {
	echo 500 > /proc/sys/vm/dirty_writeback_centisecs &&
		echo 3000 > /proc/sys/vm/dirty_expire_centisecs
}

# trace_start [EVENT...]: record the filemap errseq events (default
# filemap_set_wb_err and file_check_and_advance_wb_err) in a cleared
# buffer; returns 1 if one of them could not be enabled.
# trace_stop FILE: stop, keep the buffer in FILE and in $WBERR_RESULTS, and
# disable the events again.  wberr-run and wberr-stress do the same in C
# (lib/c/wb_tracefs.h).
WBERR_TRACING=${WBERR_TRACING:-/sys/kernel/tracing}
trace_start() {
	_trace_events=${*:-filemap_set_wb_err file_check_and_advance_wb_err}
	echo 0 > "$WBERR_TRACING/tracing_on"
	echo > "$WBERR_TRACING/trace"
	_trace_rc=0
	for _e in $_trace_events; do
		echo 1 > "$WBERR_TRACING/events/filemap/$_e/enable" || _trace_rc=1
	done
	echo 1 > "$WBERR_TRACING/tracing_on"
	return $_trace_rc
}
trace_stop() {	# $1: file to keep the trace in
	echo 0 > "$WBERR_TRACING/tracing_on"
	cat "$WBERR_TRACING/trace" > "$1"
	for _e in $_trace_events; do
		echo 0 > "$WBERR_TRACING/events/filemap/$_e/enable" 2>/dev/null
	done
	cp "$1" "${WBERR_RESULTS:-/results}/" 2>/dev/null
}
