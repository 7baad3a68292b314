#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each unit-test binary as a TAP 14 subtest, then validates every
# scenario under scenarios/ with wberr-run --check, and checks that
# --shard 1/3, 2/3 and 3/3 split the library's --list exactly (make test
# SHARD=I/N relies on it) and keep each file system's instances together
# (a shard makes the mkfs templates of few kinds).  TAP on stdout.
. "$TOP/lib/sh/tap.sh"
tap_begin $(( $# + 5 ))
for t in "$@"; do
	tap_subtest "$(basename "$t")" "$t"
done
out=$("$OUT/wberr-run" --check "$TOP/scenarios" 2>&1)
tap_ok $? "scenarios parse" || printf '%s\n' "$out" | sed 's/^/  # /'
tap_diag "$out"

full=$("$OUT/wberr-run" --list "$TOP/scenarios" 2>&1 | sort)
shards=$(for i in 1 2 3; do "$OUT/wberr-run" --list --shard $i/3 "$TOP/scenarios" 2>&1; done | sort)
[ -n "$full" ] && [ "$shards" = "$full" ]
tap_ok $? "--shard 1/3, 2/3, 3/3: each of the $(printf '%s\n' "$full" | wc -l) instances in exactly one shard" ||
	printf '%s\n' "$full" "$shards" | sort | uniq -c | awk '$1 != 2 { print "  # " $0 }'
# Contiguous runs of the selection in kind order (of about equal cost:
# test_shard checks the cut itself): each boundary between shards
# splits at most one file system's instances (on one backend: an id ends
# in @<backend> off dm-wberr), so the shards' kinds add up to at most the
# library's plus N - 1 (taking every third would give each shard nearly
# every kind).
kind_of() { sed -E 's|^([^/]*)/[^@]*(@.*)?$|\1\2|'; }
kinds=$(printf '%s\n' "$full" | kind_of | sort -u | wc -l)
sum=0
for i in 1 2 3; do
	k=$("$OUT/wberr-run" --list --shard $i/3 "$TOP/scenarios" 2>&1 | kind_of | sort -u | wc -l)
	sum=$((sum + k))
done
[ "$kinds" -gt 1 ] && [ "$sum" -le $((kinds + 2)) ]
tap_ok $? "--shard I/3 keeps a file system's instances together: $sum file systems (on a backend) over the 3 shards, the library has $kinds"
out=$("$OUT/wberr-run" --list --shard 4/3 "$TOP/scenarios" 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$out" = "wberr-run: --shard takes I/N with 1 <= I <= N, not '4/3'" ]
tap_ok $? "--shard 4/3 is refused with the reason (status $rc)" || tap_diag "$out"

# --costs: earlier runs' results.json weigh the cut, by the median of up
# to three: a run where one instance stalled (B: 500 s) moves the cut
# alone, not between two that agree (A, C).
costs_run() {	# $1: the id that took 500 s, or none
	printf '{"kernel": null, "run": null, "instances": [\n'
	printf '%s\n' "$full" | awk -v slow="$1" '{ printf "%s{\"id\": \"%s\", \"verdict\": \"pass\", \"phases\": {\"steps\": %s}}\n",
		(NR > 1 ? "," : ""), $0, ($0 == slow ? 500 : 0.2) }'
	printf ']}\n'
}
tmp=$(mktemp -d)
costs_run none > "$tmp/a.json"
costs_run "$(printf '%s\n' "$full" | sed -n 2p)" > "$tmp/b.json"
cut_by() { "$OUT/wberr-run" --list --shard 1/3 "$@" "$TOP/scenarios" 2>&1; }
a=$(cut_by --costs "$tmp/a.json") b=$(cut_by --costs "$tmp/b.json")
m=$(cut_by --costs "$tmp/a.json" --costs "$tmp/b.json" --costs "$tmp/a.json")
[ -n "$a" ] && [ "$a" != "$b" ] && [ "$m" = "$a" ]
tap_ok $? "--costs: a run's times move the cut ($(echo "$a" | wc -l) vs $(echo "$b" | wc -l) instances in shard 1/3), the median of three ignores one stalled run"
rm -rf "$tmp"
tap_end
