#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host checks of qemu/report.sh, the one place that totals TAP and writes
# JUnit: counts (skips, missing results, an empty file), the last line CI
# reads, and a junit.xml that parses and carries each failure's diagnostics;
# merge-shards.sh, which makes one report of make test SHARD=I/N's N.
# TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin 16
check() {	# $1 observed, $2 expected, $3 description; the output on failure
	tap_is "$1" "$2" "$3" || sed 's/^/# /' "$tmp/out"
}

mkdir -p "$tmp/r"
cat > "$tmp/r/alpha.tap" <<'TAP'
TAP version 14
1..4
ok 1 - first
not ok 2 - ext4/x[ioerr] # 3 sync results checked
  ---
  message: "fd b: fsync returned 0, the model expected EIO <&>"
  steps:
    - "FAIL 7 fsync b -> 0"
  ...
ok 3 - skipped one # SKIP no btrfs
# Subtest: nested
    ok 1 - inner
    1..1
ok 4 - nested
TAP
cat > "$tmp/r/beta.tap" <<'TAP'
TAP version 14
1..5
ok 1 - only one of three
not ok 2 - with a diagnostic
# got 'x', wanted 'y'
not ok 3 - a block that never closes
  ---
ok 4 - skipped after it # SKIP counted all the same
TAP
: > "$tmp/r/gamma.tap"
"$top/qemu/report.sh" "$tmp/r" > "$tmp/out" 2>&1
status=$?
check "$(tail -n 1 "$tmp/out")" "3 passed, 5 failed, 2 skipped" \
	"totals: skips, a missing result (plan 5, 4 reported), an empty file and a result after an unclosed YAML block all count"
check "$status" 1 "a failure makes the exit status 1"
py() { python3 -c "$1" "$tmp/r/junit.xml" 2>&1; }
check "$(py 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get("tests"), r.get("failures"), r.get("skipped"))')" \
	"10 5 2" "junit.xml parses and has the same totals"
check "$(py 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(len(r.findall("testsuite")))')" 3 \
	"one testsuite per TAP file"
fail_text() {	# $1 testcase name -> its failure text
	py "import sys, xml.etree.ElementTree as E
for c in E.parse(sys.argv[1]).getroot().iter('testcase'):
    if c.get('name') == '$1':
        f = c.find('failure'); print(f.text or '' if f is not None else 'PASSED', end='')"
}
check "$(fail_text 'ext4/x[ioerr]')" \
	$'  message: "fd b: fsync returned 0, the model expected EIO <&>"\n  steps:\n    - "FAIL 7 fsync b -> 0"' \
	"a failure's YAML block is its JUnit failure text, escaped and parsed back intact"
check "$(fail_text 'with a diagnostic')" "# got 'x', wanted 'y'" "a failure's # diagnostics are its JUnit failure text"
check "$(fail_text 'first')" PASSED "a passing case has no failure element"
check "$(fail_text 'nested')" PASSED "subtest lines are not charged to the failure before them"
check "$(py 'import sys, xml.etree.ElementTree as E; print(sorted(c.get("name") for c in E.parse(sys.argv[1]).getroot().iter("testcase") if c.find("skipped") is not None))')" \
	"['skipped after it', 'skipped one']" "a SKIP directive is a skipped testcase"
rm -f "$tmp/r"/*.tap
"$top/qemu/report.sh" "$tmp/r" > "$tmp/out" 2>&1
check "$? $(tail -n 1 "$tmp/out")" "1 0 passed, 1 failed" "no TAP at all is a failure, and still ends with the totals"
# merge-shards.sh: N shard directories, one report; a set that is not
# exactly shards 1..N of one N is refused before anything is written.
mkdir -p "$tmp/s1" "$tmp/s2" "$tmp/s3"
echo 1/2 > "$tmp/s1/shard"; echo 2/2 > "$tmp/s2/shard"; echo 2/3 > "$tmp/s3/shard"
printf 'TAP version 14\nok 1 - a\nok 2 - b # SKIP no xfs\n1..2\n' > "$tmp/s1/scenarios.tap"
printf 'TAP version 14\nok 1 - h\n1..1\n' > "$tmp/s1/host-lib.tap"
printf 'TAP version 14\nok 1 - c\nnot ok 2 - d\n1..2\n' > "$tmp/s2/scenarios.tap"
echo console > "$tmp/s2/console-suites.log"
"$top/qemu/merge-shards.sh" "$tmp/m" "$tmp/s2" "$tmp/s1" > "$tmp/out" 2>&1
check "$?|$(tail -n 1 "$tmp/out")|$(cd "$tmp/m" && ls *.tap | tr '\n' ' ')" \
	"1|3 passed, 1 failed, 1 skipped|host-lib.shard-1.tap scenarios.shard-1.tap scenarios.shard-2.tap " \
	"merge-shards: every shard's TAP files, named by shard, totalled as one run (the failure makes it fail)"
check "$(cat "$tmp/m/shard-2/console-suites.log")" console "each shard's other files kept under shard-I/"
check "$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get("tests"), r.get("failures"), len(r.findall("testsuite")))' "$tmp/m/junit.xml" 2>&1)" \
	"5 1 3" "one junit.xml over the shards"
merge_refused() {	# $1 expected message, $2 description, $3... directories
	local want=$1 what=$2
	shift 2
	rm -rf "$tmp/m2"
	"$top/qemu/merge-shards.sh" "$tmp/m2" "$@" > "$tmp/out" 2>&1
	check "$?|$(grep -o 'error: .*' "$tmp/out")|$([ -e "$tmp/m2" ] && echo written)" "1|error: $want|" "$what"
}
merge_refused "missing shard(s): 2/2" "a missing shard is refused, nothing written" "$tmp/s1"
merge_refused "shard 1/2 given twice (again in $tmp/s1)" "a shard given twice is refused" "$tmp/s1" "$tmp/s1" "$tmp/s2"
merge_refused "$tmp/s3 is shard 2/3, the others are of 2" "shards of different N are refused" "$tmp/s1" "$tmp/s2" "$tmp/s3"
tap_end
