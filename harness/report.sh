#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Total every TAP file a results directory's manifest lists, write
# junit.xml beside them, and end with the line CI reads: `N passed, N
# failed, N skipped`.
#
#   report.sh [--summary] RESULTS_DIR
#
# It also writes index.html, the results page (harness/page.py).
# --summary prints the page's path first, then the scenario runner's
# summary.txt and the paths of the detailed tables (errno-fidelity.md, content-after-failure.md, TAP,
# JUnit, console logs).  Exit status 0 only when nothing failed and at
# least one test passed: an empty run is a failure.  What is there comes
# from RESULTS_DIR/manifest.txt (lib/sh/manifest.sh), a TAP line's meaning
# from lib/sh/tap.awk.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/lib/sh/errtrap.sh"
. "$top/lib/sh/manifest.sh"
errtrap_init report

summary=0
[ "${1:-}" = --summary ] && { summary=1; shift; }
dir=${1:?usage: report.sh [--summary] RESULTS_DIR}
[ -d "$dir" ] || { echo "report: no results directory $dir"; echo "0 passed, 1 failed"; errtrap_exit 1; }

# in the order a glob of *.tap gave them: each suite's line keeps its place
listed() {	# $1... kinds -> their paths in RESULTS_DIR, sorted
	manifest_paths "$dir" "$@" | while IFS= read -r p; do printf '%s\n' "$dir/$p"; done | sort
}
mapfile -t taps < <(listed 'tap/*')
junit=$dir/junit.xml

# One awk pass over all files: top-level result lines only (subtests are
# indented), a `# SKIP` directive counts as skipped, and a plan that promised
# more results than arrived counts the missing ones as failed.  A file the
# manifest lists that is empty or missing has no results: a failure.
empties= full=()
for t in "${taps[@]+"${taps[@]}"}"; do
	if [ -s "$t" ]; then full+=("$t"); else empties+="$t"$'\n'; fi
done
awk -v junit="$junit" -v empties="$empties" "$(cat "$top/lib/sh/tap.awk")"'
function xml(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); gsub(/[\001-\010\013\014\016-\037]/, "", s); return s }
function finish_file(   missing, k) {
	if (file == "") return
	missing = plan - (fp + ff + fs)
	if (plan > 0 && missing > 0) {
		ff += missing
		bad[++nbad] = suite ": plan 1.." plan " but only " (fp + ff + fs - missing) " results (crashed or aborted?)"
		cases[suite, ++ncase[suite]] = "F\tmissing results\t" missing " planned tests never reported"
	}
	if (fp + ff + fs == 0) {
		ff++; bad[++nbad] = suite ": no test results at all"
		cases[suite, ++ncase[suite]] = "F\tno results\tthe TAP file holds no result line"
	}
	printf "  %-28s %4d passed, %d failed, %d skipped\n", suite, fp, ff, fs
	P += fp; F += ff; S += fs
	suites[++nsuites] = suite; sp[suite] = fp; sf[suite] = ff; ss[suite] = fs
}
FNR == 1 { finish_file(); file = FILENAME; suite = FILENAME; sub(/.*\//, "", suite); sub(/\.tap$/, "", suite); fp = ff = fs = 0; plan = 0; ncase[suite] = 0; diag = 0 }
# What follows a failed result (its YAML block, "# " diagnostics) is the
# JUnit failure text: a CI page then shows why without the TAP file.  A
# block that never closes ends at the first line that is not indented.
diag == 2 && /^  / { if ($0 == "  ...") diag = 0; else body[suite, ncase[suite]] = body[suite, ncase[suite]] $0 "\n"; next }
diag == 1 && $0 == "  ---" { diag = 2; next }
diag == 1 && /^# / && !/^# Subtest/ { body[suite, ncase[suite]] = body[suite, ncase[suite]] $0 "\n"; next }
{ diag = 0; kind = tap_read($0) }
kind == "plan" { plan = tap_plan }
kind == "result" {
	if (tap_skip) { fs++; cases[suite, ++ncase[suite]] = "S\t" tap_desc "\t" tap_dir }
	else if (!tap_ok) { ff++; bad[++nbad] = suite ": " $0; cases[suite, ++ncase[suite]] = "F\t" tap_desc "\t" tap_dir; diag = 1 }
	else { fp++; cases[suite, ++ncase[suite]] = "P\t" tap_desc "\t" }
}
END {
	finish_file()
	# awk never sees a file without lines: a suite that printed nothing
	n = split(empties, e, "\n")
	for (k = 1; k <= n; k++) if (e[k] != "") {
		file = e[k]; suite = e[k]; sub(/.*\//, "", suite); sub(/\.tap$/, "", suite)
		fp = ff = fs = 0; plan = 0; ncase[suite] = 0
		finish_file()
	}
	if (nbad > 0) { print "failures:"; for (i = 1; i <= nbad && i <= 60; i++) print "  " bad[i]; if (nbad > 60) print "  ... and " nbad - 60 " more" }
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", P + F + S, F, S > junit
	for (i = 1; i <= nsuites; i++) {
		s = suites[i]
		printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", xml(s), sp[s] + sf[s] + ss[s], sf[s], ss[s] > junit
		for (j = 1; j <= ncase[s]; j++) {
			split(cases[s, j], c, "\t")
			printf "    <testcase classname=\"wberr.%s\" name=\"%s\"", xml(s), xml(c[2]) > junit
			if (c[1] == "P") printf "/>\n" > junit
			else if (c[1] == "S") printf "><skipped message=\"%s\"/></testcase>\n", xml(c[3]) > junit
			else printf "><failure message=\"%s\">%s</failure></testcase>\n", xml(c[2] (c[3] != "" ? " # " c[3] : "")), xml(body[s, j]) > junit
		}
		printf "  </testsuite>\n" > junit
	}
	printf "</testsuites>\n" > junit
	printf "%d %d %d\n", P, F, S > "/dev/stderr"
}' "${full[@]+"${full[@]}"}" 2> "$dir/.totals"

read -r passed failed skipped < "$dir/.totals" || { passed=0; failed=0; skipped=0; }
rm -f "$dir/.totals"
if [ "${#taps[@]}" -eq 0 ]; then
	if [ -f "$dir/manifest.txt" ]; then echo "report: no TAP files in $dir"
	else echo "report: no manifest.txt in $dir, which lists the TAP files (lib/sh/manifest.sh)"; fi
	failed=$((failed + 1))
fi

# The results page (harness/page.py): everything above and the run's own
# tables and timelines, from the manifest (none without one: said above);
# a page that cannot be made is said, not a failed run.
page=
if [ -f "$dir/manifest.txt" ]; then
	if python3 "$top/harness/page.py" "$dir" > /dev/null 2> "$dir/.page.err"; then
		page=$dir/index.html
	else
		echo "report: no results page: $(tail -n 3 "$dir/.page.err")"
	fi
	rm -f "$dir/.page.err"
fi

if [ "$summary" = 1 ]; then
	# The page first, then wberr-run's summary (kernel, what was tried,
	# violations), then where the long tables are rather than the tables
	# themselves.
	echo
	[ -z "$page" ] || echo "Results page: $page"
	echo
	summary_txt=$(listed summary | head -n 1)
	if [ -n "$summary_txt" ]; then
		cat "$summary_txt"
	else
		echo "No summary.txt: the scenario suite did not finish (see the console log)."
	fi
	echo
	echo "Details:"
	detail() {	# $1 label, $2 kind: the first path of that kind, if any
		local p
		p=$(listed "$2" | head -n 1)
		[ -z "$p" ] || printf '  %-22s %s\n' "$1" "$p"
	}
	detail "errno per BLK_STS_*" fidelity-md
	detail "errno per real driver" backends-fidelity-md
	detail "content after failure" content-md
	if [ -n "$(listed program)" ]; then
		printf '  %-22s %s\n' "programs (timelines)" "$dir/programs/<instance>/timeline.txt"
	fi
	label="TAP, one per suite"
	for t in "${taps[@]+"${taps[@]}"}"; do printf '  %-22s %s\n' "$label" "$t"; label=; done
	printf '  %-22s %s\n' "JUnit" "$junit"
	listed log/console | while IFS= read -r c; do printf '  %-22s %s\n' "console log" "$c"; done
	echo
fi
echo "results: ${dir}/ (${page:+index.html, }TAP, junit.xml, console logs)"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
# The totals line above explains a failure; it must stay the last line.
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] && exit 0
errtrap_exit 1
