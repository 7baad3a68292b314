# SPDX-License-Identifier: GPL-2.0
# TAP 14 helpers, POSIX sh (busybox in the guest, dash or bash on the
# host), the one TAP writer of the shell side:
#   guest tests:  . /opt/wberr/libexec/lib.sh   (brings this file)
#   host tests:   . "$top/lib/sh/tap.sh"
# tap_is compares an observed value with the expected one and prints both
# when they differ, so a failure says what actually happened.

TAP_N=0
TAP_FAILED=0

tap_begin() {	# [$1: number of planned tests; none: tap_done prints the plan]
	echo "TAP version 14"
	[ -z "${1:-}" ] || echo "1..$1"
}

tap_ok() {	# $1: 0 for pass, anything else for fail; $2: description
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $TAP_N - $2"
		return 0
	fi
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $2"
	return 1
}

_tap_yaml_value() {	# $1: key, $2: value -> one YAML line, or a literal block
	case "$2" in
	*'
'*)	echo "  $1: |"
		printf '%s\n' "$2" | sed 's/^/    /' ;;
	*)	echo "  $1: '$2'" ;;
	esac
}

tap_is() {	# $1: observed, $2: expected, $3: description; status 1 if they differ
	if [ "$1" = "$2" ]; then
		tap_ok 0 "$3"
		return 0
	fi
	tap_ok 1 "$3"
	echo "  ---"
	_tap_yaml_value found "$1"
	_tap_yaml_value wanted "$2"
	echo "  ..."
	return 1
}

tap_subtest() {	# $1: name, then a command printing TAP: indented as a subtest, one point
	_tap_name=$1
	shift
	echo "# Subtest: $_tap_name"
	_tap_out=$("$@" 2>&1)
	_tap_rc=$?
	printf '%s\n' "$_tap_out" | sed 's/^/    /'
	tap_ok "$_tap_rc" "$_tap_name"
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

tap_done() {	# the plan from the count (tap_begin without a number), then tap_end
	echo "1..$TAP_N"
	tap_end
}
