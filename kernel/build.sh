#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest kernel from Debian's linux-source-6.12 package, in a cache
# outside the clone, keyed by source version + patch series + config.
#
#   kernel/build.sh [--flavour default|debug] [--print-tree] [--key]
#
# --print-tree  print this flavour's tree directory and exit
# --key         print the cache key and exit
#
# One tree per source version and flavour, rebuilt in place: the key of its
# last finished build is in .wberr-built.  When the key changes (a patch or
# a config fragment changed), the old patches are reverted, the new ones
# applied and the config regenerated in the same directory, so Kbuild
# recompiles only what the change touches.  Trees from the older
# one-directory-per-key layout are renamed into place on first use.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
cache=${WBERR_CACHE:-$HOME/.cache/wberr}
tarball=${WBERR_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
flavour=${KCONFIG:-default}
# Bump when the build recipe changes in a way the inputs below do not show.
recipe=3

action=build
while [ $# -gt 0 ]; do
	case "$1" in
	--flavour) flavour=$2; shift 2 ;;
	--print-tree) action=print; shift ;;
	--key) action=key; shift ;;
	*) echo "build.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

case "$flavour" in
default) fragments=("$here/config/wberr.config") ;;
debug) fragments=("$here/config/wberr.config" "$here/config/debug.config") ;;
*) echo "build.sh: unknown KCONFIG flavour '$flavour' (default|debug)" >&2; exit 2 ;;
esac

say() { printf '[kernel] %s\n' "$*" >&2; }
die() { printf '[kernel] error: %s\n' "$*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball not found: run 'make deps' (installs linux-source-6.12)"

src_version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
[ -n "$src_version" ] || src_version=$(stat -c '%s-%Y' "$tarball")

series_file=$here/patches/series
patches=()
if [ -f "$series_file" ]; then
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$here/patches/$p" ] || die "series names $p, which is not in kernel/patches/"
		patches+=("$here/patches/$p")
	done < "$series_file"
fi

key=$( {
	echo "recipe $recipe"
	echo "source $src_version"
	echo "flavour $flavour"
	for f in "${fragments[@]}"; do echo "config $(basename "$f")"; cat "$f"; done
	for p in "${patches[@]+"${patches[@]}"}"; do echo "patch $(basename "$p")"; cat "$p"; done
} | sha256sum | cut -c1-16)

safe_version=$(printf '%s' "$src_version" | tr -c 'A-Za-z0-9.+-' '_')
tree=$cache/linux-$safe_version-$flavour

case "$action" in
print) echo "$tree"; exit 0 ;;
key) echo "$key"; exit 0 ;;
esac

exit_if_fresh() {
	[ -f "$tree/vmlinux" ] && [ "$(cat "$tree/.wberr-built" 2>/dev/null)" = "$key" ] || return 0
	say "up to date: $tree (key $key)"
	exit 0
}
# Trees left by the old per-key layout for this flavour are stale.
remove_legacy_trees() {
	local stale
	for stale in "$cache"/linux-"$safe_version"-"$flavour"-*; do
		[ -d "$stale" ] || continue
		say "removing $stale (old per-key layout)"
		rm -rf "$stale"
	done
}
exit_if_fresh

mkdir -p "$cache"
# One build per cache at a time: a second make waits rather than races.
exec 9>"$cache/.lock"
if ! flock -n 9; then
	say "another build holds $cache/.lock; waiting"
	flock 9
fi
exit_if_fresh

start=$(date +%s)
work=$tree

revert_patches() {
	local dir=$1
	local list=$dir/.wberr-patches/applied
	[ -f "$list" ] || return 0
	tac "$list" | while read -r p; do
		patch -d "$dir" -p1 -R -s --no-backup-if-mismatch \
			< "$dir/.wberr-patches/$p" || die "cannot revert $p in $dir"
	done
	rm -rf "$dir/.wberr-patches"
}

if [ ! -d "$work" ]; then
	# The newest tree of the old per-key layout, if any, becomes this one.
	legacy=$(ls -dt "$cache"/linux-"$safe_version"-"$flavour"-*/.wberr-built 2>/dev/null | head -n 1)
	if [ -n "$legacy" ]; then
		say "moving $(dirname "$legacy") to $work"
		mv "$(dirname "$legacy")" "$work"
		remove_legacy_trees
		exit_if_fresh
	fi
fi
if [ -d "$work" ]; then
	# Also the path of a build that was interrupted: it resumes.
	say "updating $work in place (built key $(cat "$work/.wberr-built" 2>/dev/null || echo none), want $key)"
	rm -f "$work/.wberr-built"
	revert_patches "$work"
else
	say "extracting $tarball ($src_version)"
	tmp=$cache/.extract.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -C "$tmp" -xf "$tarball"
	mv "$tmp"/linux-source-6.12 "$work"
	rmdir "$tmp"
fi

mkdir -p "$work/.wberr-patches"
: > "$work/.wberr-patches/applied"
for p in "${patches[@]+"${patches[@]}"}"; do
	name=$(basename "$p")
	say "applying $name"
	patch -d "$work" -p1 -s --no-backup-if-mismatch --forward < "$p" ||
		die "patch $name does not apply to linux-source $src_version"
	cp "$p" "$work/.wberr-patches/$name"
	echo "$name" >> "$work/.wberr-patches/applied"
done

# Configuration: allnoconfig plus our fragments, then verify every request.
merged=$work/.wberr-config.fragment
cat "${fragments[@]}" > "$merged"
make -C "$work" -s ARCH=x86_64 KCONFIG_ALLCONFIG="$merged" allnoconfig > "$work/.wberr-config.log" 2>&1 ||
	{ cat "$work/.wberr-config.log" >&2; die "allnoconfig failed"; }
make -C "$work" -s ARCH=x86_64 olddefconfig >> "$work/.wberr-config.log" 2>&1 ||
	{ cat "$work/.wberr-config.log" >&2; die "olddefconfig failed"; }

missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		if ! grep -qxF -- "$line" "$work/.config"; then
			sym=${line%%=*}
			have=$(grep -E "^($sym=|# $sym is not set)" "$work/.config" || echo "absent (dependency not met)")
			printf '[kernel] config: requested %s, got %s\n' "$line" "$have" >&2
			missing=$((missing + 1))
		fi ;;
	'# CONFIG_'*' is not set')
		sym=${line#\# }; sym=${sym%% *}
		if grep -q "^$sym=" "$work/.config"; then
			printf '[kernel] config: requested %s unset, got %s\n' "$sym" "$(grep "^$sym=" "$work/.config")" >&2
			missing=$((missing + 1))
		fi ;;
	esac
done < "$merged"
[ "$missing" -eq 0 ] || die "$missing requested config option(s) did not end up set (see above)"
say "config verified: $(grep -c '^CONFIG_.*=[ym]' "$work/.config") options set"

jobs=${WBERR_JOBS:-$(nproc)}
log=$work/.wberr-build.log
say "building vmlinux bzImage modules with -j$jobs (log: $log)"
# Show progress without flooding: a line every 200 objects, with elapsed time.
set +e
make -C "$work" ARCH=x86_64 -j"$jobs" vmlinux bzImage modules > "$log" 2>&1 &
mpid=$!
last=0
while kill -0 "$mpid" 2>/dev/null; do
	sleep 10
	n=$(grep -c '^  [A-Z]' "$log" 2>/dev/null)
	if [ "$((n / 200))" -gt "$((last / 200))" ]; then
		say "$(($(date +%s) - start))s: $n build steps done"
		last=$n
	fi
done
wait "$mpid"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
	grep -E 'error|Error' "$log" | head -n 30 >&2
	tail -n 20 "$log" >&2
	die "kernel build failed (rc $rc); full log in $log"
fi

rm -f "$work/.wberr-config.fragment"
echo "$key" > "$work/.wberr-built"
say "built $(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$tree/include/generated/utsrelease.h") in $(($(date +%s) - start))s: $tree"

remove_legacy_trees
exit 0
