#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One report from the results of `make test SHARD=I/N`, I = 1..N, run on one
# machine or on N (a CI matrix, README "Shards"):
#
#   harness/merge-shards.sh [--no-report] OUT_DIR SHARD_RESULTS_DIR...
#
# Each SHARD_RESULTS_DIR is one shard's results directory as make test left
# it (build/results-shard-I-of-N), with the file `shard` that says I/N and
# its manifest.txt.  All N shards must be there, each once: a report over
# some of them would look complete and not be.  OUT_DIR gets each shard's
# TAP files (those its manifest lists) as <suite>.shard-I.tap (the same
# suite runs in several shards), all its files under shard-I/, a manifest
# of those, and then what report.sh makes of the TAP files: one junit.xml
# and the last line `N passed, N failed[, N skipped]`.  --no-report stops
# before report.sh (harness/merge-run.sh adds the run's summary first).
set -uo pipefail
. "$(cd "$(dirname "$0")/.." && pwd)/lib/sh/errtrap.sh"
. "$(cd "$(dirname "$0")/.." && pwd)/lib/sh/shard.sh"
. "$(cd "$(dirname "$0")/.." && pwd)/lib/sh/manifest.sh"
errtrap_init merge-shards
here=$(cd "$(dirname "$0")" && pwd)

report=1
[ "${1:-}" = --no-report ] && { report=0; shift; }
[ $# -ge 2 ] || die "usage: merge-shards.sh [--no-report] OUT_DIR SHARD_RESULTS_DIR..."
out=$1
shift

n= seen=
for d in "$@"; do
	[ -f "$d/shard" ] || die "$d has no file 'shard': not the results of make test SHARD=I/N"
	[ -f "$d/manifest.txt" ] || die "$d has no manifest.txt: not the results of make test SHARD=I/N"
	s=$(cat "$d/shard")
	shard_parse "$s" 2>/dev/null && [ -n "$s" ] || die "$d/shard says '$s', not I/N"
	i=$shard_i dn=$shard_n
	[ -z "$n" ] || [ "$dn" = "$n" ] || die "$d is shard $s, the others are of $n"
	n=$dn
	case " $seen " in *" $i "*) die "shard $i/$n given twice (again in $d)" ;; esac
	seen="$seen $i"
done
missing=
for ((i = 1; i <= n; i++)); do
	case " $seen " in *" $i "*) ;; *) missing="$missing $i/$n" ;; esac
done
[ -z "$missing" ] || die "missing shard(s):$missing"

rm -rf "$out"
mkdir -p "$out" || die "cannot make $out"
for d in "$@"; do
	shard_parse "$(cat "$d/shard")"
	i=$shard_i
	mkdir -p "$out/shard-$i"
	cp -a "$d/." "$out/shard-$i/" || die "cannot copy $d into $out/shard-$i"
	manifest_add "$out" shard-dir "shard-$i"
	# A TAP file listed but missing stays listed: report.sh fails it.
	while read -r kind path suite boot; do
		b=${path##*/}
		b=${b%.tap}.shard-$i.tap
		cp "$d/$path" "$out/$b" 2>/dev/null
		manifest_add "$out" "$kind" "$b" "$suite" "$boot"
	done < <(manifest_lines "$d" 'tap/*')
done
say "$n shards from $# directories into $out"
[ "$report" = 0 ] || exec "$here/report.sh" "$out"
