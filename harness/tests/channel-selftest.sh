#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# docs/architecture.md's two tables of the host-guest channel, held to the
# code as lib/c/tests/test_meta.c holds meta.txt's keys: the host-to-guest
# table (payload files, wberr_* command-line keys, disk serials, WBERR_*
# variables) names exactly what the writers write and the guest reads,
# and the results table names exactly the manifest kinds the writers can
# list and the readers ask for.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
doc=$top/docs/architecture.md
cd "$top" || exit 1
tests=$(ls tests/*/[0-9][0-9][0-9])

set_of() { sort -u | tr '\n' ' '; }	# stdin words -> one sorted line
# doc_names CHANNEL: the names of the host-to-guest table's rows of it
doc_names() { sed -n "s/^| $1 | \`\([^\`]*\)\` |.*/\1/p" "$doc" | set_of; }
# the results table: its rows of a kind, as "kind|path cell"
results_rows() {
	sed -n '/^## results\//,/^## /p' "$doc" | sed -n 's/^| `\([a-z][a-z/-]*\)` | \([^|]*\) |.*/\1|\2/p'
}

tap_begin
# -- host to guest ----------------------------------------------------------
# and the files the Makefile hands over itself (--payload $(VAR), VAR := .../NAME)
makefile_payloads() {
	for v in $(grep -ohE -- '--payload \$\([A-Z_]+\)([[:space:])]|$)' Makefile | sed -E 's/.*\(//; s/\).*//' | sort -u); do
		sed -nE "s|^$v[[:space:]]*:?=.*/([^/[:space:]]+)$|\1|p" Makefile
	done
}
written=$({ grep -oE '"\$work/payload/[^"/]+"' harness/run-guest | sed 's|.*/||; s|"$||'
	    grep -oE '"\$out/[^"/]+' harness/run-payload.sh | sed 's|.*/||'; makefile_payloads; } | set_of)
read=$(grep -ohE '/payload/[A-Za-z0-9._-]+' harness/guest/init $tests | sed 's|.*/||' | set_of)
tap_is "$written" "$read" "payload: the files run-guest and run-payload.sh write are the ones init and the tests read"
tap_is "$(doc_names payload)" "$read" "payload: the table lists exactly those"

read=$(grep -ohE 'wberr_cmdline wberr_[a-z_]+' harness/guest/* $tests | cut -d' ' -f2 | set_of)
tap_is "$(doc_names cmdline)" "$read" "cmdline: the table lists exactly the wberr_* keys the guest reads ($(echo $read | wc -w))"
appended=$(grep -ohE 'wberr_[a-z_]+=' Makefile harness/run-guest harness/bench.sh | tr -d = | set_of)
unread=$(for k in $appended; do case " $read " in *" $k "*) ;; *) echo "$k" ;; esac; done)
tap_is "${appended:+x}|$unread" "x|" "cmdline: every key the host appends ($appended) is one the guest reads"

written=$(grep -oE 'serial=wberr-[a-z]+' harness/run-guest | sed 's/serial=//' | set_of)
read=$(grep -oE '^[[:space:]]*wberr-[a-z]+' harness/guest/init | sed 's/^[[:space:]]*//' | set_of)
tap_is "$written" "$read" "serial: the disks run-guest attaches are the ones init looks for"
tap_is "$(doc_names serial | sed 's/<i>//g')" "$read" "serial: the table lists exactly those"

vars=$(grep -ohE 'WBERR_[A-Z_]+' harness/guest/init harness/guest/run-suites harness/guest/lib.sh | set_of)
tap_is "$(doc_names variable)" "$vars" "variable: the table lists exactly the WBERR_* variables init, run-suites and lib.sh set or read ($(echo $vars | wc -w))"

# -- results/ ---------------------------------------------------------------
table=$(results_rows | cut -d'|' -f1 | set_of)
classified=$(grep -v '^#' harness/guest/artifacts | awk 'NF >= 2 && $2 != "each" && $2 != "none" { print $2 }' | set_of)
named=$(grep -ohE 'manifest_add [^ ]+ [a-z][a-z/-]*' harness/guest/init harness/guest/run-suites harness/run-guest \
	harness/tests/run-host-tests.sh harness/merge-shards.sh lib/sh/manifest.sh Makefile | awk '{ print $3 }' | set_of)
tap_is "$table" "$(echo $classified $named | tr ' ' '\n' | set_of)" \
	"results: the table lists exactly the kinds harness/guest/artifacts and the writers' manifest_add calls list"
missing=$(grep -v '^#' harness/guest/artifacts | awk 'NF >= 2 && $2 != "each" && $2 != "none"' | while read -r pat kind; do
	results_rows | grep "^$kind|" | grep -qF "\`$pat\`" || echo "$kind $pat"
done)
tap_is "$missing" "" "results: each kind's row shows the pattern harness/guest/artifacts gives it"
asked=$({ grep -oE "listed '?[a-z][a-z/*-]*|detail \"[^\"]*\" [a-z][a-z/-]*" harness/report.sh | awk '{ print $NF }'
	  grep -oE "manifest_(lines|paths) [^ ]+ '?[a-z][a-z/*-]*" harness/merge-shards.sh Makefile | awk '{ print $3 }'
	  grep -oE 'kind (==|\.startswith\() ?"[a-z][a-z/-]*' harness/compare.py harness/manifest.py | sed 's/.*"//'
	  grep -oE 'paths\("[a-z][a-z/*-]*' harness/page.py | sed 's/.*"//'; } | tr -d "'" | set_of)
unknown=$(for k in $asked; do
	case "$k" in */|*/\*) echo " $table" | grep -q " ${k%\*}" ;; *) case " $table" in *" $k "*) ;; *) false ;; esac ;; esac ||
		echo "$k"
done)
tap_is "${asked:+x}|$unknown" "x|" "results: every kind report.sh, merge-shards.sh, compare.py, manifest.py, page.py and the Makefile ask for is a row ($asked)"
tap_done
