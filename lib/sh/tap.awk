# SPDX-License-Identifier: GPL-2.0
# The one TAP reader on the way out of a run (POSIX awk: mawk, gawk,
# busybox): what one line of TAP says.  harness/report.sh totals TAP files
# with it; harness/stream-read reads the T lines of the guest's result stream
# with it (run-guest's progress and its TAP rebuild).  Load it with
# `awk -f lib/sh/tap.awk -f PROGRAM`.
#
#   tap_read(line)  "result", "plan", or "" for anything else (diagnostics,
#                   YAML blocks, indented subtests, "TAP version")
#     a result:     tap_ok     1 for ok, 0 for not ok
#                   tap_desc   the description, without number and dash
#                   tap_dir    the directive after " # ", or ""
#                   tap_skip   1 when the directive is SKIP (any case): a
#                              skip, whether the line says ok or not ok
#     a plan:       tap_plan   N of `1..N`
#
# Subtests are indented, so only top-level lines are results or plans.

function tap_read(line,    words) {
	if (line ~ /^1\.\.[0-9]+/) {
		split(line, words, " ")
		tap_plan = substr(words[1], 4) + 0
		return "plan"
	}
	if (line !~ /^(not )?ok( |$)/)
		return ""
	tap_ok = line !~ /^not ok/
	tap_desc = line
	sub(/^(not )?ok *[0-9]* *-? */, "", tap_desc)
	tap_dir = ""
	if (match(tap_desc, / # /)) {
		tap_dir = substr(tap_desc, RSTART + 3)
		tap_desc = substr(tap_desc, 1, RSTART - 1)
	}
	tap_skip = toupper(tap_dir) ~ /^SKIP/
	return "result"
}
