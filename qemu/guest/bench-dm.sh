#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`: fio over one null_blk device (memory_backed=0,
# irqmode=0: completion inline, so under QEMU -icount guest time counts
# instructions) through each target, in rotated rounds.  Each run's fio JSON
# goes to /results/bench/<engine>-<target>-r<round>.json; the host computes
# the ratios to dm-linear within each round.
#
#   bench-dm.sh ROUNDS RUNTIME ENGINES          e.g. bench-dm.sh 3 8 psync,io_uring

rounds=${1:-3}
runtime=${2:-8}
engines=$(echo "${3:-psync,io_uring}" | tr ',' ' ')
out=/results/bench
mkdir -p "$out"
dev=/dev/nullb0
[ -b "$dev" ] || { echo "bench: no $dev (null_blk parameters missing?)" >&2; exit 1; }
echo none > /sys/block/nullb0/queue/scheduler 2>/dev/null
sectors=$(blockdev --getsz $dev)
# fio stays in the first half; the 1,000 rules sit in the second half, so
# they are searched on every bio and never match.
half=$((sectors / 2))

targets="lin flk"
dmsetup create lin --table "0 $sectors linear $dev 0" || exit 1
dmsetup create flk --table "0 $sectors flakey $dev 0 3600 0" || exit 1
if [ -f "$WBERR_MODDIR/dm-wberr.ko" ] && insmod "$WBERR_MODDIR/dm-wberr.ko"; then
	dmsetup create wb0 --table "0 $sectors wberr $dev 0" || exit 1
	dmsetup create wb1k --table "0 $sectors wberr $dev 0" || exit 1
	i=0
	while [ $i -lt 1000 ]; do
		s=$((half + i * 16))
		dmsetup message wb1k 0 add write,fua,flush,read ioerr sectors=$s-$((s + 7)) > /dev/null || exit 1
		i=$((i + 1))
	done
	targets="$targets wb0 wb1k"
	echo "bench: dm-wberr loaded; wb1k has $(dmsetup message wb1k 0 list | wc -l) rules" >&2
else
	echo "bench: dm-wberr.ko not available, measuring the kernel's targets only" >&2
fi
targets="raw $targets"
for t in $targets; do dmsetup table "$t" 2>/dev/null; done > "$out/tables.txt"

path_of() { [ "$1" = raw ] && echo $dev || echo "/dev/mapper/$1"; }

run_fio() {	# engine target round
	fio --name="$1-$2" --filename="$(path_of "$2")" --ioengine="$1" --direct=1 \
		--bs=4k --iodepth=1 --numjobs=1 --rw=randwrite --size=$((half / 2))k \
		--norandommap --randrepeat=1 --time_based --runtime="$runtime" --ramp_time=1 \
		--clocksource=clock_gettime --fadvise_hint=0 --percentile_list=50:90:99:99.9 \
		--output-format=json --output="$out/$1-$2-r$3.json" > /dev/null 2>> "$out/fio.err"
}

# Warm-up so no first-touch cost lands in round 1.
for t in $targets; do fio --name=warm --filename="$(path_of "$t")" --ioengine=psync --direct=1 \
	--bs=4k --rw=randwrite --size=64m --runtime=1 --time_based --fadvise_hint=0 > /dev/null 2>&1; done

r=1
while [ $r -le "$rounds" ]; do
	# Rotate the order each round so no target always runs first or last.
	order=$targets
	k=1
	while [ $k -lt $r ]; do order="$(echo "$order" | cut -d' ' -f2-) $(echo "$order" | cut -d' ' -f1)"; k=$((k + 1)); done
	for e in $engines; do
		for t in $order; do
			echo "WBERR-BENCH round $r/$rounds $e $t" >&3
			run_fio "$e" "$t" "$r" || { echo "bench: fio failed for $e $t round $r" >&2; exit 1; }
		done
	done
	r=$((r + 1))
done
for t in $targets; do [ "$t" = raw ] || dmsetup remove "$t"; done
echo "targets: $targets" > "$out/meta.txt"
echo "rounds: $rounds runtime: $runtime engines: $engines" >> "$out/meta.txt"
