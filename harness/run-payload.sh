#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the payload of `make run SCENARIOS=... FILTER=...` (Makefile, run
# target): check the scenario files on the host before any boot, refuse a
# filter that selects nothing, and lay out what the guest's scenario suite
# reads (tests/scenarios/001):
#
#   OUT/scenarios/<basename>...   the files or folders named in SCENARIOS
#   OUT/scenario-filter           the FILTER globs, when given
#
#   run-payload.sh --wberr-run BIN --out DIR [--filter GLOBS] [--library DIR] [PATH...]
#
# No PATH: the library (--library) is checked and filtered, and nothing is
# copied (the image already holds it).  wberr-run --check and --list only
# parse YAML: nothing here touches a device.
set -euo pipefail
. "$(cd "$(dirname "$0")/.." && pwd)/lib/sh/errtrap.sh"
errtrap_init run

wr= out= filter= library=
while [ $# -gt 0 ]; do
	case "$1" in
	--wberr-run) wr=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--filter) filter=$2; shift 2 ;;
	--library) library=$2; shift 2 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (usage: run-payload.sh --wberr-run BIN --out DIR [--filter GLOBS] [--library DIR] [PATH...])" 2 ;;
	*) break ;;
	esac
done
[ -x "$wr" ] || die "no wberr-run at '${wr}': build it with make tools" 2
[ -n "$out" ] || die "--out DIR is required" 2
own=("$@")
paths=("$@")
if [ ${#paths[@]} -eq 0 ]; then
	[ -n "$library" ] || die "no SCENARIOS and no --library" 2
	paths=("$library")
fi

step check
rm -rf "$out"
mkdir -p "$out"
for p in "${paths[@]}"; do
	[ -e "$p" ] || die "SCENARIOS: no such file or directory: $p"
done
"$wr" --check "${paths[@]}" > /dev/null ||
	die "scenario refused (above, file:line:column); nothing was booted"

step filter
sel=$("$wr" --list ${filter:+--filter "$filter"} "${paths[@]}")
if [ -z "$sel" ]; then
	die "FILTER '$filter' selects none of the $("$wr" --list "${paths[@]}" | wc -l) instances in ${paths[*]}; ids are fs/name[status], listed by: $wr --list ${paths[*]}"
fi
n=$(printf '%s\n' "$sel" | wc -l)
say "$n instance(s) selected from ${paths[*]}${filter:+ by '$filter'}:"
printf '%s\n' "$sel" | head -n 20 | sed 's/^/[run]   /' >&2
[ "$n" -le 20 ] || say "  ..."
[ -z "$filter" ] || printf '%s\n' "$filter" > "$out/scenario-filter"

step copy
[ ${#own[@]} -gt 0 ] || exit 0
mkdir -p "$out/scenarios"
for p in "${own[@]}"; do
	b=$(basename "$(realpath "$p")")
	[ ! -e "$out/scenarios/$b" ] || die "SCENARIOS: two entries named $b"
	cp -RL "$p" "$out/scenarios/$b"
done
