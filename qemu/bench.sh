#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: what a target costs, as instruction-path-length ratios to
# dm-linear.  QEMU runs with -icount shift=4,sleep=off on one vCPU, so guest
# time counts instructions (16 ns each) and the ratios repeat to about
# +-0.003 (shared/reference/guest-bench-method.md); plain TCG timing varies
# 32-96 % between rounds and cannot resolve a few percent.
#
#   qemu/bench.sh --kernel-tree DIR --image CPIO [--rounds N] [--runtime S]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
rounds=${BENCH_ROUNDS:-3} runtime=${BENCH_RUNTIME:-8} engines=${BENCH_ENGINES:-psync,io_uring}
ktree= image=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel-tree) ktree=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--runtime) runtime=$2; shift 2 ;;
	*) echo "bench: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
out=$top/build/results-bench
rm -rf "$out"; mkdir -p "$out"
nullblk="null_blk.queue_mode=2 null_blk.nr_devices=1 null_blk.gb=4 null_blk.memory_backed=0 null_blk.irqmode=0"
echo "[bench] $rounds rotated rounds x ${runtime}s per run, engines $engines, QEMU -icount shift=4,sleep=off -smp 1"
"$here/run-guest" --kernel-tree "$ktree" --image "$image" --results "$out" --name bench \
	--accel tcg --icount 4 --smp 1 --disks 0 --append "$nullblk" --timeout 5400 \
	--cmd "/opt/wberr/libexec/bench-dm.sh $rounds $runtime $engines"
python3 "$here/bench_report.py" --shift 4 "$out/bench" "$top/build/results"
