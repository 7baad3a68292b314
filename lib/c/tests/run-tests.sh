#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each lib/c test binary as a TAP 14 subtest, then checks wberr-names
# (next to them) answers the calls the shell suites make.  TAP on stdout.
. "$(dirname "$0")/../../sh/tap.sh"
out_dir=$(dirname "$1")
tap_begin $(( $# + 11 ))
for t in "$@"; do
	tap_subtest "$(basename "$t")" "$t"
done
names=$out_dir/wberr-names
tap_is "$("$names" errno timeout)" "ETIMEDOUT 110" "wberr-names errno timeout"
tap_is "$("$names" errno nexus)" "EBADE 52" "wberr-names errno nexus (the alias)"
tap_is "$("$names" statuses | wc -l) $("$names" statuses | head -n 1)" "17 notsupp 1 EOPNOTSUPP 95" \
	"wberr-names statuses: 17 lines of name blk_sts ERRNAME errno"
tap_is "$("$names" statuses --alias | grep '^nexus')" "nexus 6 EBADE 52" "wberr-names statuses --alias adds nexus"
tap_is "$("$names" ops | tr '\n' ' ' | sed 's/ $//')" "read write fua flush discard write_zeroes" "wberr-names ops"
tap_is "$("$names" errseq 00002005)" "errno=5 name=EIO seen=0 counter=1 with_seen=00003005" "wberr-names errseq"
tap_is "$("$names" fs | tr '\n' ' ' | sed 's/ $//')" "raw ext4 ext2 xfs btrfs" "wberr-names fs"
tap_is "$("$names" mkfs ext4)" "mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0" "wberr-names mkfs ext4"
tap_is "$("$names" mkfs xfs --dax)" "mkfs.xfs -f -q" "wberr-names mkfs xfs --dax"
tap_is "$("$names" mkfs raw; echo "status $?") $("$names" mkfs btrfs --dax; echo "status $?")" "status 1 status 1" \
	"wberr-names mkfs: none for raw, no DAX for btrfs"
tap_is "$("$names" module ext2)" "ext4" "wberr-names module ext2: the ext4 driver has it"
tap_end
