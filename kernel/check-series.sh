#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Check kernel/patches as mail, on the host (no kernel code runs):
#
#   kernel/check-series.sh SCRATCH_DIR
#
# 1. SCRATCH_DIR/linux-source-6.12: Debian's linux-source-6.12 as a git
#    tree, its one commit tagged "base" (made once, about a minute; the
#    package's .gitignore ignores the top level, hence add -f);
# 2. a branch "am" from base, and `git am` of every patch `series` lists,
#    the cover letter (no diff) left out;
# 3. scripts/checkpatch.pl --strict --no-signoff on each patch: the
#    placeholder author has no Signed-off-by until a person signs the
#    series off (0000-cover-letter.patch), which is the only check left
#    out.  UNKNOWN_COMMIT_ID is ignored too: the tree has no history, so
#    a Fixes: id cannot be looked up in it;
# 4. scripts/kernel-doc -Wall on every file a patch touches that it
#    parses (C sources and headers), at base and after the series: the
#    count must not grow.
#
# Prints one line per step and patch, and "series check: N problems"
# last; exits 1 if there is any.  Each patch builds on its own: see
# kernel/README.md ("Bisectable"), which builds in a copy of the cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/sh/errtrap.sh"
errtrap_init series

[ $# -eq 1 ] || die "usage: kernel/check-series.sh SCRATCH_DIR" 2
scratch=$(mkdir -p "$1" && cd "$1" && pwd)
tarball=${WBERR_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
src=$scratch/linux-source-6.12
# checkpatch runs scripts/spdxcheck.py with "python3" from PATH; Debian's
# python3-ply and python3-git are for the system python
export PATH=/usr/bin:$PATH
problems=0

step "make the base tree"
if ! git -C "$src" rev-parse -q --verify base > /dev/null 2>&1; then
	[ -f "$tarball" ] || die "$tarball not found: install the Debian package linux-source-6.12"
	rm -rf "$src"
	tar -C "$scratch" -xf "$tarball"
	git -C "$src" init -q
	git -C "$src" add -f -A .
	git -C "$src" -c user.name=base -c user.email=base@invalid commit -qm base
	git -C "$src" tag base
fi
say "base: $(git -C "$src" log -1 --format='%h %s' base)"

step "git am"
git -C "$src" am --abort > /dev/null 2>&1 || true
git -C "$src" checkout -q -f -B am base
patches=()
while read -r p _; do
	case "$p" in ''|'#'*) continue ;; esac
	f=$here/patches/$p
	if ! grep -qE '^(diff |--- )' "$f"; then
		say "not applied (no diff): $p"
		continue
	fi
	patches+=("$f")
	if git -C "$src" am -q "$f"; then
		say "git am: $p"
	else
		say "git am FAILED: $p"
		git -C "$src" am --abort
		exit 1
	fi
done < "$here/patches/series"

step "checkpatch"
for f in "${patches[@]}"; do
	out=$(cd "$src" && perl scripts/checkpatch.pl --strict --no-signoff \
		--ignore UNKNOWN_COMMIT_ID "$f" 2>&1 | grep -E '^total: ') || true
	say "checkpatch $(basename "$f"): ${out:-no total line}"
	case "$out" in "total: 0 errors, 0 warnings, 0 checks,"*) ;; *) problems=$((problems + 1)) ;; esac
done

step "kernel-doc"
files=$(git -C "$src" diff --name-only base am -- '*.c' '*.h')
for f in $files; do
	before=0
	if git -C "$src" cat-file -e "base:$f" 2> /dev/null; then
		git -C "$src" show "base:$f" > "$scratch/kdoc-base"
		before=$(cd "$src" && scripts/kernel-doc -Wall -none "$scratch/kdoc-base" 2>&1 | grep -ci warn || true)
	fi
	after=$(cd "$src" && scripts/kernel-doc -Wall -none "$f" 2>&1 | grep -ci warn || true)
	say "kernel-doc -Wall $f: $before warnings at base, $after after"
	[ "$after" -le "$before" ] || problems=$((problems + 1))
done
rm -f "$scratch/kdoc-base"

echo "series check: $problems problems"
[ "$problems" -eq 0 ]
