#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wberr-smp: 2
#
# Stress with a no-lost-error oracle (issue 7).  On ext4 and on xfs over
# dm-wberr: 16 processes x 4 fds (private and shared files) loop
# write/fsync/fdatasync/syncfs while dm-wberr fails the test files' data
# writes (seeded probability, bursts, every-Kth, delayed, all statuses),
# the table is suspended/resumed and reloaded, and fio loads the same fs.
# The oracle (wberr-stress check) then proves from the records, the fault
# log and the errseq tracepoints that no fd missed an error and none was
# reported twice or without a cause; three mutations of the same evidence
# prove the oracle would have seen it.  Faults cleared, fio rewrites and
# verifies the data.  Last, a raw dm-wberr device is removed with direct
# I/O in flight.  userspace/stress/README.md explains the oracle.
#
# Knobs, from the environment or the kernel command line (run-guest
# --append 'wberr_stress_duration=3600' is how a soak asks for hours):
#   WBERR_STRESS_SEED     / wberr_stress_seed=      (default 20261203)
#   WBERR_STRESS_DURATION / wberr_stress_duration=  seconds per fs (40)
#   WBERR_STRESS_PROCS    / wberr_stress_procs=     (16)
#   WBERR_STRESS_FS       ("ext4 xfs"; cmdline: wberr_stress_fs=ext4,xfs)

. /opt/wberr/libexec/tap.sh

cmdline() {	# $1: key -> value from /proc/cmdline, or empty
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}

set -- $WBERR_DISKS
disk=$1
disk2=${2:-}
seed=${WBERR_STRESS_SEED:-$(cmdline wberr_stress_seed)}
seed=${seed:-20261203}
dur=${WBERR_STRESS_DURATION:-$(cmdline wberr_stress_duration)}
dur=${dur:-40}
procs=${WBERR_STRESS_PROCS:-$(cmdline wberr_stress_procs)}
procs=${procs:-16}
fslist=${WBERR_STRESS_FS:-$(cmdline wberr_stress_fs | tr ',' ' ')}
fslist=${fslist:-ext4 xfs}
fiodir=$WBERR_SHARE/scenarios/fio
mnt=/mnt/wbs
len=4194304	# 2 GiB of the scratch disk
summary=$WBERR_RESULTS/stress-summary.txt
file_kib=256

nfs=$(echo $fslist | wc -w)
tap_begin $((nfs * 15 + 4))

if [ ! -d /sys/module/dm_wberr ]; then
	insmod "$WBERR_MODDIR/dm-wberr.ko" || echo "insmod dm-wberr failed" >&2
fi
# Faster background writeback than the default 5 s: more flusher threads
# racing the fsyncs for the same dirty pages.
old_wb=$(cat /proc/sys/vm/dirty_writeback_centisecs)
echo 100 > /proc/sys/vm/dirty_writeback_centisecs
: > "$summary"
echo "seed=$seed duration_s=$dur procs=$procs fds=4 cpus=$(grep -c ^processor /proc/cpuinfo)" >> "$summary"
cpus=$(grep -c ^processor /proc/cpuinfo)

val() {	# $1: key, $2: file with key=value words -> first value, 0 if none
	v=$(tr ' ' '\n' < "$2" 2>/dev/null | sed -n "s/^$1=//p" | head -n 1)
	echo "${v:-0}"
}

drop_caches() {
	sync
	echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
}

# fio twice: write (+verify from cache), then after drop_caches read
# every block back from the device with --verify_only.
fio_verify() {	# $1: job file, $2: log
	fio "$1" > "$2" 2>&1 || return 1
	drop_caches
	fio --verify_only "$1" >> "$2" 2>&1
}

mkfs_for() {	# $1: fs, $2: device
	case "$1" in
	ext4) mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0 "$2" ;;
	xfs) mkfs.xfs -f -q "$2" ;;
	esac
}

# A soak asks for hours: split into rounds of at most 60 s (fresh files,
# seed + round), each checked on its own, so the trace buffer and the
# records stay bounded.
[ "$dur" -ge 1 ] 2>/dev/null || dur=1
rounds=$(( (dur + 59) / 60 ))
rdur=$(( dur / rounds ))
tap_diag "guest CPUs: $cpus (races between CPUs need 2 or more: '# wberr-smp: 2'), seed $seed, $rounds x ${rdur}s per fs"

for fs in $fslist; do
	name=wbs-$fs
	dmsetup create $name --table "0 $len wberr $disk 0 4 log_size 65536 seed $seed"
	mkdir -p $mnt
	mkfs_for $fs /dev/mapper/$name > /dev/null 2>&1
	mount -t $fs /dev/mapper/$name $mnt

	start=$(cut -d' ' -f1 /proc/uptime)
	r=1 rcs=0 crcs=0 viol=0 faults=0 errors=0 sets=0 pairs=0 ops=0 loop=0 armed=0
	nst=99 susp=0 rel=0 dmf=0
	while [ $r -le $rounds ]; do
		out=/tmp/wbs-$fs-$r
		rseed=$((seed + r - 1))
		rm -rf "$out"
		mkdir -p $mnt/r$r
		wberr-stress run --dir $mnt/r$r --dev $name --out "$out" \
			--seed "$rseed" --duration "$rdur" --procs "$procs" --fds 4 \
			--file-kib $file_kib --robust \
			--fio "$fiodir/stress-load.fio" > "$out.run.log" 2>&1
		rc=$?
		[ "$rc" = 0 ] || { rcs=$((rcs + 1)); sed 's/^/# run: /' "$out.run.log" | tail -n 20; }
		wberr-stress check "$out" > "$out.check.txt" 2>&1
		crc=$?
		sed -n '/^fds=/,$p' "$out.check.txt" | sed "s/^/# $fs round $r: /"
		sum=$out/summary.txt
		v=$(val violations "$sum")
		if [ "$crc" != 0 ] || [ "${v:-1}" != 0 ]; then
			crcs=$((crcs + 1))
			head -n 80 "$out.check.txt" | sed 's/^/# /'
			cp -r "$out" "$WBERR_RESULTS/stress-$fs-run$r" 2>/dev/null
		fi
		viol=$((viol + ${v:-1}))
		faults=$((faults + $(val faults_injected "$sum")))
		errors=$((errors + $(val errors_reported "$sum")))
		sets=$((sets + $(val errseq_sets "$sum")))
		pairs=$((pairs + $(val set_fd_pairs_checked "$sum")))
		armed=$((armed + $(val syncfs_must_fail "$sum")))
		ops=$((ops + $(val ops "$sum")))
		loop=$(awk "BEGIN{print $loop + $(val loop_s "$sum")}")
		n=$(sed -n 's/.*by status://p' "$sum" | wc -w)
		[ "$n" -lt "$nst" ] && nst=$n
		susp=$((susp + $(val suspends "$out/meta.txt")))
		rel=$((rel + $(val reloads "$out/meta.txt")))
		dmf=$((dmf + $(val dm_failures "$out/meta.txt")))
		{
			echo "[$fs round $r seed $rseed]"
			cat "$sum"
			grep -E '^(suspends|reloads|rules_added|rules_removed|dm_failures)=' "$out/meta.txt" | tr '\n' ' '
			echo
		} >> "$summary"
		cp "$out.check.txt" "$WBERR_RESULTS/stress-$fs-check.txt" 2>/dev/null
		cp "$out/faults.txt" "$WBERR_RESULTS/stress-$fs-faults.txt" 2>/dev/null
		if [ $r -lt $rounds ]; then
			rm -rf "$out" $mnt/r$r
		fi
		r=$((r + 1))
	done
	end=$(cut -d' ' -f1 /proc/uptime)
	out=/tmp/wbs-$fs-$rounds
	opss=$(awk "BEGIN{printf \"%.1f\", $ops / ($loop > 0 ? $loop : 1)}")

	tap_is "$rcs" 0 "$fs: wberr-stress run ($procs procs x 4 fds, $rounds x ${rdur}s, seed $seed): workers and fio jobs exited 0"
	tap_is "$crcs/$viol" "0/0" "$fs: oracle: zero violations (no lost, double or causeless error)"
	tap_ok "$([ "$faults" -gt 0 ]; echo $?)" "$fs: dm-wberr injected faults on the test files' data ($faults)"
	tap_ok "$([ "$errors" -gt 0 ]; echo $?)" "$fs: syncs reported writeback errors ($errors)"
	tap_ok "$([ "$sets" -gt 0 ] && [ "$pairs" -gt 0 ]; echo $?)" "$fs: errseq errors traced and checked against every fd of their file ($sets sets, $pairs set/fd pairs)"
	tap_ok "$([ "$armed" -gt 0 ]; echo $?)" "$fs: syncfs calls that an error certainly preceded, each required to fail ($armed)"
	tap_ok "$([ "$nst" -ge 10 ]; echo $?)" "$fs: faults used many distinct statuses (at least $nst per round)"
	tap_ok "$([ "$susp" -gt 0 ] && [ "$rel" -gt 0 ] && [ "$dmf" = 0 ]; echo $?)" \
		"$fs: under load: $susp suspend/resume, $rel table reloads, rules added and removed, no dmsetup failure ($dmf)"
	for m in returned-0 lost double syncfs-lost; do
		wberr-stress check --mutate $m --max-print 0 "$out" > "$out.mut-$m.txt" 2>&1
		mrc=$?
		tap_is "$mrc" 0 "$fs: oracle catches a mutated run ($m): $(tail -n 1 "$out.mut-$m.txt")"
	done

	# faults are cleared by the run; rewrite and verify
	files=$(ls $mnt/r$rounds/wbs/f* | tr '\n' ':' | sed 's/:$//')
	WBERR_STRESS_FILES=$files WBERR_FILE_SIZE=${file_kib}k \
		fio_verify "$fiodir/rewrite-stress-files.fio" "$out.rewrite.log"
	tap_is "$?" 0 "$fs: faults cleared: every stress file rewritten and verified from the device (fio verify=crc32c)"
	[ -s "$out.rewrite.log" ] && grep -i 'err=\|verify:' "$out.rewrite.log" | head -n 5 | sed 's/^/# /'
	mkdir -p $mnt/verify
	WBERR_FIO_DIR=$mnt/verify fio_verify "$fiodir/verify.fio" "$out.verify.log"
	tap_is "$?" 0 "$fs: fresh files through psync/libaio/io_uring, buffered and direct, verified from the device"
	[ -s "$out.verify.log" ] && grep -i 'err=\|verify:' "$out.verify.log" | head -n 5 | sed 's/^/# /'

	umount $mnt
	umrc=$?
	dmsetup remove $name
	tap_is "$umrc/$?" "0/0" "$fs: unmounted and device removed"

	secs=$(awk "BEGIN{printf \"%.0f\", $end - $start}")
	echo "[$fs total] rounds=$rounds run_s=$secs ops_per_s=$opss faults_injected=$faults errors_reported=$errors violations=$viol suspends=$susp reloads=$rel" >> "$summary"
	tap_diag "$fs: ops/s=$opss faults_injected=$faults errors_reported=$errors violations=$viol suspends=$susp reloads=$rel"
done

# ---- remove a device with I/O in flight (raw dm-wberr, no fs)
if [ -n "$disk2" ]; then
	dmsetup create wbr --table "0 $len wberr $disk2 0"
	# hold every 3rd write for 300 ms so bios are in flight in the target
	dmsetup message wbr 0 add write ioerr every=3 action=delay:300 > /dev/null
	WBERR_FIO_DEV=/dev/mapper/wbr fio "$fiodir/inflight-remove.fio" > /tmp/wbr.fio.log 2>&1 &
	fpid=$!
	# Wait until fio holds the device open (its start-up took over 3 s on
	# the debug kernel), then give it a second to fill its queue.
	n=0
	while [ "$(dmsetup info -c --noheadings -o open wbr 2>/dev/null | tr -d ' ')" -lt 1 ] 2>/dev/null &&
	      [ $n -lt 60 ]; do sleep 1; n=$((n + 1)); done
	sleep 1
	dmsetup remove wbr > /dev/null 2>&1
	busy=$?
	tap_ok "$([ "$busy" != 0 ] && dmsetup info wbr > /dev/null 2>&1; echo $?)" "removal of an open device with I/O in flight is refused without --force (rc $busy), device intact"
	dmsetup remove --force --deferred wbr > /tmp/wbr.rm.log 2>&1
	tap_is "$?" 0 "dmsetup remove --force --deferred with I/O in flight succeeds"
	n=0
	while kill -0 $fpid 2>/dev/null && [ $n -lt 120 ]; do sleep 1; n=$((n + 1)); done
	if kill -0 $fpid 2>/dev/null; then
		tap_ok 1 "fio with I/O in flight finishes after the removal (hung after ${n}s)"
		kill -9 $fpid
	else
		tap_ok 0 "fio with I/O in flight finishes after the removal (${n}s)"
	fi
	wait $fpid 2>/dev/null
	sleep 1
	tap_ok "$(dmsetup info wbr > /dev/null 2>&1; [ $? != 0 ]; echo $?)" "the device is gone once its last opener closed it"
	grep -E 'err=|io_u error' /tmp/wbr.fio.log | head -n 3 | sed 's/^/# inflight: /'
else
	for t in 1 2 3 4; do tap_skip "device removal with I/O in flight" "needs a second scratch disk"; done
fi

echo "$old_wb" > /proc/sys/vm/dirty_writeback_centisecs
tap_end
