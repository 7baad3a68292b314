#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host checks of the one TAP reader (lib/sh/tap.awk) under every awk at
# hand (mawk, busybox's, gawk when installed) and of the one result-stream
# reader (harness/stream-read) on a stream with every kind of line: the live
# progress run-guest shows, the verdict it takes, the TAP it rebuilds, the
# times bench.sh reads.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read_stream() { "$top/harness/stream-read" "$@" 2>&1; }

tap_begin
# A line, and what tap_read says of it: kind|ok|skip|desc|dir|plan
cat > "$tmp/lines" <<'X'
ok 1 - first
not ok 2 - ext4/x[ioerr] # 3 sync results checked
ok 3 - skipped one # SKIP no btrfs
not ok 4 - x # skip lower case
ok
not ok
ok 7 no dash
ok - unnumbered
okay 8 - not a result
    ok 1 - an indented subtest
# ok a diagnostic
TAP version 14
1..5
1..0 # SKIP nothing to do
X
want='result|1|0|first||
result|0|0|ext4/x[ioerr]|3 sync results checked|
result|1|1|skipped one|SKIP no btrfs|
result|0|1|x|skip lower case|
result|1|0|||
result|0|0|||
result|1|0|no dash||
result|1|0|unnumbered||
|||||
|||||
|||||
|||||
plan|||||5
plan|||||0'
prog='{ k = tap_read($0); if (k == "result") print k "|" tap_ok "|" tap_skip "|" tap_desc "|" tap_dir "|"
	else if (k == "plan") print k "|||||" tap_plan; else print "|||||" }'
for awk in mawk "busybox awk" gawk; do
	command -v "${awk%% *}" > /dev/null || continue
	$awk "$(cat "$top/lib/sh/tap.awk")
$prog" "$tmp/lines" > "$tmp/got" 2>&1
	tap_is "$(cat "$tmp/got")" "$want" "tap.awk under $awk: results (ok, not ok, SKIP in any case, bare ok), plans, and no result in anything else"
done

# A stream with every kind of line the guest writes (docs/architecture.md,
# "The guest-host protocol"), two suites, one a prefix of the other's name.
cat > "$tmp/stream" <<'X'
WBERR-BOOT uptime=3.28 kernel=6.12.118
WBERR-MODE suites disks=/dev/vdb /dev/vdc cpus=1 clocksource=tsc
WBERR-NOTE dm-wberr/016 wants 2 CPUs, the guest has 1: not run in this boot
WBERR-SUITES 2: g1 g10
WBERR-SUITE-START g1
WBERR-TEST-START g1/001
T g1 ok 1 - 001: a
T g1 not ok 2 - 001: b
T g1   ---
T g1   message: 'x'
T g1   ...
T g1 ok 3 - 001: c # SKIP no pmem
T g1 not ok 4 - 001: d # SKIP counted as not ok here, as ever
WBERR-TEST-END g1/001 rc=1 secs=0.5
T g1 1..4
WBERR-SUITE-END g1 rc=1 secs=0.6
WBERR-SUITE-START g10
T g10 ok 1 - 001: e
T g10 1..1
WBERR-SUITE-END g10 rc=0 secs=1.5 problem=kmemleak: 1 unreferenced objects
H ok 1 - g1/001: exit 0
WBERR-BENCH round 1 of 3
WBERR-ERROR something
O out line
E err line
a line of no kind
WBERR-EXIT 1
WBERR-EXIT 0
X
"$top/harness/stream-read" progress "$(date +%s)" < "$tmp/stream" > "$tmp/out" 2> "$tmp/err"
tap_is "$(sed 's/^\[guest\] [0-9]*s:/[guest] Ns:/' "$tmp/out")" "[guest] Ns: booted (WBERR-BOOT uptime=3.28 kernel=6.12.118)
[guest] Ns: note: dm-wberr/016 wants 2 CPUs, the guest has 1: not run in this boot
[guest] Ns: running 2 suite(s)
[guest] Ns: suite g1 ...
[guest]     not ok 2 - 001: b
[guest]     not ok 4 - 001: d # SKIP counted as not ok here, as ever
[guest] Ns: suite g1 done: 2 ok, 2 not ok (rc=1)
[guest] Ns: suite g10 ...
[guest] Ns: suite g10 done: 1 ok, 0 not ok (rc=0)
[guest] Ns: round 1 of 3
out line
[guest] Ns: exit status 1
[guest] Ns: exit status 0" \
	"progress: boot, notes, suites with their ok and not ok counts (an ok SKIP is ok), each not ok shown, bench lines, the command's stdout, every exit"
tap_is "$(cat "$tmp/err")" "err line" "progress: the command's stderr (E lines) on stderr"
tap_is "$(read_stream exit "$tmp/stream")|$(read_stream booted "$tmp/stream")" "0|1" "exit: the last WBERR-EXIT's status; booted: one boot"
head -n 3 "$tmp/stream" > "$tmp/crashed"
tap_is "$(read_stream exit "$tmp/crashed")|$(read_stream booted /dev/null)" "|0" "exit: nothing without a WBERR-EXIT; booted: 0 without a WBERR-BOOT"
tap_is "$(read_stream suites "$tmp/stream" | tr '\n' ' ')" "g1 g10 " "suites: the groups that started, in order"
tap_is "$(read_stream tap g1 "$tmp/stream")" "ok 1 - 001: a
not ok 2 - 001: b
  ---
  message: 'x'
  ...
ok 3 - 001: c # SKIP no pmem
not ok 4 - 001: d # SKIP counted as not ok here, as ever
1..4" "tap g1: the group's TAP as written, YAML block and plan included, nothing of g10"
printf 'T g.1 ok 1 - dot\nT gx1 ok 1 - not g.1\n' > "$tmp/dots"
tap_is "$(read_stream tap g.1 "$tmp/dots")" "ok 1 - dot" "tap: a suite name is a name, not a pattern"
tap_is "$(read_stream uptime "$tmp/stream")|$(read_stream suite-ends "$tmp/stream" | tr '\n' '|')" \
	"3.28|suite g1 rc=1 secs=0.6|suite g10 rc=0 secs=1.5|" "uptime and suite-ends: what bench.sh times"
read_stream tap g1 > /dev/null; rc1=$?
read_stream nosuch "$tmp/stream" > /dev/null; rc2=$?
tap_is "$rc1/$rc2/$(read_stream nosuch "$tmp/stream" | head -c 12)" "2/2/usage: strea" "a wrong mode or a missing argument is a usage error (2)"
tap_done
