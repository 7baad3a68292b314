# SPDX-License-Identifier: GPL-2.0
#
# Sourced by every host script on the set-up path (make run, make test,
# make bench): none of them may exit non-zero without saying what failed,
# where, and which log to read.  A first run on a new machine is the run
# nobody watches closely, so its failures must explain themselves.
#
#   . "$top/lib/sh/errtrap.sh"
#   errtrap_init TAG            # messages start with [TAG]
#   step NAME [LOG]             # what the script does now, and its log
#   say MESSAGE                 # progress on stderr
#   die MESSAGE [STATUS]        # a failure the script understands
#   errtrap_cleanup 'COMMAND'   # run at exit (instead of a trap of its own)
#   errtrap_exit STATUS         # leave with a status already explained
#
# Under `set -e` an unhandled failure is reported where it happens:
#
#   [kernel] error: kernel/build.sh:212: tar -C ... -xf ... (status 2), step 'extract'; log: ...
#
# Without `set -e` (scripts that look at statuses themselves) the last
# failed command is remembered, and an exit with an unexplained non-zero
# status names it.

_errtrap_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_errtrap_tag=wberr
_errtrap_step=
_errtrap_log=
_errtrap_said=0
_errtrap_last=
_errtrap_cleanups=()

_errtrap_where() {	# FILE LINE -> path relative to the checkout
	local f=$1
	case "$f" in "$_errtrap_top"/*) f=${f#"$_errtrap_top"/} ;; esac
	printf '%s:%s' "$f" "$2"
}

_errtrap_context() {
	[ -n "$_errtrap_step" ] && printf ", step '%s'" "$_errtrap_step"
	[ -n "$_errtrap_log" ] && printf '; log: %s' "$_errtrap_log"
	return 0
}

_errtrap_on_err() {	# STATUS FILE LINE COMMAND
	# Only the script's own shell speaks; a command substitution's failure
	# surfaces as its caller's.
	[ "$BASH_SUBSHELL" -eq 0 ] || return 0
	_errtrap_last="$(_errtrap_where "$2" "$3"): $4 (status $1)"
	case $- in
	*e*)
		printf '[%s] error: %s%s\n' "$_errtrap_tag" "$_errtrap_last" "$(_errtrap_context)" >&2
		_errtrap_said=1 ;;
	esac
	return 0
}

_errtrap_on_exit() {
	local rc=$? c
	set +e
	for c in "${_errtrap_cleanups[@]+"${_errtrap_cleanups[@]}"}"; do eval "$c"; done
	if [ "$rc" -ne 0 ] && [ "$_errtrap_said" = 0 ]; then
		printf '[%s] error: exited with status %d%s%s\n' "$_errtrap_tag" "$rc" \
			"${_errtrap_last:+ after $_errtrap_last}" "$(_errtrap_context)" >&2
	fi
	exit "$rc"
}

errtrap_init() {
	_errtrap_tag=$1
	set -o errtrace
	trap '_errtrap_on_err $? "${BASH_SOURCE[0]}" "$LINENO" "$BASH_COMMAND"' ERR
	trap _errtrap_on_exit EXIT
	# A signal is an explained end: say which one.
	trap 'die "interrupted (SIGINT)" 130' INT
	trap 'die "terminated (SIGTERM)" 143' TERM
}

step() { _errtrap_step=$1; _errtrap_log=${2:-}; }
say() { printf '[%s] %s\n' "$_errtrap_tag" "$*" >&2; }

die() {
	printf '[%s] error: %s%s\n' "$_errtrap_tag" "$1" "$(_errtrap_context)" >&2
	_errtrap_said=1
	exit "${2:-1}"
}

errtrap_cleanup() { _errtrap_cleanups+=("$1"); }

errtrap_exit() {
	_errtrap_said=1
	exit "$1"
}
