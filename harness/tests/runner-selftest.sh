#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks of harness/run-guest with a fake QEMU: exit-status
# propagation, timeout, oops detection, crash without verdict, QEMU failing
# to start, TAP rebuilt from the stream after a crash, the results manifest
# (the guest's joined with the runner's lines), the apps disk, the pmem,
# the interactive shell's exit status and failures, the templates kept
# across boots.
# TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree"
touch "$tmp/tree/vmlinux" "$tmp/image.cpio"

run() {	# $1 outcome, rest: run-guest args -> sets status
	FAKE_QEMU_OUTCOME=$1 WBERR_QEMU=$here/fake-qemu WBERR_ACCEL=tcg \
		"$top/harness/run-guest" --kernel-tree "$tmp/tree" --image "$tmp/image.cpio" \
		--results "$tmp/results" --name selftest "${@:2}" > "$tmp/out" 2>&1
	status=$?
}
check() {	# $1 observed, $2 expected, $3 description; the output on failure
	tap_is "$1" "$2" "$3" || sed 's/^/# /' "$tmp/out"
}

tap_begin 41
run exit-0 --cmd true;  check "$status" 0 "guest command status 0 is returned"
run exit-7 --cmd 'exit 7'; check "$status" 7 "guest command status 7 is returned unchanged"
run oops --cmd true; check "$status" 126 "an oops on the console fails a command that exited 0"
grep -q 'BUG: kernel NULL pointer' "$tmp/out"; check "$?" 0 "the oops line is shown to the user"
run warn-in-output --cmd true; check "$status" 0 "BUG/WARNING printed by a test (not a kernel line) is not an oops"
run oops --cmd true --expect-reports; check "$status" 0 "--expect-reports: a positive-control boot with its reports passes"
run exit-0 --cmd true --expect-reports; check "$status" 126 "--expect-reports: a positive-control boot whose reports are missing fails (126)"
start=$(date +%s)
run hang --cmd true --timeout 3; check "$status" 124 "a hung guest is killed at the timeout and reported as 124"
check "$([ $(( $(date +%s) - start )) -lt 20 ] && echo fast)" fast "the hung guest did not outlive timeout + kill grace"
run panic --cmd true; check "$status" 125 "a guest that dies without a verdict is reported as 125"
run no-start --cmd true; check "$status" 127 "QEMU failing to start is reported as 127"
rm -rf "$tmp/results"
run suite-crash --suites s1
check "$(grep -c '^ok' "$tmp/results/s1.tap" 2>/dev/null)/$(grep -c '^not ok 2' "$tmp/results/runner-selftest.tap" 2>/dev/null)" "1/1" \
	"after a crash the suite's TAP is rebuilt from the stream and the runner marks the missing verdict"
manifest() { grep -v '^#' "$tmp/results/manifest.txt" | tr '\n' '|'; }
check "$(manifest)" "log/console console-selftest.log - selftest|log/stream stream-selftest.log - selftest|tap/group s1.tap s1 selftest|tap/runner runner-selftest.tap - selftest|" \
	"the manifest lists the console and stream logs, the rebuilt TAP and the runner's"
# The guest's manifest joins the directory's: a host line before it stays.
rm -rf "$tmp/results"; mkdir -p "$tmp/results"
echo "tap/host host-x.tap - host" > "$tmp/results/manifest.txt"
run results --suites s1
check "$status/$(cat "$tmp/results/s1.tap" | tr '\n' '|')/$(cat "$tmp/results/a.trace")" "0/TAP version 14|ok 1 - first (saved)|1..1|/trace" \
	"the guest's saved TAP and files come back from the results disk (no rebuild)"
check "$(manifest)" "tap/host host-x.tap - host|tap/group s1.tap s1 selftest|trace a.trace s1/001 selftest|log/console console-selftest.log - selftest|log/stream stream-selftest.log - selftest|tap/runner runner-selftest.tap - selftest|" \
	"the guest's manifest is appended to the directory's (the host's line kept), then the runner's lines"
run exit-0 --cmd true
check "$(grep -c 'console-selftest.log' "$tmp/results/manifest.txt")" 2 "each boot adds its lines (a path twice: its last line holds)"
out=$("$top/harness/report.sh" "$tmp/results" 2>&1)
check "$(echo "$out" | grep -c ' passed, ')/$(echo "$out" | tail -n 1)" "4/4 passed, 1 failed" \
	"report.sh totals what the manifest lists, each file once (the host TAP it lists is missing: failed)"
# Set-up errors and a stopped run name what happened.
FAKE_QEMU_OUTCOME=exit-0 WBERR_QEMU=$here/fake-qemu WBERR_ACCEL=tcg "$top/harness/run-guest" \
	--kernel-tree "$tmp/tree" --image "$tmp/missing.cpio" --cmd true > "$tmp/out" 2>&1
status=$?
check "$status/$(grep -c "no image '$tmp/missing.cpio' (make image)" "$tmp/out")" 127/1 \
	"a missing image is a set-up error (127) that says what to build"
# The apps disk: attached read-only with its serial only when asked for.
qemu_cmdline() { sed 's/\\//g' "$(ls -t "$top"/build/logs/selftest-*.qemu.cmdline | head -n 1)"; }	# %q unquoted
run exit-0 --cmd true
check "$(qemu_cmdline | grep -c 'wberr-apps')" 0 "without --apps no apps disk is attached"
touch "$tmp/apps.img"
run exit-0 --cmd true --apps "$tmp/apps.img"
check "$status/$(qemu_cmdline | grep -c "file=$tmp/apps.img,format=raw,readonly=on -device virtio-blk-pci,drive=apps,serial=wberr-apps")" 0/1 \
	"--apps IMG attaches IMG read-only with serial wberr-apps"
# Persistent memory: an nvdimm with room for it, only when asked for.
run exit-0 --cmd true
check "$(qemu_cmdline | grep -c -e nvdimm -e maxmem)" 0 "without --pmem no nvdimm and no hotplug slot (the default boot is unchanged)"
run exit-0 --cmd true --pmem 512M --mem 1024
check "$status/$(qemu_cmdline | grep -c -- "-machine pc,nvdimm=on -m 1024,slots=1,maxmem=1536M -object memory-backend-file,id=pmem0,share=on,mem-path=[^ ]*/pmem0.img,size=512M -device nvdimm,id=nvdimm0,memdev=pmem0")" 0/1 \
	"--pmem 512M: a 512M file-backed nvdimm, maxmem = memory + 512M"
run exit-0 --cmd true --pmem 512
check "$status/$(grep -c "pmem takes a size in M or G (512M), not '512'" "$tmp/out")" 127/1 \
	"--pmem without a unit is refused (127) with the form it takes"
run exit-0 --cmd true --apps "$tmp/missing.img"
check "$status/$(grep -c "no apps image '$tmp/missing.img' (make apps" "$tmp/out")" 127/1 \
	"a missing apps image is a set-up error (127) that says what to build"
# --kernel FILE: a kernel image file (a Debian package's vmlinuz) instead of a tree.
touch "$tmp/vmlinuz-x"
ln -sf vmlinuz-x "$tmp/vmlinuz"
FAKE_QEMU_OUTCOME=exit-0 WBERR_QEMU=$here/fake-qemu WBERR_ACCEL=tcg "$top/harness/run-guest" \
	--kernel "$tmp/vmlinuz" --image "$tmp/image.cpio" --results "$tmp/results" --name selftest \
	--cmd true > "$tmp/out" 2>&1
status=$?
check "$status/$(qemu_cmdline | grep -c -- "-kernel $tmp/vmlinuz-x ")" 0/1 \
	"--kernel FILE boots that file (a symlink resolved)"
FAKE_QEMU_OUTCOME=exit-0 WBERR_QEMU=$here/fake-qemu WBERR_ACCEL=tcg "$top/harness/run-guest" \
	--kernel "$tmp/no-vmlinuz" --image "$tmp/image.cpio" --cmd true > "$tmp/out" 2>&1
status=$?
check "$status/$(grep -c "no kernel image '$tmp/no-vmlinuz' (make kernel)" "$tmp/out")" 127/1 \
	"a missing --kernel file is a set-up error (127) that names it"
FAKE_QEMU_OUTCOME=exit-0 WBERR_QEMU=$here/fake-qemu WBERR_ACCEL=tcg "$top/harness/run-guest" \
	--kernel "$tmp/vmlinuz" --kernel-tree "$tmp/tree" --image "$tmp/image.cpio" --cmd true > "$tmp/out" 2>&1
status=$?
check "$status/$(grep -c -- "--kernel and --kernel-tree exclude each other" "$tmp/out")" 127/1 \
	"--kernel with --kernel-tree is refused (127)"
FAKE_QEMU_OUTCOME=hang FAKE_QEMU_PIDFILE=$tmp/qemu.pid WBERR_QEMU=$here/fake-qemu WBERR_ACCEL=tcg \
	"$top/harness/run-guest" --kernel-tree "$tmp/tree" --image "$tmp/image.cpio" \
	--results "$tmp/results" --name selftest --cmd true --timeout 60 > "$tmp/out" 2>&1 &
rg=$!
for _ in $(seq 100); do [ -s "$tmp/qemu.pid" ] && break; sleep 0.1; done
kill -TERM "$rg"; wait "$rg"
status=$?
check "$status/$(grep -c 'error: terminated (SIGTERM), step .boot (cmd).; log: .*console.log' "$tmp/out")" 143/1 \
	"run-guest stopped by SIGTERM says so, in which step, with the console log"
for _ in $(seq 50); do kill -0 "$(cat "$tmp/qemu.pid")" 2>/dev/null || break; sleep 0.1; done
check "$(kill -0 "$(cat "$tmp/qemu.pid")" 2>/dev/null && echo running || echo gone)" gone \
	"run-guest stopped by SIGTERM stops its QEMU"
# make shell (--interactive): the shell's exit status, passed through
# WBERR-EXIT as in the other modes, not QEMU's 33 for the guest's normal
# power-off; a real failure is one, with the other modes' message.
verdict() { tail -n 1 "$tmp/out" | sed -e 's/ in [0-9.]*s,/ in Ns,/' -e 's/; console: .*//'; }
run exit-0 --interactive
check "$status/$(grep -c 'mode=shell .*timeout=none' "$tmp/out")" 0/1 \
	"--interactive: a clean exit from the shell returns 0, not QEMU's 33 (make shell's 'Error 33'); no time limit"
check "$(qemu_cmdline | grep -c -- "-chardev stdio,id=con,mux=on,signal=off,logfile=[^ ]*/selftest-[^ ]*\.console\.log -serial chardev:con -mon chardev=con,mode=readline")" 1 \
	"--interactive: the terminal is console and monitor, and QEMU logs the console for the checks"
run exit-3 --interactive; check "$status/$(verdict)" "3/[guest] exited in Ns, status 3" "--interactive: the shell's own exit status is returned"
run oops --interactive; check "$status/$(grep -c 'BUG: kernel NULL pointer' "$tmp/out")" 126/1 \
	"--interactive: an oops on the console fails a clean exit (126), and is shown"
for o in panic no-start; do
	run $o --cmd true; want="$status/$(verdict)"
	run $o --interactive; check "$status/$(verdict)" "$want" "--interactive: $o is the same failure, with the same message, as with --cmd ($want)"
done
start=$(date +%s)
run hang --interactive --timeout 3
check "$status/$(grep -c 'TIMEOUT after 3s' "$tmp/out")/$([ $(( $(date +%s) - start )) -lt 20 ] && echo fast)" 124/1/fast \
	"--interactive --timeout 3: a hung guest is killed at the timeout, 124, as in the other modes"
# --templates DIR: the kernel's templates go into the payload, the ones
# the guest made come back into DIR/<kernel>/ and not into the results;
# of the kernels' directories the 4 used last stay.
tpl=$tmp/tpl
mkdir -p "$tpl/old1" "$tpl/old2" "$tpl/old3" "$tpl/old4" "$tpl/old5"
touch -d '2 days ago' "$tpl/old1"; touch -d '30 hours ago' "$tpl/old5"
touch -d '24 hours ago' "$tpl/old2"; touch -d '20 hours ago' "$tpl/old3"; touch -d '10 hours ago' "$tpl/old4"
export FAKE_QEMU_PAYLOAD_LIST=$tmp/payload-list
rm -rf "$tmp/results"
run templates --cmd true --templates "$tpl"
kdir=$tpl/$(stat -L -c '%s-%Y' "$tmp/tree/vmlinux")
check "$status/$(cat "$kdir/new.fst" 2>/dev/null)/$(ls "$tmp/results/fs-templates" 2>&1 | grep -c 'No such')" "0/new/1" \
	"--templates: a template the guest made lands in DIR/<kernel>/, not in the results"
check "$(grep -c '^./fs-templates/$' "$tmp/payload-list")/$(grep -c '\.fst$' "$tmp/payload-list")" "1/0" \
	"--templates: the first boot's payload has an empty fs-templates/"
run templates --cmd true --templates "$tpl"
check "$(grep '\.fst$' "$tmp/payload-list")" "./fs-templates/new.fst" "--templates: the next boot's payload has the kept template"
check "$(cd "$tpl" && ls -d */ | tr -d / | tr '\n' ' ')" "$(basename "$kdir") old2 old3 old4 " \
	"--templates: the kernel directories used last stay (4), the older go"
unset FAKE_QEMU_PAYLOAD_LIST
out=$("$top/harness/report.sh" "$tmp/no-such-dir" 2>&1); status=$?
check "$status/$(echo "$out" | tail -n 1)" "1/0 passed, 1 failed" \
	"report.sh without results fails, and its last line is still the totals"
tap_end
