#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What thousands of held bios cost the CPU.  A dm-wberr device over
# null_blk has RULES rules, each over its own MiB of the first RULES MiB,
# rule i holding the writes there BASE + 4 * i ms and then passing them
# (delays one jiffy apart at HZ=250, so that some bio expires at almost
# every timer tick); fio keeps DEPTH random 4 KiB O_DIRECT writes in
# flight over those MiBs (io_uring), each sent again as soon as it
# completes, so about DEPTH bios are held at any time.  Prints one line:
#   HELD depth=Q rules=R held=N busy_pct=P
# held is the rules' firings minus the writes completed, in the middle of
# the run; busy_pct is the share of CPU time not idle (all of /proc/stat's
# cpu line but idle and iowait) over 6 s after the first 8 s, when the
# number held is steady.  Run it alone on one vCPU, under -icount so that
# guest time counts instructions:
#
#   harness/run-guest ... --accel tcg --icount 4 --smp 1 --disks 0 \
#       --cmd 'sh /opt/wberr/libexec/bench-held.sh [DEPTH [RULES [BASE]]]'
. /opt/wberr/libexec/lib.sh
wberr_load_dm || exit 1
depth=${1:-8192}
rules=${2:-1000}
base=${3:-2000}
dev=/dev/nullb0
awk -v n=$rules -v b=$base -v len="$(blockdev --getsz $dev)" -v dev=$dev 'BEGIN {
	printf "0 %d wberr %s 0 %d", len, dev, n * 6
	for (i = 0; i < n; i++)
		printf " rule 4 write ioerr sectors=%d-%d action=delay:%d:pass", i * 2048, i * 2048 + 2047, b + 4 * i
	printf "\n" }' | dmsetup create wbheld || exit 1
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
fired() { dmsetup message wbheld 0 list | sed 's/.*fired=//' | awk '{ s += $1 } END { print s }'; }
fio --name=held --filename=/dev/mapper/wbheld --ioengine=io_uring --direct=1 --rw=randwrite \
	--bs=4k --size=${rules}m --iodepth=$depth --time_based --runtime=20 \
	--norandommap --randrepeat=1 --output-format=json --output=/tmp/held.json > /tmp/held.err 2>&1 &
f=$!
sleep 8
set -- $(busy)
b0=$1 i0=$2
held=$(( $(fired) - $(awk '{ print $5 }' /sys/block/$(dmsetup info -c --noheadings -o blkdevname wbheld)/stat) ))
sleep 6
set -- $(busy)
b1=$1 i1=$2
wait $f || { echo "bench-held: fio failed: $(tail -n 3 /tmp/held.err)" >&2; exit 1; }
echo "HELD depth=$depth rules=$rules held=$held" \
	"busy_pct=$(awk -v b=$((b1 - b0)) -v i=$((i1 - i0)) 'BEGIN { printf "%.1f", 100 * b / (b + i) }')"
dmsetup remove wbheld
