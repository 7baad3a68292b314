#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each lib/c test binary as a TAP 14 subtest, then checks wberr-names
# (next to them) answers the calls the shell suites make.  TAP on stdout.
. "$(dirname "$0")/../../sh/tap.sh"
out_dir=$(dirname "$1")
tap_begin $(( $# + 6 ))
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
tap_end
