#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dm-wberr in the guest: the table, every status's errno, every rule
# feature firing exactly where it should and nowhere else, refusals that
# change nothing (including a seeded run of thousands of malformed
# messages), the counters and the fault log, suspend/resume/reload/remove
# with I/O held by a delay rule.  Helpers: wberr-dio (one I/O, prints the
# errno name) and wberr-msgfuzz (malformed messages), both in this folder.
#
# Every expectation below is what the 6.12 kernel does; where that differs
# from the naive "status -> errno" the comment names the code responsible.

. /opt/wberr/libexec/tap.sh

set -f		# messages contain * ? [ ]: never glob them
set -- $WBERR_DISKS
disk=$1
diskname=${disk#/dev/}
disk_mm=$(cat "/sys/block/$diskname/dev")
OFF=2048
LEN=2097152		# 1 GiB target at 1 MiB into the disk
DM=wbt
DEV=/dev/mapper/$DM
FUZZ_COUNT=${WBERR_FUZZ_COUNT:-3000}

STATUSES="notsupp:EOPNOTSUPP timeout:ETIMEDOUT nospc:ENOSPC transport:ENOLINK
target:EREMOTEIO resv_conflict:EBADE nexus:EBADE medium:ENODATA
protection:EILSEQ resource:ENOMEM ioerr:EIO again:EAGAIN dev_resource:EBUSY
zone_open_resource:ETOOMANYREFS zone_active_resource:EOVERFLOW offline:ENODEV
duration_limit:ETIME inval:EINVAL"
NR_STATUSES=18

# ---------------------------------------------------------------- helpers

diag() { echo "# $*" >&2; }
# "--" ends dmsetup's own option parsing, so a word like "-1" reaches the target
msg() { dmsetup message -- $DM 0 "$@" < /dev/null; }
dio() { wberr-dio "$@" 2>&1; }
now() { cut -d' ' -f1 /proc/uptime; }
ms_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%d", (b - a) * 1000 }'; }
klog_mark() { KLOG_MARK=$(dmesg | wc -l); }
klog_since() { dmesg | tail -n +$((KLOG_MARK + 1)); }

# (re)create the device with the given optional table arguments
mkdev() {
	dmsetup remove $DM > /dev/null 2>&1
	dmsetup create $DM --table "0 $LEN wberr $disk $OFF${1:+ $1}"
}

# reload the live device with a new table instance (rules start empty)
reload() {
	dmsetup suspend $DM && dmsetup load $DM --table "0 $LEN wberr $disk $OFF${1:+ $1}" &&
		dmsetup resume $DM
}

status_info() { dmsetup status $DM | cut -d' ' -f4-; }
# list without the matched=/fired= counters (they move with I/O)
rules_shape() { msg list | sed 's/ matched=.*//'; }
# the whole log, paged by from_seq
log_all() {
	from=0
	while page=$(msg log $from) && [ -n "$page" ]; do
		echo "$page"
		from=$(($(echo "$page" | tail -n 1 | cut -d' ' -f1) + 1))
	done
}
log_field() { msg log | awk -v f="$1" '{ printf "%s%s", sep, $f; sep = " " }'; }

# Run OP at SECTOR for each op class; prints the six results.
ALL_OPS="read write fua flush discard zeroout"
op_vector() {	# $1: sector
	out=
	for op in $ALL_OPS; do
		out="$out $(dio $DEV $op "$1")"
	done
	echo ${out# }
}

cleanup() {
	dmsetup remove $DM > /dev/null 2>&1
	dmsetup remove ${DM}_delay > /dev/null 2>&1
	dmsetup remove ${DM}_bad > /dev/null 2>&1
	dmsetup remove ${DM}_two > /dev/null 2>&1
	dmsetup remove ${DM}_nc > /dev/null 2>&1
	dmsetup remove ${DM}_lin > /dev/null 2>&1
	[ -n "$loaded_here" ] && rmmod dm_wberr > /dev/null 2>&1
}
trap cleanup EXIT

# The plan: fixed tests plus one per status, per bad table and per bad
# message (counted from the lists below).
BAD_TABLES=$(cat <<EOF
$disk|Requires <dev> <offset>
$disk abc|Invalid device offset
$disk -1|Invalid device offset
$disk 18446744073709551616|Invalid device offset
$disk 0 1 seed|Optional arguments come in <key> <value> pairs
$disk 0 2 seed|Invalid number of optional arguments
$disk 0 6 seed 1 log_size 2 seed 3|Invalid number of optional arguments
$disk 0 2 log_size 0|Invalid log_size
$disk 0 2 log_size 65537|Invalid log_size
$disk 0 2 log_size 0x10|Invalid log_size
$disk 0 2 seed -3|Invalid seed
$disk 0 2 seed 18446744073709551616|Invalid seed
$disk 0 4 seed 1 seed 2|Duplicate seed
$disk 0 4 log_size 1 log_size 2|Duplicate log_size
$disk 0 2 colour blue|Unknown optional argument
$disk 0 2 seed 1 extra|Unexpected arguments after the optional arguments
/dev/wberr-no-such-disk 0|Device lookup failed
EOF
)
NR_BAD_TABLES=$(echo "$BAD_TABLES" | wc -l)

BAD_MSGS=$(cat <<EOF
bogus
ADD write ioerr
add
add write
add writes ioerr
add write,write ioerr
add all,read ioerr
add read, ioerr
add write,,read ioerr
add write ok
add write 0
add write 11
add write dm_requeue
add write 18
add write 20
add write 255
add write blah
add write IOERR
add write ioerr sectors=10-5
add write ioerr sectors=0-$LEN
add write ioerr sectors=5
add write ioerr sectors=5-
add write ioerr skip=-1
add write ioerr skip=+1
add write ioerr skip=1 skip=2
add write ioerr every=0
add write ioerr prob=1000001
add write ioerr count=0x10
add write ioerr count=18446744073709551616
add write ioerr action=delay:0
add write ioerr action=delay:3600001
add write ioerr action=delay
add write ioerr action=explode
add read ioerr action=drop
add all ioerr action=drop
add write ioerr colour=red
add write ioerr sectors=1-2 skip=1 count=1 every=1 prob=1 action=fail sectors=3-4
remove
remove 999999
remove abc
remove 1 2
clear now
list all
log x
log 1 2
log -1
log_clear x
EOF
)
NR_BAD_MSGS=$(echo "$BAD_MSGS" | wc -l)

tap_begin $((107 + NR_STATUSES + NR_BAD_TABLES + NR_BAD_MSGS))

# ================================================================ module
# load it unless an earlier suite did; unload it at the end only if loaded here
loaded_here=
[ -d /sys/module/dm_wberr ] || { insmod "$WBERR_MODDIR/dm-wberr.ko" && loaded_here=1; }
tap_is "$(dmsetup targets | awk '$1 == "wberr" { print $2 }')" "v1.0.0" \
	"dm-wberr.ko loads and registers target wberr v1.0.0"

# ================================================================ table
mkdev
tap_is "$(dmsetup table $DM)" "0 $LEN wberr $disk_mm $OFF" \
	"table without optional arguments echoes <dev> <offset>"
tap_is "$(status_info)" "0 0 0 0 0 0 -" "a new device reports zero counters and '-'"

reload "4 seed 7 log_size 64"
tap_is "$(dmsetup table $DM)" "0 $LEN wberr $disk_mm $OFF 4 seed 7 log_size 64" \
	"table echoes optional arguments in the order given (seed, log_size)"
reload "4 log_size 64 seed 7"
tap_is "$(dmsetup table $DM)" "0 $LEN wberr $disk_mm $OFF 4 log_size 64 seed 7" \
	"table echoes optional arguments in the order given (log_size, seed)"
reload "2 log_size 5"
tap_is "$(dmsetup table $DM)" "0 $LEN wberr $disk_mm $OFF 2 log_size 5" \
	"table echoes a lone log_size"

before=$(dmsetup table $DM)
dmsetup table $DM | dmsetup load $DM && dmsetup resume $DM
tap_is "$(dmsetup table $DM)" "$before" "'dmsetup table | dmsetup load' round-trips"

# data goes through at the right offset when no rule exists
dio $DEV write 0 8 0x3c > /dev/null
tap_is "$(dio $DEV check 0 8 0x3c) $(dio $disk check $OFF 8 0x3c)" "0 0" \
	"pass-through: data written at sector 0 lands at <offset> on the disk"

# queue limits are the disk's (dm core stacks them through iterate_devices;
# io_hints changes nothing)
q=/sys/block/$(dmsetup info -c --noheadings -o blkdevname $DM)/queue
diff=
for a in logical_block_size physical_block_size discard_granularity discard_max_bytes write_zeroes_max_bytes; do
	[ "$(cat $q/$a)" = "$(cat /sys/block/$diskname/queue/$a)" ] || diff="$diff $a"
done
tap_is "${diff:-none} $(cat $q/write_zeroes_max_bytes)" "none $(cat /sys/block/$diskname/queue/write_zeroes_max_bytes)" \
	"queue limits pass through: block sizes, discard and write-zeroes limits equal the disk's"

# flush_supported: over a device without a write cache (null_blk's default)
# dm-linear reports write through and the block layer drops empty flushes
# before dm; wberr reports write back, so a flush rule can still fail fsync
if [ -b /dev/nullb0 ]; then
	dmsetup create ${DM}_nc --table "0 8192 wberr /dev/nullb0 0"
	dmsetup create ${DM}_lin --table "0 8192 linear /dev/nullb0 0"
	dmsetup message ${DM}_nc 0 add flush timeout > /dev/null
	tap_is "$(cat /sys/block/nullb0/queue/write_cache)|$(cat /sys/block/$(dmsetup info -c --noheadings -o blkdevname ${DM}_lin)/queue/write_cache)|$(cat /sys/block/$(dmsetup info -c --noheadings -o blkdevname ${DM}_nc)/queue/write_cache)|$(dio /dev/mapper/${DM}_nc flush 0)" \
		"write through|write through|write back|ETIMEDOUT" \
		"over cache-less null_blk: linear 'write through', wberr 'write back' and its flush rule fails fsync"
	dmsetup remove ${DM}_nc
	dmsetup remove ${DM}_lin
else
	tap_skip "over cache-less null_blk: wberr advertises a write cache" "no /dev/nullb0"
fi

# ---- bad tables: refused with the reason, nothing created
while IFS='|' read -r args reason; do
	klog_mark
	if dmsetup create ${DM}_bad --table "0 $LEN wberr $args" < /dev/null > /dev/null 2>&1; then
		rc=created
	else
		rc=refused
	fi
	dmsetup remove ${DM}_bad > /dev/null 2>&1
	klog_since | grep -qF "wberr: $reason" && why=reason-logged || why=no-reason
	tap_is "$rc $why" "refused reason-logged" "bad table '$args' refused: $reason"
done <<EOF
$BAD_TABLES
EOF
klog_mark
if dmsetup load $DM --table "0 $LEN wberr $disk $OFF 2 seed x" > /dev/null 2>&1; then rc=loaded; else rc=refused; fi
tap_is "$rc $(dmsetup table $DM) | $(dmsetup info $DM | grep 'Tables present')" \
	"refused $before | Tables present:    LIVE" \
	"a bad table loaded over a live device is refused; the live table stays, no inactive one"

# ================================================================ statuses
# One rule per status on data writes to sectors 0-7: an O_DIRECT write gets
# exactly blk_status_to_errno(status) (block/blk-core.c blk_errors[]).
mkdev
for pair in $STATUSES; do
	st=${pair%%:*} want=${pair#*:}
	id=$(msg add write "$st" sectors=0-7)
	got=$(dio $DEV write 0)
	msg remove "$id"
	tap_is "$got" "$want" "write through a '$st' rule fails with $want"
done
tap_is "$(status_info)" \
	"$NR_STATUSES $NR_STATUSES 0 0 $NR_STATUSES $NR_STATUSES notsupp:1 timeout:1 nospc:1 transport:1 target:1 resv_conflict:2 medium:1 protection:1 resource:1 ioerr:1 again:1 dev_resource:1 zone_open_resource:1 zone_active_resource:1 offline:1 duration_limit:1 inval:1" \
	"status counts one failure per status (nexus is resv_conflict)"
tap_is "$(log_field 8)" \
	"notsupp timeout nospc transport target resv_conflict resv_conflict medium protection resource ioerr again dev_resource zone_open_resource zone_active_resource offline duration_limit inval" \
	"the log names each injected status in order"

id=$(msg add write 2 sectors=0-7)
tap_is "$(msg list | cut -d' ' -f3) $(dio $DEV write 0)" "timeout ETIMEDOUT" \
	"a status given by number (2) is stored and listed by name (timeout)"
msg remove "$id"

# every status on reads too (dm core treats none of them specially for a
# plain read: only DM_REQUEUE and AGAIN+REQ_POLLED are requeued, dm.c
# dm_handle_requeue)
bad=
for pair in $STATUSES; do
	st=${pair%%:*} want=${pair#*:}
	id=$(msg add read "$st" sectors=0-7)
	got=$(dio $DEV read 0)
	msg remove "$id"
	[ "$got" = "$want" ] || bad="$bad $st:$got"
done
tap_is "${bad:-none}" "none" "O_DIRECT reads get the same errno for every status"

# AGAIN on a REQ_NOWAIT write reaches the caller as EAGAIN (dm requeues
# AGAIN only for REQ_POLLED bios, dm.c dm_handle_requeue)
id=$(msg add write again sectors=0-7)
tap_is "$(dio $DEV nowait 0)" "EAGAIN" "RWF_NOWAIT write through an 'again' rule gets EAGAIN"
msg remove "$id"

# DM_TARGET_NOWAIT: a RWF_NOWAIT write to a wberr device succeeds, while
# dm-delay (no NOWAIT) makes submit_bio_noacct() refuse it with EOPNOTSUPP
dmsetup create ${DM}_delay --table "0 $LEN delay $disk $OFF 0"
tap_is "$(dio $DEV nowait 8) $(dio /dev/mapper/${DM}_delay nowait 8)" "0 EOPNOTSUPP" \
	"RWF_NOWAIT passes through wberr (DM_TARGET_NOWAIT); dm-delay refuses it (control)"
dmsetup remove ${DM}_delay

# io_uring (the benchmark's engine) first submits inline with REQ_NOWAIT,
# which reaches wberr because it declares DM_TARGET_NOWAIT.  An EAGAIN from
# that attempt makes io_uring retry the write from a worker without
# REQ_NOWAIT (io_uring/rw.c), so an 'again' rule sees the write twice.
uring() {	# one 4 KiB io_uring O_DIRECT write at sector 0; prints fio's errno
	fio --name=u --filename=$DEV --ioengine=io_uring --direct=1 --bs=4k --size=4k \
		--rw=write --output-format=json 2> /dev/null |
		awk -F: '/"error"/ { gsub(/[ ,]/, "", $2); print $2; exit }'
}
msg log_clear
id=$(msg add write timeout sectors=0-7)
tap_is "$(uring) $(log_field 5)" "110 sync|nowait|idle" \
	"io_uring write through 'timeout': ETIMEDOUT (110), submitted inline with REQ_NOWAIT"
msg remove "$id"
msg log_clear
id=$(msg add write again sectors=0-7)
tap_is "$(uring) $(log_field 5)" "11 sync|nowait|idle sync|idle" \
	"io_uring write through 'again': EAGAIN (11) after io_uring's blocking retry hit the rule too"
msg remove "$id"
msg log_clear
id=$(msg add write again sectors=0-7 count=1)
tap_is "$(uring) $(log_field 5) $(msg list | sed 's/.* matched=//')" "0 sync|nowait|idle 2 fired=1" \
	"io_uring write through 'again count=1': the worker's retry succeeds"
msg remove "$id"

# NOTSUPP on an empty flush: blkdev_fsync() turns -EOPNOTSUPP from
# blkdev_issue_flush() into 0 (block/fops.c), so fsync succeeds; the log
# still shows the failed flush.
msg log_clear
id=$(msg add flush notsupp)
tap_is "$(dio $DEV flush 0) $(log_field 4) $(log_field 8)" "0 flush notsupp" \
	"fsync over a 'flush notsupp' rule returns 0 (blkdev_fsync ignores EOPNOTSUPP); log has the flush"
msg remove "$id"

# NOTSUPP on a discard: BLKDISCARD maps -EOPNOTSUPP to 0 (block/ioctl.c
# blk_ioctl_discard)
msg log_clear
id=$(msg add discard notsupp sectors=0-7)
tap_is "$(dio $DEV discard 0) $(log_field 4)" "0 discard" \
	"BLKDISCARD over a 'discard notsupp' rule returns 0 (blk_ioctl_discard ignores EOPNOTSUPP)"
msg remove "$id"

# NOTSUPP on WRITE ZEROES: blkdev_issue_zeroout() falls back to writing
# zero pages (block/blk-lib.c), so BLKZEROOUT succeeds and the data is zero
dio $DEV write 16 8 0x5a > /dev/null
msg log_clear
id=$(msg add write_zeroes notsupp sectors=16-23)
tap_is "$(dio $DEV zeroout 16) $(dio $DEV check 16 8 0) $(log_field 4)" "0 0 write_zeroes" \
	"BLKZEROOUT over 'write_zeroes notsupp' falls back to zero-page writes: 0, data zeroed"
msg remove "$id"
# ... unless writes fail too: then the fallback's error is returned
dio $DEV write 16 8 0x5a > /dev/null
id=$(msg add write_zeroes,write notsupp sectors=16-23)
tap_is "$(dio $DEV zeroout 16) $(dio $DEV check 16 8 0x5a)" "EOPNOTSUPP 0" \
	"with writes failing too, BLKZEROOUT returns the fallback's EOPNOTSUPP; data untouched"
msg remove "$id"

# TARGET on discard / write zeroes: dm core disables the op only when the
# failed bio's bdev lacks it (dm.c clone_endio); a bio failed in map still
# points at the dm device, which supports both, so nothing is disabled.
q=/sys/block/$(dmsetup info -c --noheadings -o blkdevname $DM)/queue
d0=$(cat $q/discard_max_bytes) z0=$(cat $q/write_zeroes_max_bytes)
[ "${d0:-0}" -gt 0 ] && [ "${z0:-0}" -gt 0 ] || diag "discard/write_zeroes limits missing: '$d0' '$z0' in $q"
id=$(msg add discard,write_zeroes target sectors=0-7)
r1=$(dio $DEV discard 0) r2=$(dio $DEV zeroout 0)
msg remove "$id"
tap_is "$r1 $r2 $(cat $q/discard_max_bytes) $(cat $q/write_zeroes_max_bytes) $([ "${d0:-0}" -gt 0 ] && [ "${z0:-0}" -gt 0 ] && echo both-nonzero)" \
	"EREMOTEIO EREMOTEIO $d0 $z0 both-nonzero" \
	"'target' on discard and write_zeroes gives EREMOTEIO and leaves both enabled ($d0/$z0 bytes)"

# ================================================================ op classes
# A rule for one class at sectors 64-71; the six ops run at sector 64:
#   read write fua(O_DSYNC write) flush(fsync) discard zeroout
# An O_DSYNC write is a REQ_FUA write followed by generic_write_sync() ->
# blkdev_fsync() -> an empty flush (include/linux/fs.h, block/fops.c), so
# a flush rule also fails the "fua" op, through its flush.
for spec in \
	"read|ETIMEDOUT 0 0 0 0 0|read" \
	"write|0 ETIMEDOUT 0 0 0 0|write" \
	"fua|0 0 ETIMEDOUT 0 0 0|fua" \
	"flush|0 0 ETIMEDOUT ETIMEDOUT 0 0|flush flush" \
	"discard|0 0 0 0 ETIMEDOUT 0|discard" \
	"write_zeroes|0 0 0 0 0 ETIMEDOUT|write_zeroes" \
	"read,discard|ETIMEDOUT 0 0 0 ETIMEDOUT 0|read discard" \
	"all|ETIMEDOUT ETIMEDOUT ETIMEDOUT ETIMEDOUT ETIMEDOUT ETIMEDOUT|read write fua flush discard write_zeroes"; do
	ops=${spec%%|*} rest=${spec#*|}
	want=${rest%%|*} wantlog=${rest#*|}
	msg log_clear
	id=$(msg add "$ops" timeout sectors=64-71)
	got=$(op_vector 64)
	msg remove "$id"
	tap_is "$got | $(log_field 4)" "$want | $wantlog" \
		"a '$ops' rule fails exactly its op class (read write fua flush discard zeroout)"
done
# the flush bio carries no sector: a flush rule matches whatever its range
msg log_clear
id=$(msg add flush timeout sectors=100-107)
tap_is "$(dio $DEV flush 0) $(log_field 6) $(log_field 7)" "ETIMEDOUT 0 0" \
	"a flush rule's range does not apply: the empty flush (sector 0, 0 sectors) fails"
msg remove "$id"
tap_is "$(op_vector 64)" "0 0 0 0 0 0" "with the rules removed, all six ops pass"

# ================================================================ ranges
msg log_clear
id=$(msg add write ioerr sectors=1000-1015)
got="$(dio $DEV write 999 1) $(dio $DEV write 1000 1) $(dio $DEV write 1015 1) $(dio $DEV write 1016 1)"
tap_is "$got" "0 EIO EIO 0" "range 1000-1015: sector 999 passes, 1000 and 1015 fail, 1016 passes"
got="$(dio $DEV write 992 8) $(dio $DEV write 993 8) $(dio $DEV write 1008 8) $(dio $DEV write 1016 8)"
tap_is "$got" "0 EIO EIO 0" "a bio overlapping the range by one sector fails (992+8 passes, 993+8 fails)"
tap_is "$(msg log | awk '{ print $6 "+" $7 }' | tr '\n' ' ')" "1000+1 1015+1 993+8 1008+8 " \
	"log sectors are target-relative (not offset by $OFF) with the bio length"
msg remove "$id"
last=$((LEN - 1))
id=$(msg add write ioerr sectors=$last-$last)
tap_is "$(dio $DEV write $((last - 1)) 1) $(dio $DEV write $last 1)" "0 EIO" \
	"a rule on the target's last sector fails it and not the one before"
msg remove "$id"
id=$(msg add read medium)
tap_is "$(msg list | awk '{ print $4 }') $(dio $DEV read $((last - 7)) 8) $(dio $DEV read 0)" \
	"sectors=0-$last ENODATA ENODATA" \
	"a rule without sectors= covers the whole target (listed as sectors=0-$last)"
msg remove "$id"

# many rules: the range index must find exactly the overlapping one
i=0
while [ $i -lt 300 ]; do
	msg add write ioerr sectors=$((i * 16))-$((i * 16 + 7)) > /dev/null
	i=$((i + 1))
done
tap_is "$(msg list | wc -l)" "300" "300 rules listed in full (libdevmapper grows its buffer)"
got=
for k in 0 1 150 298 299; do
	got="$got $(dio $DEV write $((k * 16)) 8) $(dio $DEV write $((k * 16 + 8)) 8)"
done
tap_is "${got# }" "EIO 0 EIO 0 EIO 0 EIO 0 EIO 0" \
	"with 300 disjoint rules each 8-sector write hits its own rule, the gaps pass"
tap_is "$(dio $DEV write 4800 8) $(dio $DEV write 4788 8)" "0 EIO" \
	"past the last of 300 rules a write passes; one overlapping its tail fails"
msg clear

# ================================================================ firing
msg add write ioerr sectors=2000-2007 skip=3 > /dev/null
tap_is "$(dio -n 5 $DEV write 2000)" "0 0 0 EIO EIO" "skip=3: the first three matches pass"
msg clear
msg add write ioerr sectors=2000-2007 count=2 > /dev/null
tap_is "$(dio -n 4 $DEV write 2000)" "EIO EIO 0 0" "count=2: fires twice, then passes"
msg clear
msg add write ioerr sectors=2000-2007 every=2 > /dev/null
tap_is "$(dio -n 6 $DEV write 2000)" "0 EIO 0 EIO 0 EIO" "every=2: fires on every second match"
msg clear
id=$(msg add write ioerr sectors=2000-2007 skip=2 every=3 count=2)
tap_is "$(dio -n 12 $DEV write 2000)" "0 0 0 0 EIO 0 0 EIO 0 0 0 0" \
	"skip=2 every=3 count=2: fires on matches 5 and 8 only"
tap_is "$(msg list)" \
	"$id write ioerr sectors=2000-2007 skip=2 count=2 every=3 prob=1000000 action=fail matched=12 fired=2" \
	"list shows every key and matched=12 fired=2"
tap_is "$(dio $DEV write 2008) $(dio $DEV read 2000) $(msg list | sed 's/.* matched=//')" \
	"0 0 12 fired=2" "bios outside the range or class pass and are not counted"
msg clear

# first rule (lowest id) wins; rules after it do not see the bio
a=$(msg add write ioerr sectors=7000-7007 count=1)
b=$(msg add write timeout sectors=7000-7007)
tap_is "$(dio -n 2 $DEV write 7000) $(msg list | awk '{ print $NF }' | tr '\n' ' ')" \
	"EIO ETIMEDOUT fired=1 fired=1 " "overlapping rules: the lower id fires first, the next one after it is spent"
tap_is "$(msg list | awk -v b=$b '$1 == b { print $(NF - 1) }')" "matched=1" \
	"a rule behind a rule that fired does not count that bio"
msg clear

# more overlapping rules than map collects at once (16): it falls back to a
# scan in id order with the same result.  With count=1 each, write j is
# failed by rule j after rules 1..j-1 (spent) counted it.
for n in 16 17 20; do
	i=0
	while [ $i -lt $n ]; do
		msg add write ioerr sectors=8000-8007 count=1 > /dev/null
		i=$((i + 1))
	done
	want=$(awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "EIO "; print "0" }')
	wantm=$(awk -v n=$n 'BEGIN { for (k = 1; k <= n; k++) printf "%d fired=1 ", n + 2 - k }')
	tap_is "$(dio -n $((n + 1)) $DEV write 8000) | $(msg list | sed 's/.* matched=//' | tr '\n' ' ')" \
		"$want | $wantm" "$n overlapping count=1 rules fail $n writes in id order; matched counts per rule"
	msg clear
done

# the rule limit: 4096 rules, then ENOSPC (messages sent by ioctl: fast)
awk 'BEGIN { for (i = 0; i < 4097; i++) printf "add write ioerr sectors=%d-%d\n", 100000 + i * 8, 100003 + i * 8 }' |
	wberr-msgfuzz lines $DM > /tmp/wberr-cap.txt
tap_is "$(tr '\n' ' ' < /tmp/wberr-cap.txt)" "line 4097: errno=28 msg=add write ioerr sectors=132768-132771 sent=4097 ok=4096 " \
	"4096 rules are accepted, the 4097th is refused with ENOSPC"
tap_is "$(msg list | wc -l) $(dio $DEV write $((100000 + 4095 * 8)) 4) $(dio $DEV write $((100004 + 4095 * 8)) 4) $(dio $DEV write 99992 8)" \
	"4096 EIO 0 0" "with 4096 rules the last one still fires exactly on its range"
msg clear

# ---- probability: seeded, reproducible, seed-dependent
prob_run() {	# $1: seed
	reload "2 seed $1"
	msg add write ioerr sectors=3000-3007 prob=500000 > /dev/null
	dio -n 64 $DEV write 3000
}
p1=$(prob_run 42)
p2=$(prob_run 42)
p3=$(prob_run 43)
nfail=$(echo "$p1" | tr ' ' '\n' | grep -c EIO)
tap_is "$p1" "$p2" "prob=500000 with seed 42: the same fail pattern after a reload with the same seed"
tap_ok $([ "$p1" != "$p3" ] && echo 0 || echo 1) "a different seed (43) gives a different pattern"
tap_ok $([ "$nfail" -ge 16 ] && [ "$nfail" -le 48 ] && echo 0 || echo 1) \
	"prob=500000 fails about half of 64 writes ($nfail)"
tap_is "$(msg list | sed 's/.* matched=//')" "64 fired=$(echo "$p3" | tr ' ' '\n' | grep -c EIO)" \
	"fired counts exactly the failed writes"
msg clear
msg add write ioerr sectors=3000-3007 prob=0 > /dev/null
tap_is "$(dio -n 8 $DEV write 3000) $(msg list | sed 's/.* matched=//')" \
	"0 0 0 0 0 0 0 0 8 fired=0" "prob=0 never fires but counts matches"
msg clear
reload

# ================================================================ drop
dio $DEV write 4000 8 0x11 > /dev/null
msg log_clear
id=$(msg add write ioerr sectors=4000-4007 action=drop)
tap_is "$(dio $DEV write 4000 8 0x22)" "0" "action=drop: the write reports success"
tap_is "$(dio $DEV check 4000 8 0x11) $(dio $disk check $((OFF + 4000)) 8 0x11)" "0 0" \
	"action=drop: the old data is still there, through the target and on the disk"
tap_is "$(status_info | cut -d' ' -f2,3) $(log_field 8)" "0 1 ok" \
	"a drop counts in bios_dropped, not bios_failed, and logs status ok"
msg remove "$id"

# ================================================================ delay
id=$(msg add write timeout sectors=5000-5007 action=delay:300)
res=$(dio -t $DEV write 5000)
tap_ok $([ "${res%/*}" = ETIMEDOUT ] && [ "${res#*/}" -ge 300 ] && echo 0 || echo 1) \
	"action=delay:300: the write fails with ETIMEDOUT after >= 300 ms ($res)"
res=$(dio -t $DEV write 5008)
tap_ok $([ "${res%/*}" = 0 ] && [ "${res#*/}" -lt 300 ] && echo 0 || echo 1) \
	"a write outside the delayed range is not held ($res)"
msg remove "$id"

# suspend with a bio held for a minute: presuspend fails it at once
id=$(msg add write timeout sectors=5000-5007 action=delay:60000)
dio -t $DEV write 5000 > /tmp/wberr-held.out &
pid=$!
sleep 1
t0=$(now)
dmsetup suspend $DM
took=$(ms_since "$t0")
wait $pid
res=$(cat /tmp/wberr-held.out)
tap_ok $([ "$took" -lt 10000 ] && [ "${res%/*}" = ETIMEDOUT ] && [ "${res#*/}" -lt 30000 ] && echo 0 || echo 1) \
	"suspend with a write held by delay:60000 returns in ${took} ms; the write failed early ($res)"
tap_is "$(dmsetup info $DM | awk '/^State/ { print $2 }')" "SUSPENDED" "the device is suspended"
# while suspended-by-presuspend, a delay rule fails at once (nothing held)
dmsetup resume $DM
tap_is "$(rules_shape)" "$id write timeout sectors=5000-5007 skip=0 count=0 every=1 prob=1000000 action=delay:60000" \
	"rules are kept across suspend/resume"
dio -t $DEV write 5000 8 > /tmp/wberr-held2.out &
pid=$!
sleep 1
t0=$(now)
dmsetup remove --force --retry $DM > /dev/null 2>&1
rc=$?
took=$(ms_since "$t0")
wait $pid
res=$(cat /tmp/wberr-held2.out)
tap_ok $([ $rc = 0 ] && [ "$took" -lt 20000 ] && ! dmsetup info $DM > /dev/null 2>&1 &&
	 [ "${res%/*}" = ETIMEDOUT ] && [ "${res#*/}" -lt 30000 ] && echo 0 || echo 1) \
	"remove --force with a write held by delay:60000 finishes (${took} ms, rc $rc); the write failed early ($res)"

# ================================================================ rules lifecycle
mkdev
a=$(msg add write ioerr sectors=6000-6007)
b=$(msg add read medium sectors=6000-6007)
c=$(msg add write timeout sectors=6008-6015)
tap_is "$a $b $c" "1 2 3" "rule ids start at 1 and increase"
msg remove "$b"
tap_is "$(dio $DEV read 6000) $(dio $DEV write 6000) $(dio $DEV write 6008)" "0 EIO ETIMEDOUT" \
	"remove <id>: that rule stops firing, the others keep firing"
tap_is "$(msg list | cut -d' ' -f1 | tr '\n' ' ')" "1 3 " "list shows the remaining rules in id order"
d=$(msg add read medium sectors=6000-6007)
tap_is "$d" "4" "a removed id is never reused"
msg clear
tap_is "$(msg list | wc -l) $(status_info | cut -d' ' -f4) $(dio $DEV write 6000) $(dio $DEV write 6008) $(dio $DEV read 6000)" \
	"0 0 0 0 0" "clear: no rules, nothing fires"
e=$(msg add read medium sectors=6000-6007)
tap_is "$e" "5" "ids keep increasing after clear"
reload
tap_is "$(msg list | wc -l) $(dio $DEV read 6000) $(msg add write ioerr)" "0 0 1" \
	"a table reload starts a new instance: no rules, ids from 1"
msg clear

# ================================================================ bad messages
msg add write ioerr sectors=100-107 skip=1 > /dev/null
msg add flush,discard timeout prob=10 action=delay:5 > /dev/null
shape0=$(rules_shape) table0=$(dmsetup table $DM) info0=$(status_info)
while IFS= read -r m; do
	if err=$(dmsetup message -- $DM 0 $m 2>&1 < /dev/null > /dev/null); then
		rc=accepted
	else
		case "$err" in *"Invalid argument"*) rc=EINVAL ;; *) rc="failed: $err" ;; esac
	fi
	tap_is "$rc" "EINVAL" "malformed message '$m' refused with EINVAL"
done <<EOF
$BAD_MSGS
EOF
tap_is "$(rules_shape) | $(dmsetup table $DM) | $(status_info)" "$shape0 | $table0 | $info0" \
	"after $NR_BAD_MSGS malformed messages the rules, table and counters are unchanged"

# the reason names the bad word (DMERR_LIMIT: wait out the rate limit first)
sleep 6
klog_mark
for m in "add writes ioerr" "add write 18" "add write 11" "add write ioerr every=0" \
	"add read ioerr action=drop" "remove 999999" "frobnicate"; do
	dmsetup message -- $DM 0 $m < /dev/null > /dev/null 2>&1
done
k=$(klog_since)
miss=
for w in "bad op class 'writes'" "status '18' is an unused value" "status '11' is dm core's requeue" \
	"bad value in 'every=0'" "action=drop cannot apply to reads" "no rule 999999" \
	"unknown message 'frobnicate'"; do
	echo "$k" | grep -qF "$w" || miss="$miss [$w]"
done
tap_is "${miss:-none}" "none" "refusals are logged with a reason naming the bad word"

# randomized: thousands of seeded malformed messages straight to the ioctl
out=$(wberr-msgfuzz send $DM 1 "$FUZZ_COUNT" $LEN)
echo "$out" | grep UNEXPECTED | head -n 20 >&2
tap_is "$(echo "$out" | tail -n 1)" "sent=$FUZZ_COUNT einval=$FUZZ_COUNT other=0" \
	"$FUZZ_COUNT random malformed messages (seed 1) all fail with EINVAL"
out=$(wberr-msgfuzz send $DM 2 "$FUZZ_COUNT" $LEN)
tap_is "$(echo "$out" | tail -n 1)" "sent=$FUZZ_COUNT einval=$FUZZ_COUNT other=0" \
	"$FUZZ_COUNT more (seed 2) all fail with EINVAL"
nok=0
wberr-msgfuzz print 3 200 $LEN > /tmp/wberr-fuzz.txt
while IFS= read -r m; do
	dmsetup message -- $DM 0 $m < /dev/null > /dev/null 2>&1 && { nok=$((nok + 1)); diag "accepted: $m"; }
done < /tmp/wberr-fuzz.txt
tap_is "$nok" "0" "200 random malformed messages (seed 3) through dmsetup: none accepted"
tap_is "$(rules_shape) | $(dmsetup table $DM) | $(status_info)" "$shape0 | $table0 | $info0" \
	"after the random runs the rules, table and counters are unchanged"
tap_is "$(dio $DEV write 100) $(dio $DEV write 100)" "0 EIO" "the surviving rules still work (skip=1)"
msg clear

# ================================================================ status and log
# A fresh instance with a 4-entry log and a scripted sequence of bios.
reload "2 log_size 4"
msg add write ioerr sectors=100-107 > /dev/null
msg add read medium sectors=100-107 count=1 > /dev/null
msg add write nospc sectors=200-207 action=drop > /dev/null
msg add flush timeout count=2 > /dev/null
seq="$(dio $DEV write 100) $(dio $DEV write 100) $(dio $DEV read 100) $(dio $DEV read 100)"
seq="$seq $(dio $DEV write 200) $(dio $DEV flush 0) $(dio $DEV flush 0) $(dio $DEV flush 0) $(dio $DEV write 300)"
tap_is "$seq" "EIO EIO ENODATA 0 0 ETIMEDOUT ETIMEDOUT 0 0" "the scripted bios get the expected results"
tap_is "$(status_info)" "9 5 1 4 4 6 timeout:2 medium:1 ioerr:2" \
	"status: 9 seen, 5 failed, 1 dropped, 4 rules, 4 of 6 log entries kept, per-status counts"
tap_is "$(msg list | sed 's/.* matched=//' | tr '\n' ' ')" "2 fired=2 2 fired=1 1 fired=1 3 fired=2 " \
	"per-rule matched/fired counters"
tap_is "$(msg log | awk '{ print $1, $3, $4, $6, $7, $8 }' | tr '\n' ';')" \
	"2 2 read 100 8 medium;3 3 write 200 8 ok;4 4 flush 0 0 timeout;5 4 flush 0 0 timeout;" \
	"the 4-entry log keeps the last four faults: seq, rule, op, sector, length, status"
tap_is "$(msg log | awk '{ print $5 }' | tr '\n' ' ')" "sync sync|idle sync|preflush sync|preflush " \
	"log flags: O_DIRECT read sync, write sync|idle, empty flush sync|preflush"
tap_ok "$(msg log | awk 'NR > 1 && $2 < prev { bad = 1 } { prev = $2 } END { print bad + 0 }')" \
	"log timestamps never go backwards"
tap_is "$(msg log 4 | cut -d' ' -f1 | tr '\n' ' ')|$(msg log 6)|$(msg log 0 | wc -l)" "4 5 ||4" \
	"log <from_seq> returns entries with seq >= from_seq"
msg log_clear
tap_is "$(msg log | wc -l) $(status_info | cut -d' ' -f5,6)" "0 0 6" \
	"log_clear empties the log; next_seq stays 6"
dio $DEV write 100 > /dev/null
tap_is "$(msg log | cut -d' ' -f1) $(status_info | cut -d' ' -f5,6)" "6 1 7" \
	"the next fault gets seq 6"

# paging a log larger than one message buffer
reload "2 log_size 2000"
msg add read ioerr sectors=0-7 > /dev/null
dio -n 1000 $DEV read 0 > /dev/null
from=0 pages=0 total=0 first=
: > /tmp/wberr-log.txt
while :; do
	page=$(msg log $from)
	[ -n "$page" ] || break
	n=$(echo "$page" | wc -l)
	[ -n "$first" ] || first=$n
	echo "$page" >> /tmp/wberr-log.txt
	total=$((total + n)) pages=$((pages + 1))
	from=$(($(echo "$page" | tail -n 1 | cut -d' ' -f1) + 1))
	[ $pages -lt 100 ] || break
done
tap_is "$total $(cut -d' ' -f1 /tmp/wberr-log.txt | awk '$1 != NR - 1 { bad++ } END { print bad + 0 }') $(awk 'NF != 8' /tmp/wberr-log.txt | wc -l)" \
	"1000 0 0" "1000 log entries read in $pages pages by from_seq: consecutive, whole lines"
tap_ok $([ "$first" -lt 1000 ] && echo 0 || echo 1) \
	"one 'log' message returns only the whole lines that fit ($first of 1000)"
msg clear

# ================================================================ concurrency
# messages swapping the rule set while I/O runs: the pass-through I/O never
# sees a rule meant for other sectors
reload
dio -n 1500 $DEV write 9000 > /tmp/wberr-bg.txt &
pid=$!
i=0
while [ $i -lt 100 ]; do
	id=$(msg add all ioerr sectors=$((20000 + i * 8))-$((20007 + i * 8)))
	[ $((i % 3)) = 0 ] && msg remove "$id"
	i=$((i + 1))
done
msg clear
wait $pid
tap_is "$(tr ' ' '\n' < /tmp/wberr-bg.txt | sort -u | tr '\n' ' ')" "0 " \
	"1500 writes during 100 adds and 34 removes all pass"
tap_is "$(status_info | cut -d' ' -f1-4)" "1500 0 0 0" "bios_seen counts every one of them"

# two writers hitting one seeded prob= rule while messages change other
# rules and read the log: every failure a writer saw is counted once, in
# the rule, the status line and the log
reload "2 seed 9"
keep=$(msg add write,fua medium sectors=30000-30063 prob=300000)
dio -n 400 $DEV write 30000 > /tmp/wberr-w1.txt &
p1=$!
dio -n 400 $DEV fua 30032 > /tmp/wberr-w2.txt &
p2=$!
i=0
while [ $i -lt 60 ]; do
	id=$(msg add read ioerr sectors=$((40000 + i * 8))-$((40007 + i * 8)))
	msg log > /dev/null
	dmsetup status $DM > /dev/null
	msg remove "$id"
	i=$((i + 1))
done
wait $p1 $p2
seen_err=$(cat /tmp/wberr-w1.txt /tmp/wberr-w2.txt | tr ' ' '\n' | grep -c ENODATA)
other=$(cat /tmp/wberr-w1.txt /tmp/wberr-w2.txt | tr ' ' '\n' | grep -vc -e ENODATA -e '^0$')
fired=$(msg list | awk -v k=$keep '$1 == k { sub("fired=", "", $NF); print $NF }')
tap_is "$other $fired $(status_info | cut -d' ' -f2,5) $(log_all | grep -c ' medium$')" \
	"0 $seen_err $seen_err $seen_err $seen_err" \
	"concurrent writers saw $seen_err ENODATA: equal to fired, bios_failed, log entries"
tap_ok $([ "$seen_err" -gt 100 ] && [ "$seen_err" -lt 400 ] && echo 0 || echo 1) \
	"prob=300000 failed a plausible share of 800 writes ($seen_err)"
msg clear

# ================================================================ two targets
# Each wberr target of a table has its own rules (messages pick the target
# by sector); an empty flush is cloned to both, the second clone not
# embedded in its dm_io (dm.c alloc_tio), and either can fail it.
printf '0 1024 wberr %s %s\n1024 1024 wberr %s %s\n' $disk $OFF $disk $((OFF + 1024)) |
	dmsetup create ${DM}_two
two=/dev/mapper/${DM}_two
dmsetup message ${DM}_two 1024 add write ioerr sectors=8-15 > /dev/null
dmsetup message ${DM}_two 1024 add flush timeout count=1 > /dev/null
got="$(dio $two write 8) $(dio $two write 1032) $(dio $two flush 0) $(dio $two flush 0)"
tap_is "$got | $(dmsetup message ${DM}_two 0 list | wc -l)" "0 EIO ETIMEDOUT 0 | 0" \
	"two-target table: rules of the second target fire at its own relative sectors and on the cloned flush"
tap_is "$(dmsetup status ${DM}_two | cut -d' ' -f4- | tr '\n' ';')" \
	"3 0 0 0 0 0 -;3 2 0 2 2 2 timeout:1 ioerr:1;" \
	"two-target table: each target counts its own bios and faults"
dmsetup remove ${DM}_two

# ================================================================ ext4 writeback
# The point of the target: a data writeback of one file block fails with
# the programmed status, and fsync() reports that errno, once (ext4 data
# writeback hands blk_status_to_errno() to mapping_set_error(),
# fs/ext4/page-io.c; errseq reports it to each fd once).
reload
mnt=/mnt/wberr
mkdir -p $mnt
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $DEV > /dev/null 2>&1 &&
	mount -t ext4 $DEV $mnt
f=$mnt/data
printf 'open f %s rw,creat\npwrite f 0 65536 0x11\nfsync f\nclose f\n' $f | wberr-fdshell > /dev/null
blk=$(filefrag -v $f 2>/dev/null | awk '$1 == "0:" { sub(/\.\./, "", $4); print $4 }')
tap_ok $([ -n "$blk" ] && [ "$blk" -gt 0 ] && echo 0 || echo 1) \
	"ext4 on wberr: a 64 KiB file is written and its first block found (fs block $blk)"
s0=$((${blk:-0} * 8))
msg log_clear
msg add write,fua timeout sectors=$s0-$((s0 + 7)) count=1 > /dev/null
out=$(printf 'open f %s rw\npwrite f 0 4096 0x22\nfsync f\nfsync f\nclose f\n' $f | wberr-fdshell | tr '\n' ';')
tap_is "$out" "open f = 0;pwrite f = 0;fsync f = ETIMEDOUT;fsync f = 0;close f = 0;" \
	"ext4: a buffered overwrite of that block, fsync -> ETIMEDOUT, the next fsync -> 0"
tap_is "$(msg log | awk '{ print $3, $4, $6, $8 }')" "1 write $s0 timeout" \
	"ext4: the log holds exactly the one writeback bio of that block"
msg clear

# A failed preflush is lost when the flush bio carries data: dm core sends
# the preflush as an empty bio and, when the original bio has data, reissues
# it without REQ_PREFLUSH and never copies the error (dm.c __dm_io_complete,
# bio_is_flush_with_data).  jbd2 writes its commit record with
# REQ_PREFLUSH|REQ_FUA, and ext4 fsync then relies on that barrier
# (jbd2_trans_will_send_data_barrier), so fsync succeeds although every
# empty flush failed; an fsync of the raw device does see the error.
msg log_clear
msg add flush ioerr > /dev/null
out=$(printf 'open j %s rw,creat\npwrite j 0 4096 0x33\nfsync j\nclose j\n' $mnt/j | wberr-fdshell | tr '\n' ';')
nflush=$(msg log | awk '$4 == "flush" && $8 == "ioerr"' | wc -l)
tap_ok $([ "$out" = "open j = 0;pwrite j = 0;fsync j = 0;close j = 0;" ] && [ "$nflush" -ge 1 ] && echo 0 || echo 1) \
	"ext4 fsync returns 0 although $nflush preflush(es) of its journal commit failed ($out)"
tap_is "$(dio $DEV flush 0)" "EIO" "the same rule fails an fsync of the raw device with EIO"
msg clear
umount $mnt

# ================================================================ teardown
dmsetup remove $DM
if [ -n "$loaded_here" ]; then
	tap_ok $(rmmod dm_wberr && echo 0 || echo 1) "the module unloads after the device is removed"
else
	tap_skip "the module unloads after the device is removed" "dm-wberr was loaded before this suite"
fi
trap - EXIT
tap_end
