#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch one of Debian's shipped kernels for the guest, without installing
# anything on this machine: the image package (vmlinuz and modules), the
# matching headers (arch + common) and the kbuild tools, downloaded with
# `apt-get download` and unpacked with `dpkg-deb -x` into the cache.
#
#   kernel/debian.sh --kernel debian-6.12|debian-6.1|debian:PACKAGE [--print-dir]
#
# --print-dir  print the directory (resolving the version with apt-cache,
#              downloading nothing) and exit
#
# Which package: the newest candidate among linux-image-6.12.*+deb12-amd64
# (debian-6.12) or linux-image-6.1.0-*-amd64 (debian-6.1) in this machine's
# apt sources, or exactly the one named by debian:PACKAGE (any amd64
# linux-image-* your apt sources offer, e.g. debian:linux-image-6.1.0-57-amd64
# or a backports one); when apt knows none, `apt-get update` once and look
# again.
#
# The result, $WBERR_CACHE/debian-<image package version>/:
#
#   debs/           the four .deb files (checked against apt's SHA256)
#   root/           all four unpacked under one root (root/boot, root/lib/
#                   modules, root/usr/src, root/usr/lib/linux-kbuild-*)
#   vmlinuz         -> root/boot/vmlinuz-<release> (a bzImage)
#   headers         -> root/usr/src/linux-headers-<release>: `make -C headers
#                   M=...` builds an out-of-tree module against this kernel
#   release         the kernel's release (uname -r)
#   root/lib/modules/<release>/modules.dep and friends: depmod run on the
#                   unpacked tree (the package leaves that to its postinst)
#   .wberr-unpacked the key of the finished unpack: package versions and
#                   this script's hash; a match is "up to date"
#
# The headers' absolute symlinks (the arch tree's `scripts` and `tools` to
# /usr/lib/linux-kbuild-<v>/, the kbuild tree's back to the common headers)
# are rewritten to relative ones inside root/, so the tree works where it
# lies and never looks at the host's /usr/src or /usr/lib.  The arch
# Makefile's own `include /usr/src/linux-headers-<v>-common/Makefile` is
# rewritten the same way (the one absolute path it holds).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/sh/errtrap.sh"
errtrap_init debian-kernel

cache=${WBERR_CACHE:-$HOME/.cache/wberr}
kernel= action=fetch
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--print-dir) action=print; shift ;;
	-h|--help) sed -n '4,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (--kernel debian-6.12|debian-6.1|debian:PACKAGE [--print-dir])" 2 ;;
	esac
done
case "$kernel" in
debian-6.12) name_re='^linux-image-6\.12\.[0-9]+\+deb12-amd64$' ;;
debian-6.1) name_re='^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
debian:linux-image-*-amd64)
	pkg=${kernel#debian:}
	case "$pkg" in *[!A-Za-z0-9.+-]*) die "--kernel $kernel: '$pkg' is not a package name" 2 ;; esac
	name_re="^$(printf '%s' "$pkg" | sed 's/[.+]/\\&/g')\$" ;;
*) die "--kernel must be debian-6.12, debian-6.1 or debian:linux-image-<release>-amd64, not '${kernel}'" 2 ;;
esac

step "check the host tools"
for t in apt-cache apt-get dpkg-deb sha256sum flock; do
	command -v "$t" > /dev/null || die "$t not found: install the Debian packages apt, dpkg, coreutils, util-linux"
done

# The newest candidate version of the packages whose name matches; prints
# "<package> <version>" or nothing.
newest() {
	local names p v best= bestv=
	names=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$name_re" || true)
	[ -n "$names" ] || return 0
	# shellcheck disable=SC2086
	while read -r p v; do
		[ -n "$v" ] && [ "$v" != "(none)" ] || continue
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$bestv"; then best=$p bestv=$v; fi
	done < <(apt-cache policy $names 2>/dev/null | awk '
		/^[^ ]/ { p = $1; sub(/:$/, "", p) } /^  Candidate: / { print p, $2 }')
	[ -z "$best" ] || echo "$best $bestv"
}

step "find the newest $kernel image package"
read -r image_pkg version < <(newest; echo) || true
if [ -z "${image_pkg:-}" ]; then
	[ "$action" = print ] && die "apt knows no package matching $name_re: run kernel/debian.sh --kernel $kernel once (it runs apt-get update)"
	mkdir -p "$cache"
	step "apt-get update" "$cache/debian-apt-update.log"
	say "apt knows no package matching $name_re: apt-get update"
	apt-get update > "$cache/debian-apt-update.log" 2>&1 ||
		die "apt-get update failed (status $?; root or sudo needed, and Debian's archive reachable): $(tail -n 3 "$cache/debian-apt-update.log" | tr '\n' ' ')"
	step "find the newest $kernel image package (after apt-get update)"
	read -r image_pkg version < <(newest; echo) || true
	[ -n "${image_pkg:-}" ] ||
		die "apt knows no package matching $name_re even after apt-get update: is bookworm-security (6.1) or bookworm main/updates (6.12) in /etc/apt/sources.list?"
fi
release=${image_pkg#linux-image-}
abi=${release%-amd64}	# 6.1.0-57, 6.12.118+deb12
safe_version=$(printf '%s' "$version" | tr -c 'A-Za-z0-9.+-' '_')
dir=$cache/debian-$safe_version
if [ "$action" = print ]; then echo "$dir"; exit 0; fi

step "resolve the headers and kbuild packages of $image_pkg"
headers_pkg=linux-headers-$release
common_pkg=linux-headers-$abi-common
# The arch headers name the kbuild package (linux-kbuild-6.1 or
# linux-kbuild-6.12.118+deb12) in their Depends.
kbuild_pkg=$(apt-cache show --no-all-versions "$headers_pkg" 2>/dev/null |
	sed -n 's/^Depends: //p' | tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p' | head -n 1)
[ -n "$kbuild_pkg" ] || die "apt-cache show $headers_pkg names no linux-kbuild-* dependency (is $headers_pkg in the apt sources?)"
pkgs=("$image_pkg" "$headers_pkg" "$common_pkg" "$kbuild_pkg")
declare -A ver size sha
while IFS=$'\t' read -r p v s h; do
	ver[$p]=$v size[$p]=$s sha[$p]=$h
done < <(apt-cache show --no-all-versions "${pkgs[@]}" 2>/dev/null | awk '
	function out() { if (p != "") printf "%s\t%s\t%s\t%s\n", p, v, s, h; p = "" }
	/^Package: /{p=$2} /^Version: /{v=$2} /^Size: /{s=$2} /^SHA256: /{h=$2} /^$/{out()} END{out()}')
for p in "${pkgs[@]}"; do
	[ -n "${sha[$p]:-}" ] || die "apt-cache show --no-all-versions $p gives no version and checksum"
done
[ "${ver[$headers_pkg]}" = "$version" ] ||
	die "$headers_pkg is at ${ver[$headers_pkg]}, the image at $version: the archive is mid-update, try again later"

key=$( {
	for p in "${pkgs[@]}"; do echo "$p ${ver[$p]} ${sha[$p]}"; done
	sha256sum < "$0"
} | sha256sum | cut -c1-16)

if [ "$(cat "$dir/.wberr-unpacked" 2>/dev/null)" = "$key" ] && [ -f "$dir/vmlinuz" ]; then
	say "up to date: $dir ($image_pkg $version, key $key)"
	echo "$dir"
	exit 0
fi

step "lock $dir"
mkdir -p "$dir"
exec 9> "$dir.lock"
if ! flock -n 9; then
	say "another debian.sh is fetching into $dir; waiting for it"
	flock 9
fi
t0=$(date +%s)

step "download the packages" "$dir/download.log"
mkdir -p "$dir/debs"
verified() { [ -f "$dir/debs/$1.deb" ] && [ "$(sha256sum < "$dir/debs/$1.deb" | cut -d' ' -f1)" = "${sha[$1]}" ]; }
fetch=() bytes=0
for p in "${pkgs[@]}"; do
	verified "$p" && continue
	fetch+=("$p"); bytes=$((bytes + size[$p]))
done
if [ "${#fetch[@]}" -gt 0 ]; then
	say "downloading ${fetch[*]} ($((bytes / 1048576)) MiB)"
	rm -rf "$dir/debs/.partial"; mkdir -p "$dir/debs/.partial"
	specs=()
	for p in "${fetch[@]}"; do specs+=("$p=${ver[$p]}"); done
	td=$(date +%s)
	(cd "$dir/debs/.partial" && apt-get download "${specs[@]}") > "$dir/download.log" 2>&1 ||
		die "apt-get download ${specs[*]} failed (status $?): $(tail -n 3 "$dir/download.log" | tr '\n' ' ') (stale package lists? apt-get update)"
	for p in "${fetch[@]}"; do
		f=$(ls "$dir/debs/.partial/${p}_"*.deb 2>/dev/null | head -n 1)
		[ -n "$f" ] || die "apt-get download gave no .deb for $p"
		mv "$f" "$dir/debs/$p.deb"
		verified "$p" || die "$dir/debs/$p.deb does not match apt's SHA256 ${sha[$p]}"
	done
	rmdir "$dir/debs/.partial"
	say "downloaded $((bytes / 1048576)) MiB in $(( $(date +%s) - td ))s"
else
	say "the .deb files are in the cache already"
fi

step "unpack the packages into $dir/root"
rm -rf "$dir/root" "$dir/.wberr-unpacked"
mkdir -p "$dir/root"
for p in "${pkgs[@]}"; do
	dpkg-deb -x "$dir/debs/$p.deb" "$dir/root" || die "dpkg-deb -x $dir/debs/$p.deb failed (status $?)"
done

step "make the headers' absolute paths relative to $dir/root"
root=$dir/root
# Symlinks: an absolute target /X becomes the relative path to root/X.
while IFS= read -r l; do
	t=$(readlink "$l")
	case "$t" in /*) ;; *) continue ;; esac
	ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$root$t")" "$l"
done < <(find "$root/usr/src" "$root/usr/lib" -type l 2>/dev/null)
hdr=$root/usr/src/linux-headers-$release
[ -f "$hdr/Makefile" ] || die "$hdr/Makefile missing after unpacking $headers_pkg"
# The arch Makefile includes the common one by its absolute path.
sed -i "s|/usr/src/linux-headers-|$root/usr/src/linux-headers-|g" "$hdr/Makefile"
grep -q "$root/usr/src/linux-headers-$abi-common" "$hdr/Makefile" ||
	die "$hdr/Makefile does not include the common headers where expected: $(head -n 5 "$hdr/Makefile" | tr '\n' ' ')"
[ -e "$hdr/scripts/basic/fixdep" ] || die "$hdr/scripts/basic/fixdep missing: the kbuild tools of $kbuild_pkg are not reachable through $hdr/scripts"
[ -f "$root/boot/vmlinuz-$release" ] || die "$root/boot/vmlinuz-$release missing after unpacking $image_pkg"
[ -d "$root/lib/modules/$release/kernel" ] || die "$root/lib/modules/$release/kernel missing after unpacking $image_pkg"

# The package ships no modules.dep (its postinst runs depmod): make it here,
# on the unpacked tree only.
step "depmod the unpacked modules" "$dir/depmod.log"
command -v depmod > /dev/null || die "depmod not found: install the Debian package kmod (make deps)"
depmod -b "$root" "$release" > "$dir/depmod.log" 2>&1 ||
	die "depmod -b $root $release failed (status $?): $(tail -n 3 "$dir/depmod.log" | tr '\n' ' ')"
[ -s "$root/lib/modules/$release/modules.dep" ] || die "depmod -b $root $release wrote no modules.dep"

ln -sfn "root/boot/vmlinuz-$release" "$dir/vmlinuz"
ln -sfn "root/usr/src/linux-headers-$release" "$dir/headers"
echo "$release" > "$dir/release"
echo "$key" > "$dir/.wberr-unpacked"
say "unpacked $image_pkg $version into $dir ($(du -sm "$dir/root" | cut -f1) MiB unpacked, $(du -smc "$dir"/debs/*.deb | tail -n 1 | cut -f1) MiB of .deb) in $(( $(date +%s) - t0 ))s"
echo "$dir"
