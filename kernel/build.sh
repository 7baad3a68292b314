#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest kernel from Debian's linux-source-6.12 package, in a cache
# outside the clone, keyed by source version + patch series + config.
#
#   kernel/build.sh [--flavour default|debug] [--unpatched] [--print-tree] [--key]
#
# --unpatched   the same source and config without kernel/patches (make
#               KERNEL=unpatched): the stock 6.12 behaviour, built like ours
# --print-tree  print this flavour's tree directory and exit
# --key         print the cache key and exit
#
# One tree per source version and flavour, $WBERR_CACHE/linux-<version>-<flavour>
# (-unpatched appended for --unpatched),
# rebuilt in place; .wberr-built holds the key of its last finished build.
# The states a tree can be found in, and what happens (each is a host test,
# kernel/tests/host-build-states.sh):
#
#   no tree                 extract the tarball, patch, configure, build
#   key matches             nothing ("up to date")
#   key differs             revert the old patches, apply the new ones,
#                           configure and build in place: Kbuild recompiles
#                           only what the change touches
#   no .wberr-built         a build was interrupted: the same as a changed
#                           key, so it resumes where Kbuild left off
#   another build running   wait for its lock, then look again
#
# WBERR_KERNEL_TARBALL overrides the source tarball (the host tests use a
# tiny fake one); WBERR_JOBS the make -j count.
set -euo pipefail
# Run by make kernel: the kernel's make takes none of the top-level make's
# flags (its jobserver, whose descriptors this script does not get; -s or
# -n; variables given on its command line); it has its own -j below.
unset MAKEFLAGS MFLAGS MAKELEVEL

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/sh/errtrap.sh"
errtrap_init kernel

package=linux-source-6.12
package_tarball=/usr/src/$package.tar.xz
cache=${WBERR_CACHE:-$HOME/.cache/wberr}
tarball=${WBERR_KERNEL_TARBALL:-$package_tarball}
flavour=${KCONFIG:-default}
# Bump when the build recipe changes in a way the inputs below do not show.
recipe=3

action=build
unpatched=
while [ $# -gt 0 ]; do
	case "$1" in
	--flavour) flavour=$2; shift 2 ;;
	--unpatched) unpatched=1; shift ;;
	--print-tree) action=print; shift ;;
	--key) action=key; shift ;;
	*) die "unknown argument '$1' (--flavour F, --unpatched, --print-tree, --key)" 2 ;;
	esac
done

case "$flavour" in
default) fragments=("$here/config/wberr.config") ;;
debug) fragments=("$here/config/wberr.config" "$here/config/debug.config") ;;
*) die "unknown KCONFIG flavour '$flavour' (default|debug)" 2 ;;
esac

step "check the source tarball"
if [ ! -e "$tarball" ]; then
	die "kernel source $tarball not found: install the Debian package $package (make deps, or apt-get install $package)"
elif [ ! -f "$tarball" ] || [ ! -r "$tarball" ]; then
	die "kernel source $tarball is not a readable file: reinstall the Debian package $package (apt-get install --reinstall $package)"
fi

# The package's version names the tree; any other tarball is named by its
# size and time, which is enough to tell two of them apart.
src_version=
if [ "$tarball" = "$package_tarball" ]; then
	src_version=$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null || true)
fi
[ -n "$src_version" ] || src_version=file-$(stat -c '%s-%Y' "$tarball")

step "read the patch series"
series_file=$here/patches/series
patches=()
not_applied=()
# What of a patch file the build depends on: its diff, from the first
# "diff " or "--- " line on.  The mail header and commit message (From:,
# Subject:, the Signed-off-by a person adds before sending) change neither
# what is applied nor the key, so signing the series off rebuilds nothing.
patch_diff() { sed -n '/^\(diff \|--- \)/,$p' "$1"; }
# The config symbols the series itself adds (its "+config X" lines): an
# unpatched tree has no such option, so the fragment's request for it is
# dropped there rather than reported as a config that did not take.
series_symbols=$(sed -n 's/^+\(menu\)\{0,1\}config \([A-Z0-9_]*\).*/CONFIG_\2/p' "$here"/patches/*.patch 2>/dev/null | sort -u)
if [ -n "$unpatched" ]; then
	:
elif [ -f "$series_file" ]; then
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$here/patches/$p" ] || die "kernel/patches/series names $p, which is not in kernel/patches/"
		# a cover letter (0000-cover-letter.patch) is part of the mail,
		# not of the tree
		if [ -z "$(patch_diff "$here/patches/$p" | head -n 1)" ]; then
			not_applied+=("$p")
			continue
		fi
		patches+=("$here/patches/$p")
	done < "$series_file"
fi

key=$( {
	echo "recipe $recipe"
	echo "source $src_version"
	echo "flavour $flavour${unpatched:+ unpatched}"
	for f in "${fragments[@]}"; do echo "config $(basename "$f")"; cat "$f"; done
	for p in "${patches[@]+"${patches[@]}"}"; do echo "patch $(basename "$p")"; patch_diff "$p"; done
} | sha256sum | cut -c1-16)

safe_version=$(printf '%s' "$src_version" | tr -c 'A-Za-z0-9.+-' '_')
# its own tree: the series touches headers most of the kernel includes,
# so switching one tree between the two would rebuild nearly everything
tree=$cache/linux-$safe_version-$flavour${unpatched:+-unpatched}

case "$action" in
print) echo "$tree"; exit 0 ;;
key) echo "$key"; exit 0 ;;
esac

[ "${#not_applied[@]}" -eq 0 ] ||
	say "not applied, no diff in them (a cover letter): ${not_applied[*]}"

built_key() { cat "$tree/.wberr-built" 2>/dev/null || true; }
exit_if_fresh() {
	if [ -f "$tree/vmlinux" ] && [ "$(built_key)" = "$key" ]; then
		say "up to date: $tree (key $key)"
		exit 0
	fi
}
exit_if_fresh

step "take the cache lock"
mkdir -p "$cache" || die "cannot create the kernel cache $cache (WBERR_CACHE)"
# One build per cache at a time: a second make waits rather than races.
exec 9>"$cache/.lock"
if ! flock -n 9; then
	say "another build holds $cache/.lock; waiting for it"
	flock 9
fi
exit_if_fresh

start=$(date +%s)
[ -z "$unpatched" ] ||
	say "unpatched: kernel/patches not applied; the config symbols they add are not requested: $(echo $series_symbols)"

revert_patches() {
	local list=$tree/.wberr-patches/applied p
	[ -f "$list" ] || return 0
	while read -r p; do
		patch -d "$tree" -p1 -R -s --no-backup-if-mismatch < "$tree/.wberr-patches/$p" ||
			die "cannot revert $p in $tree: remove that directory and run again (a cold build follows)"
	done < <(tac "$list")
	rm -rf "$tree/.wberr-patches"
}

if [ -d "$tree" ]; then
	have=$(built_key)
	if [ -z "$have" ]; then
		say "resuming an interrupted build in $tree (want key $key)"
	else
		say "updating $tree in place (built key $have, want $key)"
	fi
	rm -f "$tree/.wberr-built"
	step "revert the previous patches"
	revert_patches
else
	step "extract $tarball"
	say "extracting $tarball ($src_version)"
	rm -rf "$cache"/.extract.*	# left by an extraction that was interrupted
	tmp=$cache/.extract.$$
	mkdir -p "$tmp"
	errtrap_cleanup 'rm -rf "$tmp"'
	tar -C "$tmp" -xf "$tarball" 2> "$tmp.err" || {
		sed 's/^/[kernel]   /' "$tmp.err" >&2; rm -f "$tmp.err"
		die "cannot extract $tarball: reinstall the Debian package $package (apt-get install --reinstall $package)"
	}
	rm -f "$tmp.err"
	top_dirs=("$tmp"/*)
	[ "${#top_dirs[@]}" -eq 1 ] && [ -d "${top_dirs[0]}" ] ||
		die "$tarball does not hold one top-level source directory"
	mv "${top_dirs[0]}" "$tree"
	rmdir "$tmp"
fi

step "apply the patch series"
mkdir -p "$tree/.wberr-patches"
: > "$tree/.wberr-patches/applied"
for p in "${patches[@]+"${patches[@]}"}"; do
	name=$(basename "$p")
	say "applying $name"
	patch -d "$tree" -p1 -s --no-backup-if-mismatch --forward < "$p" ||
		die "patch $name does not apply to $package $src_version"
	cp "$p" "$tree/.wberr-patches/$name"
	echo "$name" >> "$tree/.wberr-patches/applied"
done

# Configuration: allnoconfig plus our fragments, then verify every request.
config_log=$tree/.wberr-config.log
step "configure (allnoconfig + fragments, olddefconfig)" "$config_log"
merged=$tree/.wberr-config.fragment
if [ -n "$unpatched" ] && [ -n "$series_symbols" ]; then
	cat "${fragments[@]}" | grep -vE "^(# )?($(echo $series_symbols | tr ' ' '|'))[= ]" > "$merged" || true
else
	cat "${fragments[@]}" > "$merged"
fi
make -C "$tree" -s ARCH=x86_64 KCONFIG_ALLCONFIG="$merged" allnoconfig > "$config_log" 2>&1 ||
	{ tail -n 20 "$config_log" >&2; die "make allnoconfig failed"; }
make -C "$tree" -s ARCH=x86_64 olddefconfig >> "$config_log" 2>&1 ||
	{ tail -n 20 "$config_log" >&2; die "make olddefconfig failed"; }

step "verify the config" "$tree/.config"
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		if ! grep -qxF -- "$line" "$tree/.config"; then
			sym=${line%%=*}
			got=$(grep -E "^($sym=|# $sym is not set)" "$tree/.config" || echo "absent (dependency not met)")
			say "config: requested $line, got $got"
			missing=$((missing + 1))
		fi ;;
	'# CONFIG_'*' is not set')
		sym=${line#\# }; sym=${sym%% *}
		if grep -q "^$sym=" "$tree/.config"; then
			say "config: requested $sym unset, got $(grep "^$sym=" "$tree/.config")"
			missing=$((missing + 1))
		fi ;;
	esac
done < "$merged"
[ "$missing" -eq 0 ] || die "$missing requested config option(s) did not end up set (see above)"
say "config verified: $(grep -c '^CONFIG_.*=[ym]' "$tree/.config") options set"

jobs=${WBERR_JOBS:-$(nproc)}
log=$tree/.wberr-build.log
step "make vmlinux bzImage modules" "$log"
say "building vmlinux bzImage modules with -j$jobs (log: $log)"
make -C "$tree" ARCH=x86_64 -j"$jobs" vmlinux bzImage modules > "$log" 2>&1 &
mpid=$!
# make passes SIGTERM on to its jobs; an interrupted build must not leave
# compilers running, or holding the tree, behind this script.
errtrap_cleanup 'kill -TERM "$mpid" 2>/dev/null && wait "$mpid" 2>/dev/null'
# Progress without flooding: a line every 200 build steps, with elapsed time.
last=0
while kill -0 "$mpid" 2>/dev/null; do
	sleep 2 &
	wait $! || true
	n=$(grep -c '^  [A-Z]' "$log" || true)
	if [ "$((n / 200))" -gt "$((last / 200))" ]; then
		say "$(($(date +%s) - start))s: $n build steps done"
		last=$n
	fi
done
rc=0
wait "$mpid" || rc=$?
if [ "$rc" -ne 0 ]; then
	grep -E 'error|Error' "$log" | head -n 30 >&2 || true
	tail -n 20 "$log" >&2
	die "kernel build failed (make status $rc)"
fi

rm -f "$merged"
echo "$key" > "$tree/.wberr-built"
release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$tree/include/generated/utsrelease.h")
say "built ${release:-?} in $(($(date +%s) - start))s: $tree"
