#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`: fio through dm-linear, dm-flakey (up, no
# faults), dm-wberr with no rules and dm-wberr with 1,000 rules spread over
# the I/O region, all over one lower device, in rotated rounds.  Each run's
# fio JSON goes to OUT/<engine>-<target>-r<round>.json; the host computes
# ratios to dm-linear within each round (harness/bench_report.py).
#
#   bench-dm.sh [-d DEV] [-o OUT] [-s MiB] [-f] [-t TARGETS] ROUNDS RUNTIME ENGINES
#
#   -d DEV   lower device (default /dev/nullb0: null_blk, for the -icount run)
#   -o OUT   output directory (default /results/bench)
#   -s MiB   size of the region fio writes (default: the first half)
#   -f       fill the region once before round 1, so a sparse virtio backing
#            file is allocated and no round pays for first writes
#   -t TARGETS  the dm targets, space separated (default "lin flk wb0 wb1k";
#            wb1koff is dm-wberr with the 1,000 rules off the I/O region)
#   ENGINES  comma list of ENGINE[:IODEPTH], e.g. psync,io_uring:16
#
# fio stays in the first half of the device.  wb1k's 1,000 rules (8
# sectors each, every read, write, fua and flush class) are spread evenly
# over that region with prob=0: a bio searches among them, the few that
# overlap one count a match and draw, none fails.  wb1koff's sit in the
# second half, so every bio is rejected by the bounds of the index.

dev=/dev/nullb0 out=/results/bench size_mb= fill= rules_kb= targets="lin flk wb0 wb1k"
while getopts d:o:s:ft: opt; do
	case $opt in
	d) dev=$OPTARG ;;
	o) out=$OPTARG ;;
	s) size_mb=$OPTARG ;;
	f) fill=1 ;;
	t) targets=$OPTARG ;;
	*) echo "usage: bench-dm.sh [-d DEV] [-o OUT] [-s MiB] [-f] [-t TARGETS] ROUNDS RUNTIME ENGINES" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
rounds=${1:-3}
runtime=${2:-8}
engines=$(echo "${3:-psync,io_uring}" | tr ',' ' ')
mkdir -p "$out"
[ -b "$dev" ] || { echo "bench: no block device $dev" >&2; exit 1; }
dname=$(basename "$dev")
echo none > "/sys/block/$dname/queue/scheduler" 2>/dev/null
sectors=$(blockdev --getsz "$dev")
half=$((sectors / 2))
[ -n "$size_mb" ] || size_mb=$((half / 2048))
[ "$((size_mb * 2048))" -le "$half" ] || { echo "bench: -s $size_mb MiB reaches past the first half of $dev" >&2; exit 1; }

case " $targets " in *" wb"*) . /opt/wberr/libexec/lib.sh; wberr_load_dm || {
	echo "bench: dm-wberr.ko not available, measuring the kernel's targets only" >&2
	targets=$(echo " $targets " | sed 's/ wb[a-z0-9]*//g')
} ;; esac
# What 1,000 rules cost in kernel memory: unreclaimable slab + vmalloc, before and after.
kmem_kb() { awk '/^(SUnreclaim|VmallocUsed):/ { kb += $2 } END { print kb }' /proc/meminfo; }
add_rules() {	# $1: target, $2: first sector, $3: stride, $4: extra keys
	i=0
	while [ $i -lt 1000 ]; do
		s=$(($2 + i * $3))
		dmsetup message "$1" 0 add write,fua,flush,read ioerr sectors=$s-$((s + 7)) $4 > /dev/null || exit 1
		i=$((i + 1))
	done
}
for t in $targets; do
	case $t in
	lin) dmsetup create lin --table "0 $sectors linear $dev 0" || exit 1 ;;
	flk) dmsetup create flk --table "0 $sectors flakey $dev 0 3600 0" || exit 1 ;;
	wb0) dmsetup create wb0 --table "0 $sectors wberr $dev 0" || exit 1 ;;
	wb1k)
		dmsetup create wb1k --table "0 $sectors wberr $dev 0" || exit 1
		sync; echo 3 > /proc/sys/vm/drop_caches
		mem_before=$(kmem_kb)
		add_rules wb1k 0 $((size_mb * 2048 / 1000)) prob=0
		sleep 1	# replaced rule snapshots are freed after an RCU grace period
		sync; echo 3 > /proc/sys/vm/drop_caches
		rules_kb=$(( $(kmem_kb) - mem_before )) ;;
	wb1koff)
		dmsetup create wb1koff --table "0 $sectors wberr $dev 0" || exit 1
		add_rules wb1koff $half 16 ;;
	*) echo "bench: unknown target '$t'" >&2; exit 2 ;;
	esac
	case $t in wb1k*) echo "bench: $t has $(dmsetup message $t 0 list | wc -l) rules" >&2 ;; esac
done
targets="raw $targets"
for t in $targets; do [ "$t" = raw ] || dmsetup table "$t"; done > "$out/tables.txt"

path_of() { [ "$1" = raw ] && echo "$dev" || echo "/dev/mapper/$1"; }

run_fio() {	# engine[:iodepth] target round
	fio_engine=${1%%:*} fio_qd=1
	case "$1" in *:*) fio_qd=${1#*:} ;; esac
	fio --name="$1-$2" --filename="$(path_of "$2")" --ioengine="$fio_engine" --iodepth="$fio_qd" --direct=1 \
		--bs=4k --numjobs=1 --rw=randwrite --size="${size_mb}m" \
		--norandommap --randrepeat=1 --time_based --runtime="$runtime" --ramp_time=1 \
		--clocksource=clock_gettime --fadvise_hint=0 \
		--percentile_list=1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.99 \
		--output-format=json --output="$out/$(echo "$1" | sed 's/:/-qd/')-$2-r$3.json" \
		> /dev/null 2>> "$out/fio.err"
}

if [ -n "$fill" ]; then
	echo "WBERR-BENCH filling ${size_mb} MiB of $dev" >&3
	fio --name=fill --filename="$dev" --ioengine=psync --direct=1 --bs=1m --rw=write \
		--size="${size_mb}m" --fadvise_hint=0 > /dev/null 2>> "$out/fio.err" || exit 1
fi
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
{
	echo "device: $dev ($(cat "/sys/block/$dname/device/model" 2>/dev/null || echo "$dname"), $sectors sectors), fio region ${size_mb} MiB"
	echo "targets: $targets"
	echo "rounds: $rounds, runtime ${runtime}s + 1s ramp per run, engines: $engines"
	[ -n "$rules_kb" ] && echo "kernel memory (SUnreclaim + VmallocUsed) grew by $rules_kb kB while wb1k's 1,000 rules were added"
	case " $targets " in *" wb1k "*) echo "wb1k: 1,000 rules of 8 sectors, one every $((size_mb * 2048 / 1000)) sectors from 0, prob=0" ;; esac
} > "$out/meta.txt"
