# SPDX-License-Identifier: GPL-2.0
# make test SHARD=I/N, the shell side's one rule (POSIX sh: the guest's
# run-suites and the host's run-host-tests.sh): of a list in a fixed
# order, shard I keeps the items at positions k (0-based) with
# k % N == I-1, so N shards hold every item exactly once.  (wberr-run
# --shard cuts the scenario instances into N contiguous runs of about equal
# cost by file-system kind instead, so that a shard makes the mkfs
# templates of few kinds.)
#
#   shard_parse SPEC    SPEC is I/N, or empty for the whole list (1/1):
#                       sets shard_i and shard_n; 1 (and a reason on
#                       stderr) when SPEC is not I/N with 1 <= I <= N
#   shard_keeps K       0 when position K is in this shard
#   shard_by_cost       stdin: "COST ID" lines in the list's order, COST
#                       whole seconds; prints the IDs this shard keeps, in
#                       that order.  Longest first, each to the shard with
#                       the least cost so far (the lower one on a tie):
#                       with equal costs, the k % N rule above; a long test
#                       no longer shares its shard with a third of the rest

shard_i=1
shard_n=1

shard_parse() {
	shard_i=1 shard_n=1
	[ -n "$1" ] || return 0
	case "$1" in
	*[!0-9/]* | */*/* | /* | */ | 0* | */0*) ;;
	*/*)
		if [ "${1%/*}" -le "${1#*/}" ]; then
			shard_i=${1%/*} shard_n=${1#*/}
			return 0
		fi ;;
	esac
	echo "shard: takes I/N with 1 <= I <= N, not '$1'" >&2
	return 1
}

shard_keeps() {
	[ $(($1 % shard_n)) -eq $((shard_i - 1)) ]
}

shard_by_cost() {
	awk -v n="$shard_n" -v i="$shard_i" '
	{ cost[NR] = $1 + 0; id[NR] = $2 }
	END {
		for (m = 1; m <= NR; m++) {
			b = 0
			for (k = 1; k <= NR; k++)
				if (!taken[k] && (b == 0 || cost[k] > cost[b]))
					b = k
			taken[b] = 1
			s = 1
			for (t = 2; t <= n; t++)
				if (load[t] < load[s])
					s = t
			load[s] += cost[b]
			if (s == i)
				keep[b] = 1
		}
		for (k = 1; k <= NR; k++)
			if (keep[k])
				print id[k]
	}'
}
