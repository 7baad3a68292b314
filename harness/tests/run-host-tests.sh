#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side tests (no guest): build.sh from every cache state, the runner's
# and the guest harness's self-checks, report.sh, make run's payload checks,
# the top Makefile's order under -j, the bench report on synthetic fio
# output, the results page in headless Chromium, lib/c's, wberr-run's and wberr-stress's unit tests.  Each writes TAP into
# RESULTS_DIR/host-<name>.tap, listed in RESULTS_DIR/manifest.txt.
set -u
# Run by make test: the makes below are its children only by way of this
# script and take none of its flags (its jobserver, whose descriptors they
# do not get, or its -j).
unset MAKEFLAGS MFLAGS MAKELEVEL
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# --list prints the names this shard would run, and runs nothing.
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
results=${1:?usage: run-host-tests.sh [--list] RESULTS_DIR}
[ $list = 1 ] || mkdir -p "$results"
# make test SHARD=I/N (WBERR_SHARD=I/N): the tests at positions k (0-based,
# in the order below) with k % N == I-1, as run-suites splits the guest's.
. "$top/lib/sh/shard.sh"
. "$top/lib/sh/manifest.sh"
shard_parse "${WBERR_SHARD:-}" || { echo "[host] error: bad WBERR_SHARD (make test SHARD=I/N)" >&2; exit 2; }
# The self-tests shard fake runs of their own: none may inherit this one.
unset WBERR_SHARD
rc=0 k=0
host_test() {	# $1 name (host-<name>.tap), $2 what it checks, $3... command
	local name=$1 what=$2
	shift 2
	k=$((k + 1))
	shard_keeps $((k - 1)) || return 0
	[ $list = 1 ] && { echo "$name"; return 0; }
	echo "[host] $what"
	"$@" > "$results/host-$name.tap" || rc=1
	manifest_add "$results" tap/host "host-$name.tap" - host
}
# The four long ones first, in an order that spreads them over two or
# three shards (measured alone: run-suites 28 s, build-states 27 s, runner
# 18 s, report 5 s, make-deps 7 s (sleeps); the rest about 1 s each).
host_test run-suites "guest harness (run-suites) self-checks, fake kernel tools" \
	"$here/run-suites-selftest.sh"
host_test build-states "kernel/build.sh from every cache state (fake source tarball)" \
	"$top/kernel/tests/host-build-states.sh"
host_test runner "runner self-checks" "$here/runner-selftest.sh"
host_test report "report.sh: totals and JUnit" "$here/report-selftest.sh"
host_test run-payload "make run's payload checks" "$here/run-payload-selftest.sh"
host_test make-deps "make -j installs its packages before it compiles" \
	"$here/make-deps-selftest.sh"
host_test bench-report "bench report self-checks" \
	env PYTHONDONTWRITEBYTECODE=1 python3 "$here/bench-report-selftest.py"
host_test compare "kernel comparison (compare.py) self-checks" \
	env PYTHONDONTWRITEBYTECODE=1 python3 "$here/compare-selftest.py"
# The results page in Debian's headless Chromium, installed here and only
# here (make deps-browser); the screenshot stays in RESULTS for a person.
page_test() {
	make -s -C "$top" deps-browser >&2 || echo "[host] make deps-browser failed: the page test says what is missing" >&2
	env PYTHONDONTWRITEBYTECODE=1 python3 "$here/page-selftest.py" --screenshot "$results/page-fixture.png"
}
host_test page "the results page (page.py) in headless Chromium" page_test
[ -f "$results/page-fixture.png" ] && manifest_add "$results" screenshot page-fixture.png - host
host_test report-card "the report card (report_card.py) self-checks" \
	env PYTHONDONTWRITEBYTECODE=1 python3 "$here/report-card-selftest.py"
host_test stream "the result-stream reader and the TAP reader" "$here/stream-selftest.sh"
host_test channel "docs/architecture.md's channel and results tables against the code" \
	"$here/channel-selftest.sh"
host_test lib "lib/c unit tests" make -s -C "$top/lib/c" check BUILD="$top/build"
host_test wberr-run "wberr-run unit tests" make -s -C "$top/tools/wberr-run" check BUILD="$top/build"
host_test wberr-stress "wberr-stress unit tests" make -s -C "$top/tools/wberr-stress" check BUILD="$top/build"
[ $list = 1 ] && exit 0
grep -hs '^not ok' "$results"/host-*.tap | sed 's/^/[host] /'
exit $rc
