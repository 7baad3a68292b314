#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side tests (no guest): build.sh from every cache state, the runner's and the guest harness's self-checks, report.sh, make run's payload
# checks, the bench report on synthetic fio output, lib/c's and the userspace unit tests.  Each writes TAP into RESULTS_DIR/host-<name>.tap.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
results=${1:?usage: run-host-tests.sh RESULTS_DIR}
mkdir -p "$results"
rc=0
echo "[host] kernel/build.sh from every cache state (fake source tarball)"
"$top/kernel/tests/host-build-states.sh" > "$results/host-build-states.tap" || rc=1
echo "[host] runner self-checks"
"$here/runner-selftest.sh" > "$results/host-runner.tap" || rc=1
echo "[host] report.sh: totals and JUnit"
"$here/report-selftest.sh" > "$results/host-report.tap" || rc=1
echo "[host] make run's payload checks"
"$here/run-payload-selftest.sh" > "$results/host-run-payload.tap" || rc=1
echo "[host] guest harness (run-suites) self-checks, fake kernel tools"
"$here/run-suites-selftest.sh" > "$results/host-run-suites.tap" || rc=1
echo "[host] bench report self-checks"
PYTHONDONTWRITEBYTECODE=1 python3 "$here/bench-report-selftest.py" > "$results/host-bench-report.tap" || rc=1
echo "[host] kernel comparison (compare.py) self-checks"
PYTHONDONTWRITEBYTECODE=1 python3 "$here/compare-selftest.py" > "$results/host-compare.tap" || rc=1
echo "[host] lib/c unit tests"
make -s -C "$top/lib/c" check BUILD="$top/build" > "$results/host-lib.tap" || rc=1
echo "[host] userspace unit tests"
make -s -C "$top/userspace" check BUILD="$top/build" > "$results/host-userspace.tap" || rc=1
echo "[host] stress tool unit tests"
make -s -C "$top/userspace/stress" check BUILD="$top/build" > "$results/host-stress.tap" || rc=1
grep -h '^not ok' "$results"/host-*.tap | sed 's/^/[host] /'
exit $rc
