#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host checks of harness/run-payload.sh (make run SCENARIOS=... FILTER=...) with
# the real wberr-run, which only parses YAML here: what reaches the payload,
# and that every refusal says why and leaves no payload behind.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
wr=${WBERR_RUN:-$top/build/guest-bin/wberr-run}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin 14
if [ ! -x "$wr" ]; then
	echo "Bail out! no $wr: make tools first"
	exit 1
fi

pay() {	# run-payload.sh ARGS... -> $status, $out (stderr+stdout), payload in $tmp/p
	"$top/harness/run-payload.sh" --wberr-run "$wr" --out "$tmp/p" \
		--library "$top/scenarios" "$@" > "$tmp/out" 2>&1
	status=$?
	out=$(cat "$tmp/out")
}
check() {	# $1 observed, $2 expected, $3 description; the output on failure
	tap_is "$1" "$2" "$3" || sed 's/^/# /' "$tmp/out"
}
has() { case "$out" in *"$1"*) echo yes ;; *) echo no ;; esac; }

pay --filter 'ext4/*'
check "$status" 0 "a filter over the library is accepted"
check "$(cat "$tmp/p/scenario-filter" 2>/dev/null)" 'ext4/*' "the filter travels in the payload"
check "$([ -e "$tmp/p/scenarios" ] && echo copied || echo none)" none "the library is not copied (the image holds it)"

pay "$top/scenarios/core/eviction.yaml" "$top/scenarios/ext4"
check "$status" 0 "own scenario files and folders are accepted"
check "$(ls "$tmp/p/scenarios" | tr '\n' ' ')" "eviction.yaml ext4 " "each is copied under its own name"
check "$([ -e "$tmp/p/scenario-filter" ] && echo yes || echo no)" no "no filter file without FILTER"

pay "$tmp/missing.yaml"
check "$status:$(has 'no such file or directory')" "1:yes" "a missing path is refused and named"

printf 'name: x\nfs: [ext4]\nsteps:\n  - op: bogus\n' > "$tmp/bad.yaml"
pay "$tmp/bad.yaml"
check "$status:$(has "$tmp/bad.yaml:")" "1:yes" "a refused scenario is named with its file:line:column"
check "$(has 'nothing was booted')" yes "... and the user is told nothing was booted"
check "$([ -e "$tmp/p/scenarios" ] && echo copied || echo none)" none "... and nothing reaches the payload"

pay --filter 'nofs/*'
check "$status:$(has "selects none of the $("$wr" --list "$top/scenarios" | wc -l) instances")" "1:yes" "a filter that selects nothing is refused with the instance count"

mkdir -p "$tmp/a" "$tmp/b"
cp "$top/scenarios/core/eviction.yaml" "$tmp/a/s.yaml"
cp "$top/scenarios/core/mmap-msync.yaml" "$tmp/b/s.yaml"
pay "$tmp/a/s.yaml" "$tmp/b/s.yaml"
check "$status:$(has 'two entries named s.yaml')" "1:yes" "two entries with one name are refused"

"$top/harness/run-payload.sh" --wberr-run "$tmp/none" --out "$tmp/p" > "$tmp/out" 2>&1
status=$?; out=$(cat "$tmp/out")
check "$status:$(has 'make tools')" "2:yes" "a missing wberr-run says how to build it"
check "$(has 'error:')" yes "every refusal is an error line, never silent"
tap_end
