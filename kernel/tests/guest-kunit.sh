#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# KUnit suites of the kernel/patches series, run in the guest: load each
# KUnit module from $WBERR_MODDIR (the tests run at load time), read the
# suite's KTAP from debugfs (or the kernel log), and re-emit every KUnit
# case as one TAP 14 result so the totals count cases, not modules.
#
# WBERR_KUNIT_MODULES overrides the list (module names without .ko).

modules=${WBERR_KUNIT_MODULES:-errseq_kunit}
moddir=${WBERR_MODDIR:-/opt/wberr/modules}
kunit_dbg=/sys/kernel/debug/kunit
work=/tmp/guest-kunit
mkdir -p "$work"
: > "$work/results"

emit() {	# $1: ok|not ok, $2: description, $3: directive (optional)
	echo "$1 - $2${3:+ # $3}" >> "$work/results"
}

# The case lines of one suite's KTAP: "    ok N name [# SKIP ...]", one
# indent deep (deeper lines are parameterised sub-cases, counted by their
# parent).  Everything else (failure diagnostics, the expected and actual
# values, totals) goes to stderr so the log says why a case failed.
ktap_cases() {	# $1: suite name, $2: KTAP file
	grep -vE '^ *(ok [0-9]|KTAP version|1\.\.[0-9]|# Subtest:)' "$2" >&2
	awk -v suite="$1" '
		/^    (not )?ok [0-9]+ / {
			line = substr($0, 5)
			notok = (line ~ /^not ok/)
			sub(/^(not )?ok [0-9]+ /, "", line)
			dir = ""
			if (match(line, / # /)) {
				dir = substr(line, RSTART + 3)
				line = substr(line, 1, RSTART - 1)
			}
			printf "%s\t%s: %s\t%s\n", notok ? "not ok" : "ok", suite, line, dir
		}' "$2"
}

for m in $modules; do
	ko=$moddir/$m.ko
	if [ ! -f "$ko" ]; then
		emit ok "$m: module present" "SKIP $ko not built (CONFIG for $m not set in this kernel)"
		continue
	fi
	if grep -q "^$m " /proc/modules; then
		rmmod "$m" 2>/dev/null
	fi
	before=$(ls "$kunit_dbg" 2>/dev/null)
	dmesg > "$work/$m.dmesg.before"
	if ! insmod "$ko" 2> "$work/$m.insmod"; then
		cat "$work/$m.insmod" >&2
		emit "not ok" "$m: insmod" ""
		continue
	fi
	dmesg > "$work/$m.dmesg.after"
	# Suites this module registered: new debugfs directories.
	suites=
	for d in $(ls "$kunit_dbg" 2>/dev/null); do
		echo "$before" | grep -qx "$d" || suites="$suites $d"
	done
	ncases=0
	if [ -n "$suites" ]; then
		for s in $suites; do
			cp "$kunit_dbg/$s/results" "$work/$s.ktap"
			cp "$work/$s.ktap" "${WBERR_RESULTS:-/tmp}/kunit-$s.ktap" 2>/dev/null
			ktap_cases "$s" "$work/$s.ktap" > "$work/$s.cases"
			n=$(wc -l < "$work/$s.cases")
			ncases=$((ncases + n))
			# A suite with no case lines ran nothing: a failure, not a pass.
			[ "$n" -gt 0 ] || emit "not ok" "$s: suite reported no cases" ""
			while IFS='	' read -r res desc dir; do
				emit "$res" "$desc" "$dir"
			done < "$work/$s.cases"
		done
	else
		# No debugfs: take the KTAP the module printed to the kernel log.
		diff "$work/$m.dmesg.before" "$work/$m.dmesg.after" | sed -n 's/^+//p' |
			sed 's/^\[[ 0-9.]*\] //' > "$work/$m.ktap"
		cp "$work/$m.ktap" "${WBERR_RESULTS:-/tmp}/kunit-$m.ktap" 2>/dev/null
		s=$(sed -n 's/^    # Subtest: //p' "$work/$m.ktap" | head -n 1)
		ktap_cases "${s:-$m}" "$work/$m.ktap" > "$work/$m.cases"
		ncases=$(wc -l < "$work/$m.cases")
		while IFS='	' read -r res desc dir; do
			emit "$res" "$desc" "$dir"
		done < "$work/$m.cases"
	fi
	[ "$ncases" -gt 0 ] || emit "not ok" "$m: no KUnit results found (kunit.enable=0?)" ""
	rmmod "$m" 2> "$work/$m.rmmod" || { cat "$work/$m.rmmod" >&2; emit "not ok" "$m: rmmod" ""; }
done

n=$(wc -l < "$work/results")
echo "TAP version 14"
echo "1..$n"
i=0
failed=0
while IFS= read -r line; do
	i=$((i + 1))
	case "$line" in
	"not ok"*) failed=$((failed + 1)); echo "not ok $i ${line#not ok }" ;;
	*) echo "ok $i ${line#ok }" ;;
	esac
done < "$work/results"
[ "$failed" -eq 0 ]
