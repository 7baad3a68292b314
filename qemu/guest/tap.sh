# SPDX-License-Identifier: GPL-2.0
# TAP 14 helpers for guest suites: `. /opt/wberr/libexec/tap.sh`.
# tap_is compares an observed value with the expected one and prints both
# when they differ, so a failure says what the kernel actually did.

TAP_N=0
TAP_FAILED=0

tap_begin() {	# $1: number of planned tests
	echo "TAP version 14"
	echo "1..$1"
}

tap_ok() {	# $1: 0 for pass, anything else for fail; $2: description
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $TAP_N - $2"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		echo "not ok $TAP_N - $2"
	fi
}

tap_is() {	# $1: observed, $2: expected, $3: description
	if [ "$1" = "$2" ]; then
		tap_ok 0 "$3"
	else
		tap_ok 1 "$3"
		echo "  ---"
		echo "  found: '$1'"
		echo "  wanted: '$2'"
		echo "  ..."
	fi
}

tap_skip() {	# $1: description, $2: reason
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

tap_diag() {
	echo "# $*"
}

tap_end() {	# exit status for the harness
	[ "$TAP_FAILED" -eq 0 ]
}
