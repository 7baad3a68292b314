#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One `make run` from its boots, each a shard of the selection (Makefile,
# run, RUN_JOBS):
#
#   harness/merge-run.sh --wberr-run BIN OUT_DIR SHARD_DIR... -- WBERR_RUN_ARGS...
#
# merge-shards.sh lays the shards out in OUT_DIR (shard-I/, the TAP files
# by shard); wberr-run --merge then writes the run's summary.txt and
# tables there from the shards' results.json, for the selection that
# WBERR_RUN_ARGS names (the scenario paths and --filter, as the host sees
# them), and they are listed in OUT_DIR's manifest as the scenario suite's
# (harness/guest/artifacts gives their kinds).  A shard whose scenario
# suite did not finish left no results.json: then there is no summary, it
# is said, and the TAP files say what failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/lib/sh/errtrap.sh"
. "$top/lib/sh/manifest.sh"
errtrap_init merge-run

[ "${1:-}" = --wberr-run ] && [ $# -ge 2 ] || die "usage: merge-run.sh --wberr-run BIN OUT_DIR SHARD_DIR... -- WBERR_RUN_ARGS..." 2
wr=$2
shift 2
dirs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	dirs+=("$1")
	shift
done
[ "${1:-}" = -- ] && [ ${#dirs[@]} -ge 2 ] || die "usage: merge-run.sh --wberr-run BIN OUT_DIR SHARD_DIR... -- WBERR_RUN_ARGS..." 2
shift
out=${dirs[0]}
"$top/harness/merge-shards.sh" --no-report "${dirs[@]}" || exit
merge=()
for ((i = 1; i < ${#dirs[@]}; i++)); do
	merge+=(--merge "$out/shard-$i")
done
"$wr" "${merge[@]}" --results "$out" "$@"
rc=$?
[ "$rc" -le 1 ] || say "no summary of the whole run: wberr-run --merge could not read every shard's results (above)"
manifest_new "$out" scenarios/001 run "$top/harness/guest/artifacts"
exit 0
