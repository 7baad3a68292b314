#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: what dm-wberr costs and how long the harness takes.  Four
# measurements, each in its own boot, then one report (harness/bench_report.py)
# in build/results/bench.md, bench.json and bench-latency.svg:
#
# 1. icount: instruction-path-length ratios to dm-linear.  QEMU runs with
#    -icount shift=4,sleep=off on one vCPU over null_blk, so guest time
#    counts instructions (16 ns each) and the ratios repeat to about +-0.003
#    (shared/reference/guest-bench-method.md).
# 2. virtio: the realistic run.  fio through the same targets over a virtio
#    disk whose backing file QEMU opens with O_DIRECT (cache=none), in
#    rotated rounds; IOPS ratios and latency percentiles.  Wall-clock under
#    TCG, so expect rounds to spread by tens of percent: read the spread
#    before the median.
# 3. boot: wall time of a guest that boots, runs `true` and powers off.
# 4. scenarios: wall time of the default scenario suite (what `make run` runs).
#
#   harness/bench.sh --kernel-tree DIR --image CPIO [--only icount,virtio,boot,scenarios] [--pmem SIZE] [--nvme SIZE]
#
# --pmem SIZE (--nvme SIZE) gives the scenarios boot the persistent memory (the NVMe disk) make run's has
# (the Makefile passes it when run-suites --needs default says pmem), so
# that the DAX instances run too.
#
# Knobs (environment): BENCH_ROUNDS, BENCH_RUNTIME, BENCH_ENGINES and
# BENCH_TARGETS (bench-dm.sh -t: the dm targets, e.g. "lin wb0 wb1k wb1koff")
# for the icount run; BENCH_VIRTIO_ROUNDS, BENCH_VIRTIO_RUNTIME, BENCH_VIRTIO_ENGINES,
# BENCH_VIRTIO_MB for the virtio run; BENCH_BOOTS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/sh/errtrap.sh"
errtrap_init bench
rounds=${BENCH_ROUNDS:-3} runtime=${BENCH_RUNTIME:-8} engines=${BENCH_ENGINES:-psync,io_uring}
vrounds=${BENCH_VIRTIO_ROUNDS:-5} vruntime=${BENCH_VIRTIO_RUNTIME:-5}
vengines=${BENCH_VIRTIO_ENGINES:-psync,io_uring:16} vmb=${BENCH_VIRTIO_MB:-512}
boots=${BENCH_BOOTS:-3}
only=icount,virtio,boot,scenarios
ktree= image= pmem=() nvme=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel-tree) ktree=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--pmem) pmem=(--pmem "$2"); shift 2 ;;
	--nvme) nvme=(--nvme "$2"); shift 2 ;;
	*) die "unknown argument '$1'" 2 ;;
	esac
done
for part in ${only//,/ }; do
	case "$part" in icount|virtio|boot|scenarios) ;;
	*) die "unknown part '$part' (icount, virtio, boot, scenarios)" 2 ;; esac
done
wants() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }

out=$top/build/results-bench
mkdir -p "$out"
guest() { "$here/run-guest" --kernel-tree "$ktree" --image "$image" "$@"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# The accelerator run-guest chose, from its first line ("... accel=tcg (...) smp=1 ...").
accel_of() { sed -n 's/.* accel=\([a-z]*\).*/\1/p' "$1" | head -n 1; }

if wants icount; then
	rm -rf "$out/icount"; mkdir -p "$out/icount"
	step "1/4 icount" "build/logs/bench-icount-*.console.log"
	nullblk="null_blk.queue_mode=2 null_blk.nr_devices=1 null_blk.gb=4 null_blk.memory_backed=0 null_blk.irqmode=0"
	echo "[bench] 1/4 icount: $rounds rotated rounds x ${runtime}s per run, engines $engines, -icount shift=4,sleep=off -smp 1, null_blk"
	guest --results "$out/icount" --name bench-icount \
		--accel tcg --icount 4 --smp 1 --disks 0 --append "$nullblk" --timeout 5400 \
		--cmd "/opt/wberr/libexec/bench-dm.sh -o /results/bench ${BENCH_TARGETS:+-t '$BENCH_TARGETS'} $rounds $runtime $engines"
fi

if wants virtio; then
	rm -rf "$out/virtio"; mkdir -p "$out/virtio"
	step "2/4 virtio" "$out/virtio/run-guest.log"
	echo "[bench] 2/4 virtio: $vrounds rotated rounds x ${vruntime}s per run, engines $vengines, ${vmb} MiB region, cache=none"
	guest --results "$out/virtio" --name bench-virtio --smp 1 --disks 1 --disk-size 4G \
		--disk-cache none --timeout 5400 \
		--cmd "/opt/wberr/libexec/bench-dm.sh -d \"\${WBERR_DISKS%% *}\" -s $vmb -f -o /results/bench $vrounds $vruntime $vengines" \
		2>&1 | tee "$out/virtio/run-guest.log"
	echo "accel: $(accel_of "$out/virtio/run-guest.log")" >> "$out/virtio/bench/meta.txt"
fi

if wants boot; then
	rm -rf "$out/boot"; mkdir -p "$out/boot"
	step "3/4 boot" "$out/boot/"
	echo "[bench] 3/4 boot: $boots boots to a shell command and back"
	for ((i = 1; i <= boots; i++)); do
		t0=$(now)
		guest --results "$out/boot" --name "bench-boot-$i" --disks 0 --cmd true \
			> "$out/boot/run-guest-$i.log" 2>&1
		wall=$(elapsed "$t0")
		up=$("$here/stream-read" uptime "$out/boot/stream-bench-boot-$i.log")
		echo "boot $i wall=$wall init_uptime=${up:-?} accel=$(accel_of "$out/boot/run-guest-$i.log")" |
			tee -a "$out/boot/boots.txt"
	done
fi

if wants scenarios; then
	rm -rf "$out/scenarios"; mkdir -p "$out/scenarios"
	step "4/4 scenarios" "$out/scenarios/run-guest.log"
	echo "[bench] 4/4 scenarios: the default suite (make run), timed"
	t0=$(now)
	rc=0
	guest --results "$out/scenarios" --name bench-scenarios --suites default --timeout 3600 "${pmem[@]}" "${nvme[@]+"${nvme[@]}"}" \
		2>&1 | tee "$out/scenarios/run-guest.log" || rc=$?
	{
		echo "wall=$(elapsed "$t0") status=$rc accel=$(accel_of "$out/scenarios/run-guest.log")"
		"$here/stream-read" suite-ends "$out/scenarios/stream-bench-scenarios.log"
	} > "$out/scenarios/timing.txt"
	cat "$out/scenarios/timing.txt"
fi

step "report"
python3 "$here/bench_report.py" --shift 4 "$out" "$top/build/results"
