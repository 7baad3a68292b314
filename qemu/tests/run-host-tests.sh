#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side tests (no guest): build.sh from every cache state, the runner's and the guest harness's self-checks, the bench report on
# synthetic fio output, and the userspace unit tests.  Each writes TAP into RESULTS_DIR/host-<name>.tap.
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
echo "[host] guest harness (run-suites) self-checks, fake kernel tools"
"$here/run-suites-selftest.sh" > "$results/host-run-suites.tap" || rc=1
echo "[host] bench report self-checks"
PYTHONDONTWRITEBYTECODE=1 python3 "$here/bench-report-selftest.py" > "$results/host-bench-report.tap" || rc=1
echo "[host] lib/c unit tests"
make -s -C "$top/lib/c" check BUILD="$top/build" > "$results/host-lib.tap" || rc=1
if [ -f "$top/userspace/Makefile" ]; then
	echo "[host] userspace unit tests"
	make -s -C "$top/userspace" check BUILD="$top/build" > "$results/host-userspace.tap" || rc=1
fi
if [ -f "$top/userspace/stress/Makefile" ]; then
	echo "[host] stress tool unit tests"
	make -s -C "$top/userspace/stress" check BUILD="$top/build" > "$results/host-stress.tap" || rc=1
fi
grep -h '^not ok' "$results"/host-*.tap | sed 's/^/[host] /'
exit $rc
