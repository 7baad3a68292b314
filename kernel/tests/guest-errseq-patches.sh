#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest tests of the kernel/patches series beyond KUnit:
#
#  (f) "fs: show writeback error state in /proc/<pid>/fdinfo": the wb_err,
#      wb_err_cursor, sb_err and sb_err_cursor fields, that each fd's own
#      cursor is shown, and that reading them never consumes an error;
#  (e) "block/buffer: keep the blk_status_t errno in buffer-head writeback":
#      a raw block device's fsync() returns the errno blk_status_to_errno()
#      gives for the status the device failed the write with, not EIO.
#      Needs a device that fails writes with a chosen status: dm-wberr
#      ($WBERR_MODDIR/dm-wberr.ko); without it null_blk's timeout injection
#      covers BLK_STS_TIMEOUT only; with neither, (e) is skipped.
#
# Writes $WBERR_RESULTS/errno-fidelity-bdev.md: status, expected errno and
# what fsync() returned on the raw device.

. /opt/wberr/libexec/tap.sh

set -- $WBERR_DISKS
disk=$1
sectors=$(blockdev --getsz "$disk")
work=/tmp/errseq-patches
mkdir -p "$work"
probe=wberr-fdshell

# status name:blk_status_t:errno name:errno number, from the header the
# target is built from (dm-wberr/dm-wberr-abi.h, via wberr-names)
statuses=$(wberr-names status timeout resv_conflict nospc medium transport \
	target protection ioerr | tr ' ' ':')
[ -n "$statuses" ] || { echo "Bail out! wberr-names gave no status table"; exit 1; }
nstatus=$(echo $statuses | wc -w)

tap_begin $((27 + 2 * nstatus))

# Only the test decides when dirty pages are written back.  Not 0, which
# makes the flusher run as soon as an inode is first dirtied (see
# qemu/suites/errseq-pipeline.sh): an hour keeps it out of the way.
echo 360000 > /proc/sys/vm/dirty_writeback_centisecs

result() {	# $1: probe output, $2: "verb name" -> the Nth (default 1st) result
	grep "^$2 = " "$1" | sed -n "${3:-1}p" | sed 's/^[^=]*= //'
}

field() {	# $1: fdinfo result line, $2: field name -> its value
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# ------------------------------------------------------ (f) fdinfo fields
echo hello > "$work/plain"
printf '%s\n' "open a $work/plain ro" "fdinfo a" | $probe > "$work/f0.out"
tap_is "$(result "$work/f0.out" 'fdinfo a')" \
	"wb_err=00000000,0,0 wb_err_cursor=00000000 sb_err=00000000,0,0 sb_err_cursor=00000000" \
	"(f) fdinfo shows wb_err, wb_err_cursor, sb_err, sb_err_cursor, all clear on a fresh tmpfs file"

# Raw device over dm-flakey failing every write (reads still work).
dmsetup create ep_raw --table "0 $sectors flakey $disk 0 0 3600 1 error_writes"
dev=/dev/mapper/ep_raw
cat > "$work/f1.in" <<END_OF_STEPS
open a $dev rw
open b $dev rw
pwrite a 0 65536 0xab
sync
fdinfo a
fdinfo a
fdinfo b
fsync a
fdinfo a
fdinfo b
fsync b
fdinfo b
open c $dev rw
fdinfo c
close a
close b
close c
END_OF_STEPS
$probe < "$work/f1.in" > "$work/f1.out" 2> "$work/f1.err"
cat "$work/f1.out" >&2
a1=$(result "$work/f1.out" 'fdinfo a' 1)
a2=$(result "$work/f1.out" 'fdinfo a' 2)
a3=$(result "$work/f1.out" 'fdinfo a' 3)
b1=$(result "$work/f1.out" 'fdinfo b' 1)
b2=$(result "$work/f1.out" 'fdinfo b' 2)
b3=$(result "$work/f1.out" 'fdinfo b' 3)
c1=$(result "$work/f1.out" 'fdinfo c' 1)
raw1=$(field "$a1" wb_err | cut -d, -f1)
tap_is "$(field "$a1" wb_err | cut -d, -f2-)" "5,1" \
	"(f) raw: after sync(2) fd a shows the unreported EIO (wb_err $(field "$a1" wb_err))"
tap_is "$a2" "$a1" "(f) raw: reading fdinfo again changes nothing"
tap_is "$(field "$b1" wb_err | cut -d, -f2-)" "5,1" "(f) raw: fd b shows it unreported too"
tap_is "$(result "$work/f1.out" 'fsync a' 1)" EIO "(f) raw: fd a's fsync still reports EIO: fdinfo consumed nothing"
tap_is "$(field "$a3" wb_err | cut -d, -f3) $(field "$a3" wb_err_cursor)" \
	"0 $(field "$a3" wb_err | cut -d, -f1)" \
	"(f) raw: after its fsync, fd a has nothing unreported and its cursor equals wb_err"
# The reporting fsync only sets the SEEN flag (bit 12) in the mapping's value.
tap_is "$(field "$a3" wb_err | cut -d, -f1)" "$(wberr-names errseq "${raw1:-0}" | sed 's/.*with_seen=//')" \
	"(f) raw: the mapping's errseq gained only the SEEN flag"
tap_is "$(field "$b2" wb_err | cut -d, -f3) $(field "$b2" wb_err_cursor)" "1 $(field "$b1" wb_err_cursor)" \
	"(f) raw: fd b's error is still unreported and its cursor did not move"
tap_is "$(result "$work/f1.out" 'fsync b' 1)" EIO "(f) raw: fd b's fsync reports EIO"
tap_is "$(field "$b3" wb_err | cut -d, -f3)" 0 "(f) raw: then fd b has nothing unreported"
# (No second fsync here: dm-flakey fails the cache flush as well, so it
# would return EIO for a reason errseq has nothing to do with.)
tap_is "$(field "$b3" wb_err_cursor)" "$(field "$a3" wb_err_cursor)" \
	"(f) raw: both cursors now hold the same value"
tap_is "$(field "$c1" wb_err | cut -d, -f3) $(field "$c1" wb_err_cursor)" \
	"0 $(field "$c1" wb_err | cut -d, -f1)" \
	"(f) raw: a fd opened after the error was seen starts level with it"
dmsetup remove ep_raw

# sb_err: ext2 over dm-flakey, switched to failing writes under the mount.
up="0 $sectors flakey $disk 0 3600 0"
down="0 $sectors flakey $disk 0 0 3600 1 error_writes"
dmsetup create ep_fs --table "$up"
mkfs.ext2 -q -F /dev/mapper/ep_fs > "$work/mkfs.out" 2>&1 &&
	mkdir -p /mnt/ep && mount -t ext2 /dev/mapper/ep_fs /mnt/ep
tap_is "$?" 0 "(f) ext2: mkfs and mount over dm-flakey"
cat > "$work/f2.in" <<END_OF_STEPS
open a /mnt/ep/f rw,creat,trunc
fsync a
pwrite a 0 65536 0xab
sh dmsetup suspend --nolockfs ep_fs && dmsetup load ep_fs --table "$down" && dmsetup resume ep_fs
sync
fdinfo a
syncfs a
fdinfo a
fsync a
fdinfo a
sh dmsetup suspend --nolockfs ep_fs && dmsetup load ep_fs --table "$up" && dmsetup resume ep_fs
close a
END_OF_STEPS
$probe < "$work/f2.in" > "$work/f2.out" 2> "$work/f2.err"
cat "$work/f2.out" >&2
s1=$(result "$work/f2.out" 'fdinfo a' 1)
s2=$(result "$work/f2.out" 'fdinfo a' 2)
s3=$(result "$work/f2.out" 'fdinfo a' 3)
tap_is "$(field "$s1" wb_err | cut -d, -f2-) $(field "$s1" sb_err | cut -d, -f2-)" "5,1 5,1" \
	"(f) ext2: after sync(2) both the file's and the super block's EIO are unreported"
tap_is "$(result "$work/f2.out" 'syncfs a')" EIO "(f) ext2: syncfs reports EIO"
tap_is "$(field "$s2" sb_err | cut -d, -f3) $(field "$s2" sb_err_cursor) $(field "$s2" wb_err | cut -d, -f3)" \
	"0 $(field "$s2" sb_err | cut -d, -f1) 1" \
	"(f) ext2: syncfs advanced sb_err_cursor only; the file's wb_err is still unreported"
tap_is "$(result "$work/f2.out" 'fsync a' 2)" EIO "(f) ext2: fsync then reports the data error"
tap_is "$(field "$s3" wb_err | cut -d, -f3) $(field "$s3" sb_err | cut -d, -f3)" "0 0" \
	"(f) ext2: nothing unreported after fsync and syncfs"
umount /mnt/ep
tap_is "$?" 0 "(f) ext2: unmounted"
dmsetup remove ep_fs
tap_is "$(dmsetup info -c --noheadings -o name 2>/dev/null | grep -c '^ep_')" 0 "(f) devices removed"

# ---------------------------------------------- (e) errno of a raw device
echo "| status | blk_status_t | expected | raw bdev fsync | fdinfo errno |" > "$work/fidelity.md"
echo "|---|---|---|---|---|" >> "$work/fidelity.md"

dm_wberr=
loaded_here=
wberr_broken=
if [ -f "$WBERR_MODDIR/dm-wberr.ko" ]; then
	grep -q '^dm_wberr ' /proc/modules ||
		{ insmod "$WBERR_MODDIR/dm-wberr.ko" 2> "$work/insmod.err" && loaded_here=1; }
	dmsetup targets | grep -q '^wberr ' && dm_wberr=1
	[ -n "$dm_wberr" ] || { cat "$work/insmod.err" >&2; wberr_broken=1; }
fi

nullb_timeout=
cfs=/sys/kernel/config
if [ -z "$dm_wberr" ]; then
	grep -q " $cfs " /proc/mounts || mount -t configfs configfs "$cfs" 2>/dev/null
	if mkdir "$cfs/nullb/epnb" 2>/dev/null; then
		[ -d "$cfs/nullb/epnb/timeout_inject" ] && nullb_timeout=1
		rmdir "$cfs/nullb/epnb"
	fi
fi

# Writes 64 KiB through the page cache of $1, writes it back with sync(2)
# (which reports nothing), then fdinfo and two fsyncs.
fidelity_probe() {	# $1: device, $2: output file
	printf '%s\n' "open a $1 rw" "pwrite a 0 65536 0xab" sync "fdinfo a" \
		"fsync a" "fsync a" "close a" | $probe > "$2" 2>&1
	cat "$2" >&2
}

fidelity_check() {	# $1: status, $2: value, $3: errno name, $4: errno number, $5: output
	got=$(result "$5" 'fsync a' 1)
	fd=$(field "$(result "$5" 'fdinfo a')" wb_err | cut -d, -f2)
	tap_is "$got" "$3" "(e) raw bdev: a write failed with BLK_STS_$(echo "$1" | tr a-z A-Z) makes fsync return $3"
	tap_is "$fd" "$4" "(e) raw bdev: fdinfo wb_err holds errno $4 for $1 before fsync reports it"
	echo "| $1 | $2 | $3 | $got | ${fd:-?} |" >> "$work/fidelity.md"
}

for s in $statuses; do
	st=${s%%:*}; rest=${s#*:}; val=${rest%%:*}; rest=${rest#*:}; ename=${rest%%:*}; enum=${rest#*:}
	uc=$(echo "$st" | tr a-z A-Z)
	if [ -n "$dm_wberr" ]; then
		if ! dmsetup create ep_wb --table "0 $sectors wberr $disk 0" ||
		   ! dmsetup message ep_wb 0 add write "$st" > /dev/null; then
			tap_ok 1 "(e) raw bdev: dm-wberr device with a 'write $st' rule"
			tap_skip "(e) raw bdev: fdinfo errno for $st" "no device"
			dmsetup remove ep_wb 2>/dev/null
			continue
		fi
		fidelity_probe /dev/mapper/ep_wb "$work/e-$st.out"
		fidelity_check "$st" "$val" "$ename" "$enum" "$work/e-$st.out"
		dmsetup remove ep_wb
	elif [ -n "$nullb_timeout" ] && [ "$st" = timeout ]; then
		nb=$cfs/nullb/epnb
		mkdir "$nb" && echo 64 > "$nb/size" && echo 4096 > "$nb/blocksize" &&
			echo 1 > "$nb/power"
		echo 1000 > /sys/block/epnb/queue/io_timeout 2>/dev/null
		echo 0 > "$nb/timeout_inject/verbose"
		echo 100 > "$nb/timeout_inject/probability"
		echo 1 > "$nb/timeout_inject/times"
		fidelity_probe /dev/epnb "$work/e-$st.out"
		fidelity_check "$st" "$val" "$ename" "$enum" "$work/e-$st.out"
		echo 0 > "$nb/power"
		rmdir "$nb"
	elif [ -n "$wberr_broken" ]; then
		# The module is there but does not load: a broken build, not a skip.
		tap_ok 1 "(e) raw bdev: fsync errno for BLK_STS_$uc (dm-wberr.ko did not load)"
		tap_skip "(e) raw bdev: fdinfo errno for $st" "dm-wberr.ko did not load"
		echo "| $st | $val | $ename | (dm-wberr.ko did not load) | |" >> "$work/fidelity.md"
	else
		why="needs dm-wberr.ko in \$WBERR_MODDIR"
		[ "$st" = timeout ] && why="$why or null_blk timeout_inject"
		tap_skip "(e) raw bdev: fsync errno for BLK_STS_$uc" "$why"
		tap_skip "(e) raw bdev: fdinfo errno for $st" "$why"
		echo "| $st | $val | $ename | (not run) | |" >> "$work/fidelity.md"
	fi
done
cat "$work/fidelity.md" >&2
cp "$work/fidelity.md" "$WBERR_RESULTS/errno-fidelity-bdev.md" 2>/dev/null

# ------------------------------------------------- (t) decoded tracepoints
# ext2 on dm-wberr; every write times out from the moment the rule is added.
trace=/sys/kernel/tracing
events="filemap_set_wb_err file_check_and_advance_wb_err file_check_and_advance_sb_err"
trace_start() {
	echo 0 > $trace/tracing_on
	echo > $trace/trace
	ok=0
	for e in $events; do echo 1 > $trace/events/filemap/$e/enable || ok=1; done
	echo 1 > $trace/tracing_on
	return $ok
}
trace_stop() {	# $1: file to keep the trace in
	echo 0 > $trace/tracing_on
	cat $trace/trace > "$1"
	for e in $events; do echo 0 > $trace/events/filemap/$e/enable 2>/dev/null; done
	cp "$1" "$WBERR_RESULTS/" 2>/dev/null
}
first_event() {	# $1: trace, $2: event, $3: inode (decimal) -> the fields after the event name
	grep " $2: " "$1" | grep "ino=$(printf '0x%x' "$3") " | head -n 1 |
		sed "s/.* $2: //; s/file=[^ ]* //; s/dev=[^ ]* //; s/ino=[^ ]* //"
}

if [ -n "$dm_wberr" ]; then
	dmsetup create ep_tr --table "0 262144 wberr $disk 0" &&
		mkfs.ext2 -q -F /dev/mapper/ep_tr > "$work/mkfs-t.out" 2>&1 &&
		mkdir -p /mnt/ep && mount -t ext2 /dev/mapper/ep_tr /mnt/ep
	tap_is "$?" 0 "(t) ext2 on dm-wberr mounted"
	trace_start
	tap_is "$?" 0 "(t) the three errseq events exist and are enabled ($events)"
	cat > "$work/t.in" <<END_OF_STEPS
open a /mnt/ep/f rw,creat,trunc
fsync a
pwrite a 0 65536 0xab
sh dmsetup message ep_tr 0 add write timeout > /dev/null
sync
syncfs a
fsync a
sh dmsetup message ep_tr 0 clear
sh stat -c %i /mnt/ep/f > $work/t.ino
close a
END_OF_STEPS
	$probe < "$work/t.in" > "$work/t.out" 2> "$work/t.err"
	trace_stop "$work/errseq-tracepoints.trace"
	cat "$work/t.out" >&2
	ino=$(cat "$work/t.ino")
	# The first error on a clean mapping: 0x6e is ETIMEDOUT (110), unseen.
	tap_is "$(first_event "$work/errseq-tracepoints.trace" filemap_set_wb_err "$ino")" \
		"errseq=0x6e old=0x0 errno=110 seq=0" \
		"(t) filemap_set_wb_err shows the value after the update, the old one, errno and seq"
	tap_is "$(first_event "$work/errseq-tracepoints.trace" file_check_and_advance_wb_err "$ino")" \
		"old=0x0 new=0x106e errno=110 seq=0" \
		"(t) file_check_and_advance_wb_err decodes errno and seq of the cursor it reported"
	tap_is "$(first_event "$work/errseq-tracepoints.trace" file_check_and_advance_sb_err "$ino")" \
		"old=0x0 new=0x106e errno=110 seq=0" \
		"(t) syncfs emits file_check_and_advance_sb_err when it moves f_sb_err"
	tap_is "$(result "$work/t.out" 'fsync a' 2)" ETIMEDOUT "(t) ext2 fsync reports ETIMEDOUT"
	# Not asserted: syncfs() returns sync_filesystem()'s error first, and
	# sync_blockdev() -> filemap_check_errors() turns the legacy AS_EIO flag
	# that mapping_set_error() sets for any errno but ENOSPC into EIO.
	tap_diag "ext2 syncfs returned $(result "$work/t.out" 'syncfs a')"
	umount /mnt/ep
	dmsetup remove ep_tr
	tap_is "$(dmsetup info -c --noheadings -o name 2>/dev/null | grep -c '^ep_')" 0 "(t) unmounted and removed"
else
	for t in "ext2 on dm-wberr mounted" "the three errseq events" "filemap_set_wb_err" \
		 "file_check_and_advance_wb_err" "file_check_and_advance_sb_err" "ext2 fsync" \
		 "unmounted and removed"; do
		tap_skip "(t) $t" "needs dm-wberr.ko in \$WBERR_MODDIR"
	done
fi
[ -n "$loaded_here" ] && rmmod dm_wberr 2>/dev/null

echo 500 > /proc/sys/vm/dirty_writeback_centisecs
tap_end
