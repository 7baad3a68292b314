#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each unit-test binary as a TAP 14 subtest, then validates every
# scenario under scenarios/ with wberr-run --check.  TAP on stdout.
. "$HERE/../lib/sh/tap.sh"
tap_begin $(( $# + 1 ))
for t in "$@"; do
	tap_subtest "$(basename "$t")" "$t"
done
out=$("$OUT/wberr-run" --check "$HERE/../scenarios" 2>&1)
tap_ok $? "scenarios parse" || printf '%s\n' "$out" | sed 's/^/  # /'
tap_diag "$out"
tap_end
