#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each lib/c test binary as a TAP 14 subtest, then checks wberr-names
# (next to them) answers the calls the shell suites make.  TAP on stdout.
out_dir=$(dirname "$1")
n=0 fail=0
point() {	# $1: 0 if passed, $2: description
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=$((fail + 1)); fi
}
same() {	# $1: want, $2: got, $3: description
	[ "$1" = "$2" ]; point $? "$3"
	[ "$1" = "$2" ] || printf '  # want %s\n  # got  %s\n' "$1" "$2"
}
echo "TAP version 14"
echo "1..$(( $# + 6 ))"
for t in "$@"; do
	echo "# Subtest: $(basename "$t")"
	res=$("$t" 2>&1); rc=$?
	printf '%s\n' "$res" | sed 's/^/    /'
	point $rc "$(basename "$t")"
done
names=$out_dir/wberr-names
same "ETIMEDOUT 110" "$("$names" errno timeout)" "wberr-names errno timeout"
same "EBADE 52" "$("$names" errno nexus)" "wberr-names errno nexus (the alias)"
same "17 notsupp 1 EOPNOTSUPP 95" "$("$names" statuses | wc -l) $("$names" statuses | head -n 1)" \
	"wberr-names statuses: 17 lines of name blk_sts ERRNAME errno"
same "nexus 6 EBADE 52" "$("$names" statuses --alias | grep '^nexus')" "wberr-names statuses --alias adds nexus"
same "read write fua flush discard write_zeroes" "$("$names" ops | tr '\n' ' ' | sed 's/ $//')" "wberr-names ops"
same "errno=5 name=EIO seen=0 counter=1 with_seen=00003005" "$("$names" errseq 00002005)" "wberr-names errseq"
[ $fail -eq 0 ]
