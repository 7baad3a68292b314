#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each unit-test binary as a TAP 14 subtest, then validates every
# scenario under scenarios/ with wberr-run --check.  TAP on stdout.
n=0 fail=0
echo "TAP version 14"
total=$(( $# + 1 ))
echo "1..$total"
for t in "$@"; do
	n=$((n + 1))
	name=$(basename "$t")
	echo "# Subtest: $name"
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out" | sed 's/^/    /'
	if [ $rc -eq 0 ]; then echo "ok $n - $name"; else echo "not ok $n - $name"; fail=$((fail + 1)); fi
done
n=$((n + 1))
out=$("$OUT/wberr-run" --check "$HERE/../scenarios" 2>&1); rc=$?
if [ $rc -eq 0 ]; then echo "ok $n - scenarios parse # $out"; else
	echo "not ok $n - scenarios parse"; printf '%s\n' "$out" | sed 's/^/  # /'; fail=$((fail + 1)); fi
[ $fail -eq 0 ]
