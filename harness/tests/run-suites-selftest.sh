#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks of harness/guest/run-suites, the guest harness, run under
# sh (dash, not busybox: busybox sh would run its own dmesg, insmod and
# umount applets whatever PATH says) over a fake tests tree, with fake
# dmesg, dmsetup, insmod and umount first on PATH, checked before anything
# runs, and every kernel path redirected into a temporary directory: discovery of tests/<group>/NNN, the header
# tags and selections (the apps disk's too), renumbering and the counted
# plan, per-test timeout, a requirement that fails, a WARN charged to the
# test that caused it, optional hardware (pmem, apps disk, CPUs): a group
# run without it gives only ok and skip lines, hardware that did not come
# up fails; a skip path that falls through fails; --needs for the Makefile;
# the results manifest lists what each test and the harness left.
# TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/lib/sh/tap.sh"
check() { tap_is "$@"; }	# $1 observed, $2 expected, $3 description

mkdir -p "$tmp/bin" "$tmp/mod" "$tmp/libexec"
# /opt/wberr/libexec as harness/mkimage.sh lays it out
cp "$top/harness/guest/lib.sh" "$top/harness/guest/oops-patterns" "$top/harness/guest/artifacts" \
	"$top/lib/sh/tap.sh" "$top/lib/sh/shard.sh" "$top/lib/sh/manifest.sh" "$tmp/libexec/"
touch "$tmp/mod/dm-wberr.ko"
cat > "$tmp/bin/dmesg" <<'X'
#!/bin/sh
cat "$FAKE_KLOG"; [ "${1:-}" = -c ] && : > "$FAKE_KLOG"; exit 0
X
cat > "$tmp/bin/dmsetup" <<'X'
#!/bin/sh
[ "$1" = targets ] && [ -f "$FAKE_LOADED" ] && echo "wberr            v1.0.0"
exit 0
X
cat > "$tmp/bin/insmod" <<'X'
#!/bin/sh
[ -n "${FAKE_INSMOD_FAIL:-}" ] && { echo "insmod: ERROR: could not insert module $1: Invalid module format" >&2; exit 1; }
touch "$FAKE_LOADED"
X
printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/umount"
chmod +x "$tmp/bin"/*

t=$tmp/tests
mkdir -p "$t/g1" "$t/g2" "$t/g3" "$t/g4" "$t/g5"
# The apps disk as guest/init mounts it (mkapps.sh's package list at its
# root), and a boot without one.
mkdir -p "$tmp/apps" "$tmp/noapps"
echo "sqlite3	3	amd64" > "$tmp/apps/wberr-apps.list"
mk() {	# $1 path, stdin body
	{ echo '#!/bin/sh'; cat; } > "$t/$1"
}
mk g1/001 <<'X'
# wberr-desc: two results, unnumbered and numbered
echo "ok - a"
echo "ok 2 - b"
X
mk g1/002 <<'X'
echo "TAP version 14"
echo "1..3"
echo "ok 1 - c"
echo "not ok 2 - d"
echo "  ---"
exit 1
X
mk g1/003 <<'X'
echo "[   1.000000] WARNING: CPU: 0 PID: 1 at fake.c:1 fake" >> "$FAKE_KLOG"
echo "ok 1 - e # SKIP why"
X
echo "echo not a test" > "$t/g1/rc"
mk g2/001 <<'X'
# wberr-requires: dm-wberr
echo "ok 1 - needs dm-wberr"
echo trace > "$WBERR_RESULTS/a.trace"
mkdir -p "$WBERR_RESULTS/evidence/ext4_a_" "$WBERR_RESULTS/evidence/xfs_b_"
echo tool=wberr-run > "$WBERR_RESULTS/evidence/ext4_a_/meta.txt"
X
mk g2/002 <<'X'
# wberr-timeout: 1
echo "ok 1 - before the hang"
sleep 3
X
mk g3/001 <<'X'
# wberr-smp: 2
echo "ok 1 - smp"
X
mk g3/002 <<'X'
# wberr-suite: default
echo "ok 1 - default"
X
mk g3/003 <<'X'
# wberr-suite: own-boot
echo "ok 1 - own-boot"
X
mk g4/001 <<'X'
exit 0
X
mk g5/001 <<'X'
# wberr-requires: apps
echo "ok 1 - apps at $WBERR_APPS"
X
mk g5/002 <<'X'
# wberr-desc: in the group, needs no apps disk
echo "ok 1 - plain"
X

run() {	# $1 selection, $2 cpus -> $res/..., status in $rs
	res=$tmp/res-$TAP_N
	rm -rf "$res"; mkdir -p "$res"
	boot "$1" "$2" st
}
boot() {	# $1 selection, $2 cpus, $3 boot name: one boot into $res (kept)
	rm -rf "$tmp/h" "$tmp/loaded"; mkdir -p "$tmp/h"
	: > "$tmp/klog"
	PATH=$tmp/bin:$PATH WBERR_TESTS_DIR=${TESTS:-$t} WBERR_LIBEXEC=$tmp/libexec WBERR_RESULTS=$res \
	WBERR_HARNESS_TMP=$tmp/h WBERR_KMSG=$tmp/kmsg WBERR_TRACING=$tmp/h/tracing WBERR_KMEMLEAK=$tmp/none \
	WBERR_CPUS=$2 WBERR_TIMEOUT_SCALE=1 WBERR_MODDIR=$tmp/mod WBERR_BOOT_NAME=$3 \
	WBERR_APPS=$tmp/${APPS:-noapps} WBERR_PMEM=${PMEM:-} \
	WBERR_APPS_ERROR=${WBERR_APPS_ERROR:-} WBERR_PMEM_ERROR=${WBERR_PMEM_ERROR:-} \
	FAKE_KLOG=$tmp/klog FAKE_LOADED=$tmp/loaded \
		sh "$top/harness/guest/run-suites" "$1" 3> "$tmp/stream-$3" 2> "$tmp/err"
	rs=$?
	cp "$tmp/stream-$3" "$tmp/stream"
}
sel() { sed -n 's/^WBERR-TEST-START //p' "$tmp/stream" | tr '\n' ' '; }

tap_begin
# Never the real tools: this runs on the host.
for c in dmesg dmsetup insmod umount; do
	[ "$(PATH=$tmp/bin:$PATH sh -c "command -v $c")" = "$tmp/bin/$c" ] ||
		{ echo "Bail out! sh would not run the fake $c"; exit 1; }
done
run all 1
check "$(sel)" "g1/001 g1/002 g1/003 g2/001 g2/002 g3/002 g4/001 g5/002 " \
	"all on 1 CPU without the apps disk: every test but the smp, own-boot and apps ones, rc and other files ignored"
check "$(grep -c "^WBERR-NOTE g5/001 needs apps: no apps disk at $tmp/noapps (run-guest --apps IMG; make apps builds IMG): not run in this boot" "$tmp/stream")" 1 \
	"all: a note says why the apps test did not run"
check "$rs" 1 "all: the harness fails when a test failed"
check "$(cat "$res/g1.tap")" "TAP version 14
ok 1 - 001: a
ok 2 - 001: b
ok 3 - 002: c
not ok 4 - 002: d
  ---
ok 5 - 003: e # SKIP why
1..5" "results are numbered across the group's tests, prefixed with the test number; the plan is counted, last"
check "$(grep -c '^T g1 ' "$tmp/stream")" 7 "each result line also goes to the stream as T <group> <line>"
check "$(grep -E '^(not )?ok' "$res/guest-harness-st.tap" | sed 's/ ([0-9.]*s)$//')" \
"ok 1 - g1/001: exit 0, kernel log clean
not ok 2 - g1/002: exited 1; planned 3 results, printed 2
not ok 3 - g1/003: kernel log: [   1.000000] WARNING: CPU: 0 PID: 1 at fake.c:1 fake
ok 4 - g2/001: exit 0, kernel log clean
not ok 5 - g2/002: timed out after 1s
ok 6 - g3/002: exit 0, kernel log clean
not ok 7 - g4/001: printed no result
ok 8 - g5/002: exit 0, kernel log clean" \
	"one harness result per test: exit status, own plan, timeout, no result, and a WARN charged to its test only"
check "$(tail -n 1 "$res/guest-harness-st.tap")" "1..8" "the harness TAP counts its plan"
check "$(grep -c WARNING "$res/g1.003.dmesg") $(grep -c WARNING "$res/g1.001.dmesg")" "1 0" \
	"each test's kernel log is kept on its own"
check "$(grep '^WBERR-SUITE-END' "$tmp/stream" | cut -d' ' -f2,3)" "g1 rc=1
g2 rc=1
g3 rc=0
g4 rc=1
g5 rc=0" "one SUITE-START/END pair per group, with the group's verdict"
check "$(cat "$res/g2.tap")" "TAP version 14
ok 1 - 001: needs dm-wberr
ok 2 - 002: before the hang
1..2" "a killed test keeps the results it printed; the loader loaded the module for g2/001"
out=$("$top/harness/report.sh" "$res" 2>&1); check "$(echo "$out" | tail -n 1)" "11 passed, 6 failed, 1 skipped" \
	"report.sh totals the group and harness TAP files"
check "$(grep -e ' g2 ' -e ' g2/' "$res/manifest.txt")" "tap/group g2.tap g2 st
log/group g2.log g2 st
trace a.trace g2/001 st
evidence evidence/ext4_a_ g2/001 st
evidence evidence/xfs_b_ g2/001 st
dmesg/test g2.001.dmesg g2/001 st
dmesg/test g2.002.dmesg g2/002 st" \
	"the manifest: the group's TAP and log, what its test left (by guest/artifacts' kinds, an evidence directory's entries one by one) and each test's kernel log"
check "$(cd "$res" && ls -d * evidence/* | grep -vx -e manifest.txt -e evidence -e junit.xml -e index.html | sort | tr '\n' ' ')" \
	"$(grep -v '^#' "$res/manifest.txt" | cut -d' ' -f2 | sort | tr '\n' ' ')" \
	"every file the boot left is in the manifest once, and nothing else"
check "$(grep -c '^tap/harness guest-harness-st.tap - st$' "$res/manifest.txt")" 1 "the harness's TAP is listed"

run default 1; check "$(sel)" "g3/002 " "default: only tests tagged wberr-suite: default"
run smp 1; check "$(sel)|$(grep -c 'WBERR-NOTE g3/001 wants 2 CPUs' "$tmp/stream")" "|1" "smp on 1 CPU: nothing runs, the note says why"
run smp 2; check "$(sel)" "g3/001 " "smp on 2 CPUs: only the tests that want several CPUs"
run g3 1; check "$(sel)|$rs|$(sed -n 2p "$res/g3.tap")" "g3/001 g3/002 g3/003 |0|ok 1 - 001 # SKIP wants 2 CPUs, the guest has 1 (run-guest --smp 2)" \
	"a named group runs all its tests, own-boot included; an smp one on too few CPUs is a skip with the reason"
run g3 2; check "$(sed -n 2p "$res/g3.tap")" "ok 1 - 001: smp" "a named group on enough CPUs runs its smp test"
run g1/002,guest-g4 1; check "$(sel)" "g1/002 g4/001 " "a named test, and an old suite name guest-<group>"
run apps 1; check "$(sel)|$(grep -c 'WBERR-NOTE g5/001 needs apps' "$tmp/stream")|$rs" "|1|0" \
	"apps without the apps disk: nothing runs, the note says why"
APPS=apps run apps 1; check "$(sel)|$(cat "$res/g5.tap")" "g5/001 |TAP version 14
ok 1 - 001: apps at $tmp/apps
1..1" "apps with the apps disk: only the tests that require it, which see WBERR_APPS"
APPS=apps run all 1; check "$(sel)" "g1/001 g1/002 g1/003 g2/001 g2/002 g3/002 g4/001 g5/001 g5/002 " \
	"all with the apps disk: the apps test too"
APPS=apps run smp 2; check "$(sel)" "g3/001 " "smp with the apps disk: still only the tests that want several CPUs"
run g5/001 1
check "$(sed -n 2p "$res/g5.tap")|$(sed -n 2p "$res/guest-harness-st.tap")|$rs" \
	"ok 1 - 001 # SKIP no apps disk at $tmp/noapps (run-guest --apps IMG; make apps builds IMG)|ok 1 - g5/001 # SKIP no apps disk at $tmp/noapps (run-guest --apps IMG; make apps builds IMG)|0" \
	"a named apps test without the disk is its one skip, with the reason (the harness's too); the test does not run"
WBERR_APPS_ERROR="apps disk /dev/vdd did not mount at /opt/apps: bad superblock" run g5/001 1
check "$(sed -n 2p "$res/g5.tap")|$rs" \
	"not ok 1 - 001: requirement: apps disk /dev/vdd did not mount at /opt/apps: bad superblock|1" \
	"an apps disk the boot has but could not mount is a failed requirement, not a skip"
WBERR_APPS_ERROR="apps disk /dev/vdd did not mount at /opt/apps: bad superblock" run all 1
check "$(sel)" "g1/001 g1/002 g1/003 g2/001 g2/002 g3/002 g4/001 g5/001 g5/002 " \
	"all: the apps test runs (and fails) when the disk is there but did not mount"
run nosuch 1; check "$rs|$(cat "$tmp/stream")" "2|WBERR-ERROR no suite nosuch" "an unknown name is an error, not an empty run"
FAKE_INSMOD_FAIL=1 run g2/001 1
check "$(sed -n 2p "$res/g2.tap")|$rs" \
	"not ok 1 - 001: requirement: wberr_load_dm: insmod $tmp/mod/dm-wberr.ko failed: insmod: ERROR: could not insert module $tmp/mod/dm-wberr.ko: Invalid module format|1" \
	"a dm-wberr that does not load is the test's one not ok, with insmod's reason; the test does not run"

# Optional hardware (pmem, apps, CPUs) declared in the header, and skip
# paths that fall through, in a tree of their own.  Each test body fails
# when it runs without what it declares, as dm-wberr/028 did.
h=$tmp/tests-hw
mkdir -p "$h/hw" "$h/plain" "$h/skips"
mkh() { { echo '#!/bin/sh'; cat; } > "$h/$1"; }
mkh hw/001 <<'X'
# wberr-desc: needs the pmem
# wberr-requires: pmem
[ -n "$WBERR_PMEM" ]; echo "$([ $? = 0 ] || echo not )ok - a table over the pmem ($WBERR_PMEM) is DAX"
X
mkh hw/002 <<'X'
# wberr-uses: pmem
if [ -z "$WBERR_PMEM" ]; then echo "ok - the DAX instances # SKIP no pmem"; exit 0; fi
echo "ok - the DAX instances on $WBERR_PMEM"
X
mkh hw/003 <<'X'
# wberr-smp: 2
echo "ok - two CPUs"
X
mkh hw/004 <<'X'
# wberr-requires: apps
[ -f "$WBERR_APPS/wberr-apps.list" ]; echo "$([ $? = 0 ] || echo not )ok - sqlite3 from the apps disk"
X
mkh hw/005 <<'X'
# wberr-suite: default
echo "ok - plain, in the default set"
X
mkh plain/001 <<'X'
echo "ok - plain"
X
# 028 as it was: four skips, then on anyway with an empty device name
mkh skips/001 <<'X'
if [ -z "$WBERR_PMEM" ]; then
	for t in "a table over the pmem is DAX" "ext4 mounts -o dax=always on it" \
		 "a metadata rule fails the journal under DAX" "over a virtio disk the table is not DAX"; do
		echo "ok - $t # SKIP no persistent memory in this guest"
	done
fi
echo "ok - a table over the pmem ($WBERR_PMEM, 0 sectors) is DAX (queue/dax)"
echo "not ok - ext4 mounts -o dax=always on it: mount: Invalid argument"
X
# one check skipped, the same check reported after, both ok: still a fall-through
mkh skips/002 <<'X'
echo "ok - write cache over null_blk # SKIP no /dev/nullb0"
echo "ok - write cache over null_blk: flush reaches the device"
X
# skips that do not fall through: other checks after them, names that
# only share a start
mkh skips/003 <<'X'
echo "ok - (e) raw bdev: fdinfo errno for io # SKIP no device"
echo "ok - (e) raw bdev: fdinfo errno for ioerr"
echo "ok - (e) raw bdev: fsync errno for BLK_STS_IOERR"
echo "ok - again on a REQ_POLLED bio # SKIP no poll queue"
echo "ok - again on a REQ_POLLED bio, twice"
echo "ok - ext4/journal-fault # SKIP no persistent memory"
echo "ok - ext4/journal-fault-data"
echo "ok - over a virtio disk the table is not DAX"
echo "ok - something else (details)"
X
TESTS=$h run hw 1
check "$(grep -E '^(not )?ok' "$res/hw.tap")|$(grep -E '^(not )?ok' "$res/guest-harness-st.tap" | sed 's/ ([0-9.]*s)$//')|$rs" \
"ok 1 - 001: needs the pmem # SKIP no persistent memory in this guest (run-guest --pmem SIZE)
ok 2 - 002: the DAX instances # SKIP no pmem
ok 3 - 003 # SKIP wants 2 CPUs, the guest has 1 (run-guest --smp 2)
ok 4 - 004 # SKIP no apps disk at $tmp/noapps (run-guest --apps IMG; make apps builds IMG)
ok 5 - 005: plain, in the default set|ok 1 - hw/001 # SKIP no persistent memory in this guest (run-guest --pmem SIZE)
ok 2 - hw/002: exit 0, kernel log clean
ok 3 - hw/003 # SKIP wants 2 CPUs, the guest has 1 (run-guest --smp 2)
ok 4 - hw/004 # SKIP no apps disk at $tmp/noapps (run-guest --apps IMG; make apps builds IMG)
ok 5 - hw/005: exit 0, kernel log clean|0" \
	"a group run without its optional hardware (no pmem, no apps disk, one CPU): what requires it is one skip with the reason, what uses it runs and skips its part; only ok and skip lines"
APPS=apps PMEM=/dev/pmem0 TESTS=$h run hw 2
check "$(grep -E '^(not )?ok' "$res/hw.tap")|$rs" "ok 1 - 001: a table over the pmem (/dev/pmem0) is DAX
ok 2 - 002: the DAX instances on /dev/pmem0
ok 3 - 003: two CPUs
ok 4 - 004: sqlite3 from the apps disk
ok 5 - 005: plain, in the default set|0" "the same group with the pmem, the apps disk and two CPUs: every test runs, nothing skipped"
for g in hw plain skips; do
	TESTS=$h run $g 1
	echo "$g: $(grep -E '^(not )?ok' "$res/$g.tap" | grep -vc -e '^ok [0-9]* - [^#]*$' -e '^ok [0-9]* - .* # SKIP ')"
done > "$tmp/only-ok-skip"
check "$(cat "$tmp/only-ok-skip" | tr '\n' ' ')" "hw: 0 plain: 0 skips: 1 " \
	"every group run without its optional hardware gives only ok and skip lines, but the one whose skip path falls through"
TESTS=$h run skips 1
check "$(grep -E '^(not )?ok' "$res/guest-harness-st.tap" | sed 's/ ([0-9.]*s)$//')|$rs" \
"not ok 1 - skips/001: skip path fell through: \"a table over the pmem is DAX\" skipped, then reported: ok 5 - 001: a table over the pmem (, 0 sectors) is DAX (queue/dax)
not ok 2 - skips/002: skip path fell through: \"write cache over null_blk\" skipped, then reported: ok 8 - 002: write cache over null_blk: flush reaches the device
ok 3 - skips/003: exit 0, kernel log clean|1" \
	"a test whose skip path falls through (SKIP lines, then results for the same checks) fails in the harness, even when the result is ok; other checks after a skip do not"
PMEM=/dev/pmem0 TESTS=$h run skips 1
check "$(sed -n 1p "$res/guest-harness-st.tap"; grep -c '^ok 1 - skips/001' "$res/guest-harness-st.tap")" "TAP version 14
1" "with the pmem that test takes no skip path and passes the harness"
# Hardware the boot has that did not come up fails, never skips.
WBERR_PMEM_ERROR="persistent memory present, fsdax set-up failed: nd_pmem refused pfn0.0" TESTS=$h run hw/001,hw/002 1
check "$(grep -E '^(not )?ok' "$res/hw.tap")|$rs" "not ok 1 - 001: requirement: persistent memory present, fsdax set-up failed: nd_pmem refused pfn0.0
not ok 2 - 002: requirement: persistent memory present, fsdax set-up failed: nd_pmem refused pfn0.0|1" \
	"a pmem the boot has but could not set up fails the tests that require or use it, with the reason"
# Selections: all and default leave what needs absent hardware out, pmem
# selects what requires or uses it.
TESTS=$h run all 1
check "$(sel)|$(grep -c '^WBERR-NOTE hw/00[12] needs pmem: no persistent memory in this guest (run-guest --pmem SIZE): not run in this boot' "$tmp/stream")" \
	"hw/005 plain/001 skips/001 skips/002 skips/003 |2" "all without the pmem: the tests that require or use it are left out, each with a note"
PMEM=/dev/pmem0 TESTS=$h run pmem 1; check "$(sel)" "hw/001 hw/002 " "pmem with the pmem: only the tests that require or use it"
TESTS=$h run pmem 1; check "$(sel)|$rs" "|0" "pmem without the pmem: nothing runs"
PMEM=/dev/pmem0 TESTS=$h run default 1; check "$(sel)" "hw/005 " "default: the tags still decide"
# --needs SEL: the hardware a selection's tests declare, for the Makefile
needs() { WBERR_TESTS_DIR=$1 sh "$top/harness/guest/run-suites" --needs "$2" 2>&1 | tr '\n' ' '; }
check "$(needs "$h" all)|$(needs "$h" default)|$(needs "$h" pmem)|$(needs "$h" hw/004)|$(needs "$h" plain)" "apps pmem ||pmem |apps |" \
	"--needs SEL prints the optional hardware the tests it selects require or use, whatever this machine has"
check "$(needs "$top/tests" default)|$(needs "$top/tests" scenarios)|$(needs "$top/tests" dm-wberr/028)|$(needs "$top/tests" pmem)" "nvme pmem |nvme pmem |pmem |nvme pmem " \
	"the real tree: make run's default set and the scenario library (its DAX and nvme-backend instances) need the nvdimm and the NVMe disk, dm-wberr/028 the nvdimm"
check "$(needs "$top/tests" nosuch)" "run-suites: no group or test 'nosuch' in $top/tests " "--needs: an unknown name is an error"

# make test SHARD=I/N: every test in exactly one shard, a self-sharding
# test in each; a bad shard is an error.
mkdir -p "$t/g6"
mk g6/001 <<'X'
# wberr-shard: self
echo "ok 1 - shard ${WBERR_SHARD:-none}"
X
# `all` unsharded and as shards 1/3, 2/3, 3/3: $full, $s1, $s2, $s3, and
# the union of the shards and the unsharded selection, self-sharding test aside
three_shards() {
	run all 1; full=$(sel)
	WBERR_SHARD=1/3 run all 1; s1=$(sel)
	WBERR_SHARD=2/3 run all 1; s2=$(sel)
	WBERR_SHARD=3/3 run all 1; s3=$(sel)
	union=$(echo $s1 $s2 $s3 | tr ' ' '\n' | grep -v g6/001 | sort | tr '\n' ' ')
	unsharded=$(echo $full | tr ' ' '\n' | grep -v g6/001 | sort | tr '\n' ' ')
}
three_shards
check "$union" "$unsharded" "SHARD 1/3, 2/3, 3/3: their union is the unsharded selection"
check "$(echo $s1 $s2 $s3 | tr ' ' '\n' | grep -v g6/001 | sort | uniq -d | wc -l)|$(echo $s1 $s2 $s3 | tr ' ' '\n' | grep -c g6/001)" "0|3" \
	"no test in two shards; the self-sharding test in each"
check "$s1" "g1/001 g2/001 g3/002 g6/001 " \
	"equal costs: shard 1/3 takes the tree's tests at positions 0, 3, 6, 9 (self-sharding tests not counted) that this boot selects (g5/001 needs the apps disk)"
mkdir -p "$t/g7"
mk g7/001 <<'X'
# wberr-cost: 100
echo "ok 1 - long"
X
three_shards
check "$union|$s1" "$unsharded|g6/001 g7/001 " \
	"a test of wberr-cost 100 (the others 5 each) has shard 1/3 to itself and the self-sharding test; the union is still the unsharded selection"
rm -rf "$t/g7"
WBERR_SHARD=4/3 run all 1; check "$rs|$(grep WBERR-ERROR "$tmp/stream")" "2|WBERR-ERROR bad shard 4/3" "a shard out of range is an error"
WBERR_SHARD=1/2 run smp 2
check "$(sel)|$rs|$(sed 's/ ([0-9.]*s)$//' "$res/guest-harness-st.tap")" "|0|TAP version 14
ok 1 - shard 1/2: none of this boot's tests # SKIP in the other shards
1..1" "a shard that leaves a boot nothing: one skip, not an empty TAP file"
rm -rf "$t/g6"

# The header keys run-suites reads are the rows of tests/README.md's header
# table, no more and no fewer.
code_keys=$(grep -oE '(header|hw_of) "[^"]*" [a-z]+' "$top/harness/guest/run-suites" | awk '{print $3}' | sort -u | tr '\n' ' ')
doc_keys=$(awk '/^The header \(first 15 lines/ {h = 1; next} h && /^\| `/ {t = 1; print} t && !/^\|/ {exit}' \
	"$top/tests/README.md" | grep -oE '^\| `[a-z]+`' | tr -d '|` ' | sort -u | tr '\n' ' ')
check "$doc_keys" "$code_keys" "tests/README.md's header table has a row for each key run-suites reads ($code_keys)"

# The rule itself (lib/sh/shard.sh), and the host tests split by it.
shard_rule() {
	for s in "" 2/3 3/3 12/20 4/3 0/3 1/0 1 a/b 1/2/3 /3 3/ 01/3; do
		(. "$top/lib/sh/shard.sh"; shard_parse "$s" 2>/dev/null; echo "$s:$?:$shard_i/$shard_n")
	done | tr '\n' ' '
}
check "$(shard_rule)" ":0:1/1 2/3:0:2/3 3/3:0:3/3 12/20:0:12/20 4/3:1:1/1 0/3:1:1/1 1/0:1:1/1 1:1:1/1 a/b:1:1/1 1/2/3:1:1/1 /3:1:1/1 3/:1:1/1 01/3:1:1/1 " \
	"shard_parse: I/N with 1 <= I <= N, or nothing for all; anything else refused"
hosts=$("$top/harness/tests/run-host-tests.sh" --list "$tmp/none")
hshards=$(for i in 1 2 3; do WBERR_SHARD=$i/3 "$top/harness/tests/run-host-tests.sh" --list "$tmp/none"; done)
# (the count: every host_test line of the script, read apart from --list)
nhosts=$(grep -c '^host_test ' "$top/harness/tests/run-host-tests.sh")
check "$(echo "$hshards" | sort | tr '\n' ' ')|$(echo "$hosts" | wc -l)" "$(echo "$hosts" | sort | tr '\n' ' ')|$nhosts" \
	"the host tests: shards 1/3, 2/3, 3/3 run each of the $nhosts exactly once"

# make test's boots share one results directory, and its 2-vCPU boot
# (suites-smp2) runs tests of groups the main boot (suites) ran too: its
# group files are <group>-smp2, so neither boot's results replace the
# other's (once the 2-vCPU boot's 1 result replaced the main boot's 229).
res=$tmp/res-two; rm -rf "$res"; mkdir -p "$res"
boot all 1 suites; boot smp 2 suites-smp2
check "$(grep -c '^ok' "$res/g3.tap") $(grep -c '^ok' "$res/g3-smp2.tap") $(ls "$res" | grep -c '^g3-smp2\.')" "1 1 3" \
	"two boots into one directory: g3.tap keeps the main boot's result, g3-smp2.tap (and its .log, .dmesg) the 2-vCPU boot's"
check "$(grep -c '^T g3-smp2 ' "$tmp/stream-suites-smp2") $(grep -c '^WBERR-SUITE-START g3-smp2$' "$tmp/stream-suites-smp2")" "2 1" \
	"the 2-vCPU boot's stream names the group g3-smp2, so run-guest rebuilds the right file after a crash"
out=$("$top/harness/report.sh" "$res" 2>&1); check "$(echo "$out" | grep -c '^  g3')" "2" "report.sh counts both"
check "$(grep ' suites-smp2$' "$res/manifest.txt" | cut -d' ' -f1-3 | tr '\n' '|')" \
	"tap/harness guest-harness-suites-smp2.tap -|tap/group g3-smp2.tap g3-smp2|log/group g3-smp2.log g3-smp2|dmesg/test g3-smp2.001.dmesg g3-smp2/001|" \
	"the second boot appends its own lines, its suite named as its stream and TAP file name it"
# make test's apps boot (suites-apps) after those two: the apps test runs
# there only, into g5-apps.tap; the main boot's g5.tap stays.
APPS=apps boot apps 1 suites-apps
check "$(sed -n 's/^WBERR-TEST-START //p' "$tmp/stream-suites-apps" | tr '\n' ' ')|$(grep -c '^ok' "$res/g5.tap") $(grep -c '^ok' "$res/g5-apps.tap")" \
	"g5/001 |1 1" "three boots into one directory: the apps boot runs the apps test alone, into g5-apps.tap"
tap_done
