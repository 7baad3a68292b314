# SPDX-License-Identifier: GPL-2.0
# The shared guest library: `. /opt/wberr/libexec/lib.sh` in a guest test
# (run-suites and bench-dm.sh source it too).  It brings the TAP helpers
# (lib/sh/tap.sh, installed beside this file), the one way to load dm-wberr,
# the flusher setting and the errseq trace setup.

. "${WBERR_LIBEXEC:-/opt/wberr/libexec}/tap.sh"

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
