#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The oracle fails what it must: wberr-run is given scenarios whose claims
# are false on any kernel and must exit 1 naming the step and the reason;
# a malformed scenario must exit 2 with file:line:column and the key path.

. /opt/wberr/libexec/tap.sh

set -- $WBERR_DISKS
disk=$1
work=/tmp/oracle-selftest
mkdir -p "$work" /mnt/wberr
[ -d /sys/module/dm_wberr ] || insmod "$WBERR_MODDIR/dm-wberr.ko"

tap_begin 6

# run NAME EXPECTED_RC GREP: run one scenario file, check status and message
run() {
	wberr-run --disk "$disk" "$work/$1.yaml" > "$work/$1.out" 2>&1
	rc=$?
	tap_is "$rc" "$2" "$1: wberr-run exits $2"
	if grep -q -- "$3" "$work/$1.out"; then
		tap_ok 0 "$1: the report says '$3'"
	else
		tap_ok 1 "$1: the report says '$3'"
		sed 's/^/  # /' "$work/$1.out" | head -40
	fi
}

# The scenario claims b sees nothing, but b was open at the failure.
cat > "$work/claims-no-error.yaml" <<'Y'
name: claims-no-error
fs: ext4
steps:
  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CREAT]}
  - {op: open, fd: b, path: f, flags: [O_RDWR]}
  - {op: pwrite, fd: a, size: 16k}
  - {op: fsync, fd: a}
  - {op: pwrite, fd: a, size: 16k, pattern: 1}
  - {op: fault, ops: write, status: ioerr, file: f}
  - {op: fsync, fd: a}
  - {op: fsync, fd: b, expect: 0, why: "a false claim"}
  - {op: clear_faults}
  - {op: close, fd: a}
  - {op: close, fd: b}
Y
run claims-no-error 1 "returned EIO, scenario expects 0"

# The model is told the filesystem recorded an error it never recorded: the
# next fsync "loses" it, and the trace shows no cursor move.
cat > "$work/phantom-error.yaml" <<'Y'
name: phantom-error
fs: xfs
steps:
  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CREAT]}
  - {op: pwrite, fd: a, size: 16k}
  - {op: fsync, fd: a, records: {f: EIO}, why: "a false claim"}
  - {op: fsync, fd: a}
  - {op: close, fd: a}
Y
run phantom-error 1 "no file_check_and_advance_wb_err event"

# Misspelt flag: refused before anything runs.
cat > "$work/typo.yaml" <<'Y'
name: typo
fs: ext4
steps:
  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CRAT]}
Y
run typo 2 "typo.yaml:4:48: steps\[0\].flags\[1\]: unknown flag \"O_CRAT\""

umount /mnt/wberr 2>/dev/null
dmsetup remove wberr-run 2>/dev/null
[ "$TAP_FAILED" -eq 0 ]
