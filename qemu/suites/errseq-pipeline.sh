#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wberr-suite: default
#
# The pipeline proven end to end with the kernel's own targets, before any
# code of ours is involved: two fds on one file, buffered writes through
# both, the device switched to failing writes, and each fd's first fsync()
# returns EIO, with the file_check_and_advance_wb_err tracepoint showing the
# error came through errseq.
#
#  (a) the raw dm block device, `error` table swapped in;
#  (b) ext4 over dm-flakey `error_writes`, where flushes and the journal
#      fail as well.

. /opt/wberr/libexec/tap.sh

set -- $WBERR_DISKS
disk=$1
sectors=$(blockdev --getsz "$disk")
trace=/sys/kernel/tracing
work=/tmp/errseq-pipeline
mkdir -p "$work"

tap_begin 29

# Nothing may write the dirty pages back behind the test's back, or the
# error lands at a moment the script does not control.  Not 0: 0 disables
# periodic writeback but makes wb_wakeup_delayed() (mm/backing-dev.c) wake
# the flusher at once when an inode is first dirtied, and a fresh bdi has
# almost no share of the background threshold (wb_over_bg_thresh), so the
# flusher then writes everything back immediately.  An hour-long interval
# keeps both the periodic and the first-dirty wakeups out of the test.
echo 360000 > /proc/sys/vm/dirty_writeback_centisecs

trace_start() {
	echo 0 > $trace/tracing_on
	echo > $trace/trace
	echo 1 > $trace/events/filemap/filemap_set_wb_err/enable
	echo 1 > $trace/events/filemap/file_check_and_advance_wb_err/enable
	echo 1 > $trace/tracing_on
}

trace_stop() {	# $1: file to keep the trace in
	echo 0 > $trace/tracing_on
	cat $trace/trace > "$1"
	echo 0 > $trace/events/filemap/filemap_set_wb_err/enable
	echo 0 > $trace/events/filemap/file_check_and_advance_wb_err/enable
	cp "$1" "$WBERR_RESULTS/" 2>/dev/null
}

# file_check_and_advance_wb_err events that moved a cursor to an errseq
# whose low 12 bits (the errno) are 5 (EIO); $2 restricts to one inode.
advances_to_eio() {	# $1: trace file, $2: inode number (decimal) or empty
	awk -v ino="${2:+$(printf '0x%x' "$2")}" '
		/file_check_and_advance_wb_err:/ {
			evino = ""; new = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^ino=/) evino = substr($i, 5)
				if ($i ~ /^new=/) new = substr($i, 7)
			}
			if (ino != "" && evino != ino) next
			new = "000" new
			if (substr(new, length(new) - 2) == "005") count++
		}
		END { print count + 0 }' "$1"
}

result() {	# $1: fdshell output, $2: "verb name" -> the Nth (default 1st) result
	grep "^$2 = " "$1" | sed -n "${3:-1}p" | sed 's/.* = //'
}

# ---------------------------------------------------------------- (a) raw
dmsetup create pipe --table "0 $sectors linear $disk 0"
dev=/dev/mapper/pipe
tap_is "$(dmsetup table pipe | cut -d' ' -f3)" linear "(a) raw: linear table in place before the fault"

trace_start
wberr-fdshell > "$work/a.out" 2> "$work/a.err" <<EOF
open a $dev rw
open b $dev rw
pwrite a 0 65536 0xab
pwrite b 65536 65536 0xcd
sh dmsetup suspend --nolockfs pipe && dmsetup load pipe --table "0 $sectors error" && dmsetup resume pipe
marker fsync a #1
fsync a
marker fsync a #2
fsync a
marker fsync b #1
fsync b
fsync b
open c $dev rw
fsync c
close a
close b
close c
EOF
trace_stop "$work/a.trace"
cat "$work/a.out" >&2

tap_is "$(result "$work/a.out" 'sh')" 0 "(a) raw: error table swapped in with suspend --nolockfs/load/resume (dirty pages kept)"
# The buffered writes are still dirty in the bdev page cache; fsync writes
# them back, the error target fails them, and end_buffer_async_write ->
# mark_buffer_write_io_error -> mapping_set_error records EIO in
# mapping->wb_err.  Each fd sampled wb_err at open, so each sees it once.
tap_is "$(result "$work/a.out" 'fsync a' 1)" EIO "(a) raw: fd a first fsync reports EIO"
# a's cursor now equals wb_err (SEEN), and the error target has
# num_flush_bios = 0, so blkdev_issue_flush never reaches it: nothing fails.
tap_is "$(result "$work/a.out" 'fsync a' 2)" 0 "(a) raw: fd a second fsync returns 0 (error reported once)"
tap_is "$(result "$work/a.out" 'fsync b' 1)" EIO "(a) raw: fd b first fsync reports the same error"
tap_is "$(result "$work/a.out" 'fsync b' 2)" 0 "(a) raw: fd b second fsync returns 0"
tap_is "$(result "$work/a.out" 'open c')" 0 "(a) raw: fd c opens after the error"
# errseq_sample() returns the current value once it is SEEN, so a fd opened
# after the error was reported starts level with it.
tap_is "$(result "$work/a.out" 'fsync c')" 0 "(a) raw: fd c, opened after the error was seen, gets 0"
tap_is "$(advances_to_eio "$work/a.trace" '')" 2 "(a) raw: exactly two file_check_and_advance_wb_err events advanced a cursor to EIO (a and b)"
sets=$(grep -c 'filemap_set_wb_err:' "$work/a.trace")
tap_ok "$([ "$sets" -ge 1 ]; echo $?)" "(a) raw: filemap_set_wb_err recorded the failed writeback ($sets events)"
dmsetup remove pipe
tap_is "$(dmsetup info -c --noheadings -o name pipe 2>/dev/null)" "" "(a) raw: device removed"

# --------------------------------------------------------------- (b) ext4
up="0 $sectors flakey $disk 0 3600 0"
down="0 $sectors flakey $disk 0 0 3600 1 error_writes"
dmsetup create fb --table "$up"
# No lazy init: background itable/journal zeroing would write into the
# error window and add errors the test did not ask for.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/mapper/fb > "$work/mkfs.out" 2>&1
tap_is "$?" 0 "(b) ext4: mkfs.ext4 on dm-flakey (up)"
mkdir -p /mnt/b
mount -t ext4 /dev/mapper/fb /mnt/b
tap_is "$?" 0 "(b) ext4: mounted"

swap() {	# $1: table
	echo "dmsetup suspend --nolockfs fb && dmsetup load fb --table \"$1\" && dmsetup resume fb"
}

trace_start
wberr-fdshell > "$work/b.out" 2> "$work/b.err" <<EOF
open a /mnt/b/f rw,creat,trunc
open b /mnt/b/f rw
write a 65536 0xab
sh $(swap "$down")
fsync a
fsync a
fsync b
fsync b
open c /mnt/b/f rw
fsync c
sh $(swap "$up")
fsync a
fsync b
fsync c
sh stat -c %i /mnt/b/f > $work/b.ino
close a
close b
close c
EOF
trace_stop "$work/b.trace"
cat "$work/b.out" >&2
ino=$(cat "$work/b.ino")

tap_is "$(result "$work/b.out" 'sh' 1)" 0 "(b) ext4: switched to error_writes"
# Data writeback fails; ext4_end_bio passes blk_status_to_errno() to
# mapping_set_error, and a's cursor advances through errseq.
tap_is "$(result "$work/b.out" 'fsync a' 1)" EIO "(b) ext4: fd a first fsync reports EIO"
# Not errseq any more (a has seen it): the jbd2 commit's journal superblock
# write fails and the journal aborts, and fsync returns that.
tap_is "$(result "$work/b.out" 'fsync a' 2)" EIO "(b) ext4: fd a second fsync fails too (journal aborted)"
tap_is "$(result "$work/b.out" 'fsync b' 1)" EIO "(b) ext4: fd b first fsync reports EIO"
# ext4_sync_file issues a cache flush; flakey error_writes fails the empty
# flush bio, and fs/ext4/fsync.c returns a flush error to the caller.
tap_is "$(result "$work/b.out" 'fsync b' 2)" EIO "(b) ext4: fd b second fsync fails (failed flush)"
tap_is "$(result "$work/b.out" 'open c')" 0 "(b) ext4: fd c opens after the error"
# c samples the already SEEN errseq, so errseq gives it nothing; the failed
# flush still makes its fsync fail.
tap_is "$(result "$work/b.out" 'fsync c')" EIO "(b) ext4: fd c fsync fails (flush), not through errseq"
tap_is "$(result "$work/b.out" 'sh' 2)" 0 "(b) ext4: switched back to the working table"
# The lie this project exists to catch: with the device healthy again the
# flush succeeds and errseq has nothing unseen, so fsync returns 0 although
# the 64 KiB never reached the disk and the journal stays aborted.
tap_is "$(result "$work/b.out" 'fsync a' 3)" 0 "(b) ext4: fd a fsync returns 0 after recovery, data not on disk"
tap_is "$(result "$work/b.out" 'fsync b' 3)" 0 "(b) ext4: fd b fsync returns 0 after recovery"
tap_is "$(result "$work/b.out" 'fsync c' 2)" 0 "(b) ext4: fd c fsync returns 0 after recovery"
tap_is "$(advances_to_eio "$work/b.trace" "$ino")" 2 "(b) ext4: file_check_and_advance_wb_err moved exactly a's and b's cursors to EIO on inode $ino"

umount /mnt/b
tap_is "$?" 0 "(b) ext4: unmounted after the aborted journal"
mount -t ext4 /dev/mapper/fb /mnt/b
tap_is "$?" 0 "(b) ext4: remounted (journal recovery)"
# Neither the data nor, usually, the file's creation was ever committed:
# whatever is there after recovery, it is not the 64 KiB of 0xab.
if [ -f /mnt/b/f ]; then
	have=$(od -An -tx1 -N1 /mnt/b/f | tr -d ' ')
	size=$(stat -c %s /mnt/b/f)
	gone=$([ "$size" -ne 65536 ] || [ "$have" != ab ]; echo $?)
	tap_ok "$gone" "(b) ext4: the fsync'd data is gone after remount (size $size, first byte '$have')"
else
	tap_ok 0 "(b) ext4: the fsync'd data is gone after remount (the file was never committed)"
fi
umount /mnt/b
dmsetup remove fb
tap_is "$(dmsetup info -c --noheadings -o name fb 2>/dev/null)" "" "(b) ext4: device removed"
echo 500 > /proc/sys/vm/dirty_writeback_centisecs

tap_end
