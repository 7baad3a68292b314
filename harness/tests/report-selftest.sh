#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host checks of harness/report.sh, the one place that totals TAP and writes
# JUnit: counts (skips, missing results, an empty file), the last line CI
# reads, and a junit.xml that parses and carries each failure's diagnostics;
# the TAP files are the ones the results manifest lists; the results page
# written and named first by --summary; merge-shards.sh,
# which makes one report of make test SHARD=I/N's N.
# TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
. "$top/lib/sh/manifest.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin 23
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
for t in alpha beta gamma; do manifest_add "$tmp/r" tap/group $t.tap $t run; done
"$top/harness/report.sh" "$tmp/r" > "$tmp/out" 2>&1
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
# The manifest says which files are TAP to total, not their names.
mkdir -p "$tmp/m1"
printf 'TAP version 14\nok 1 - listed\n1..1\n' > "$tmp/m1/listed.tap"
printf 'TAP version 14\nnot ok 1 - not the run'"'"'s\n1..1\n' > "$tmp/m1/stray.tap"
manifest_add "$tmp/m1" tap/host listed.tap - host
"$top/harness/report.sh" "$tmp/m1" > "$tmp/out" 2>&1
check "$? $(tail -n 1 "$tmp/out")" "0 1 passed, 0 failed" "a TAP file the manifest does not list is not counted"
manifest_add "$tmp/m1" tap/group gone.tap gone run
"$top/harness/report.sh" "$tmp/m1" > "$tmp/out" 2>&1
check "$? $(grep -c '^  gone: no test results at all' "$tmp/out") $(tail -n 1 "$tmp/out")" "1 1 1 passed, 1 failed" \
	"a TAP file the manifest lists that is missing counts as failed, and says so"
manifest_add "$tmp/m1" log/console console-run.log - run
manifest_add "$tmp/m1" summary summary.txt scenarios/001 run
manifest_add "$tmp/m1" backends-fidelity-md errno-fidelity-backends.md scenarios/001 run
echo "Kernel: fake" > "$tmp/m1/summary.txt"
: > "$tmp/m1/console-run.log"; : > "$tmp/m1/console-stray.log"; : > "$tmp/m1/errno-fidelity.md"
: > "$tmp/m1/errno-fidelity-backends.md"
"$top/harness/report.sh" --summary "$tmp/m1" > "$tmp/out" 2>&1
check "$(sed -n '/^Kernel/p; /^  [A-Za-z]/s| /.*/| DIR/|p' "$tmp/out")" "Kernel: fake
  errno per real driver  DIR/errno-fidelity-backends.md
  TAP, one per suite     DIR/gone.tap
  JUnit                  DIR/junit.xml
  console log            DIR/console-run.log" \
	"--summary: the summary, TAP files and console logs the manifest lists, not the files it does not"
check "$(sed -n '/^Results page/,$p' "$tmp/out" | sed -n '1s| /.*/| DIR/|p; 3p' | tr '\n' '|')$(grep -c 'id="summary"' "$tmp/m1/index.html")" \
	"Results page: DIR/index.html|Kernel: fake|1" \
	"report.sh writes index.html (harness/page.py), and --summary points to it first"
rm -f "$tmp/r"/*.tap "$tmp/r/manifest.txt"
"$top/harness/report.sh" "$tmp/r" > "$tmp/out" 2>&1
check "$? $(grep -c 'no manifest.txt in' "$tmp/out") $(tail -n 1 "$tmp/out")" "1 1 0 passed, 1 failed" \
	"no manifest is a failure that says so, and still ends with the totals"
manifest_add "$tmp/r" log/console console-run.log - run
"$top/harness/report.sh" "$tmp/r" > "$tmp/out" 2>&1
check "$? $(tail -n 1 "$tmp/out")" "1 0 passed, 1 failed" "no TAP at all is a failure, and still ends with the totals"
# merge-shards.sh: N shard directories, one report; a set that is not
# exactly shards 1..N of one N is refused before anything is written.
mkdir -p "$tmp/s1" "$tmp/s2" "$tmp/s3"
echo 1/2 > "$tmp/s1/shard"; echo 2/2 > "$tmp/s2/shard"; echo 2/3 > "$tmp/s3/shard"
printf 'TAP version 14\nok 1 - a\nok 2 - b # SKIP no xfs\n1..2\n' > "$tmp/s1/scenarios.tap"
printf 'TAP version 14\nok 1 - h\n1..1\n' > "$tmp/s1/host-lib.tap"
printf 'TAP version 14\nok 1 - c\nnot ok 2 - d\n1..2\n' > "$tmp/s2/scenarios.tap"
printf 'TAP version 14\nnot ok 1 - stray\n1..1\n' > "$tmp/s2/stray.tap"
echo console > "$tmp/s2/console-suites.log"
manifest_add "$tmp/s1" tap/group scenarios.tap scenarios suites
manifest_add "$tmp/s1" tap/host host-lib.tap - host
manifest_add "$tmp/s2" tap/group scenarios.tap scenarios suites
manifest_add "$tmp/s2" log/console console-suites.log - suites
manifest_add "$tmp/s3" tap/group scenarios.tap scenarios suites
"$top/harness/merge-shards.sh" "$tmp/m" "$tmp/s2" "$tmp/s1" > "$tmp/out" 2>&1
check "$?|$(tail -n 1 "$tmp/out")|$(cd "$tmp/m" && ls *.tap | tr '\n' ' ')" \
	"1|3 passed, 1 failed, 1 skipped|host-lib.shard-1.tap scenarios.shard-1.tap scenarios.shard-2.tap " \
	"merge-shards: every shard's TAP files its manifest lists, named by shard, totalled as one run (the failure makes it fail)"
check "$(cat "$tmp/m/shard-2/console-suites.log")" console "each shard's other files kept under shard-I/"
check "$(grep -v '^#' "$tmp/m/manifest.txt" | sort | tr '\n' '|')" \
	"shard-dir shard-1 - -|shard-dir shard-2 - -|tap/group scenarios.shard-1.tap scenarios suites|tap/group scenarios.shard-2.tap scenarios suites|tap/host host-lib.shard-1.tap - host|" \
	"the merged manifest: each shard's directory, and its TAP files by their new names with their kinds, suites and boots"
check "$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get("tests"), r.get("failures"), len(r.findall("testsuite")))' "$tmp/m/junit.xml" 2>&1)" \
	"5 1 3" "one junit.xml over the shards"
merge_refused() {	# $1 expected message, $2 description, $3... directories
	local want=$1 what=$2
	shift 2
	rm -rf "$tmp/m2"
	"$top/harness/merge-shards.sh" "$tmp/m2" "$@" > "$tmp/out" 2>&1
	check "$?|$(grep -o 'error: .*' "$tmp/out")|$([ -e "$tmp/m2" ] && echo written)" "1|error: $want|" "$what"
}
merge_refused "missing shard(s): 2/2" "a missing shard is refused, nothing written" "$tmp/s1"
merge_refused "shard 1/2 given twice (again in $tmp/s1)" "a shard given twice is refused" "$tmp/s1" "$tmp/s1" "$tmp/s2"
merge_refused "$tmp/s3 is shard 2/3, the others are of 2" "shards of different N are refused" "$tmp/s1" "$tmp/s2" "$tmp/s3"
rm "$tmp/s2/manifest.txt"
merge_refused "$tmp/s2 has no manifest.txt: not the results of make test SHARD=I/N" "a shard without a manifest is refused" "$tmp/s1" "$tmp/s2"
tap_end
