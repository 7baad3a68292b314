#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the apps disk: an ext4 image of Debian 12 packages unpacked (not
# installed) so the guest can run real programs: the report card's
# applications (main_pkgs below: SQLite, PostgreSQL 15, Redis, etcd, LMDB's
# and RocksDB's tools) with the libraries they load.  run-guest --apps IMG
# attaches it, guest/init mounts it read-only at /opt/apps, guest/apps-env
# sets PATH and LD_LIBRARY_PATH.  No root needed, nothing is installed on
# this machine.
#
#   harness/mkapps.sh --out IMG
#
# Everything is kept in $WBERR_CACHE/apps-<key>/ (debs/, root/, apps.img);
# the key hashes the exact candidate version (and checksum) of every package
# considered, this script, guest/apps-env and the names of the libraries the
# guest image carries (host-tools.sh).  A warm run reuses it all and says
# "up to date"; IMG is a copy of apps.img, made only when it differs.
#
# Which packages: apt's dependency closure of main_pkgs (no recommends,
# suggests, conflicts, breaks, replaces, enhances), of which only the library
# packages (named lib*, or in section libs: zlib1g) are considered, without
#   - glibc (libc6, libc-bin, libc-l10n): the guest image's own serves; the
#     loader and libc.so.6 must come from one build;
#   - LLVM and Z3: only PostgreSQL's JIT provider (llvmjit.so) loads them;
#     it is removed with its bitcode, and JIT stays off (jit=off is moot);
#   - perl's libraries and modules, and libelogind0 (apt lists it as an alternative to
#     libsystemd0).
# Of those, a package goes on the disk only when an ELF file already on it
# needs one of its libraries (DT_NEEDED, found on apps-env's
# LD_LIBRARY_PATH); the others are named and left out.  Left out as well:
# documentation, manual pages, message catalogues.  Then every DT_NEEDED of
# every ELF file on the disk must be found on that path or among the guest
# image's libraries; the build fails naming the ones that are not.
#
# To add a package: append it to main_pkgs below, or for one run name it in
# WBERR_APPS_PACKAGES (make APPS_PACKAGES=...); its libraries follow by
# themselves, and the key changes, so the next run builds a new image.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/sh/errtrap.sh"
errtrap_init apps
. "$here/host-tools.sh"

main_pkgs=(sqlite3 postgresql-15 postgresql-client-15 redis-server redis-tools etcd-server etcd-client lmdb-utils rocksdb-tools)
# a user's own: make run APPS_PACKAGES='redis-server lmdb-utils' SCENARIOS=...
# shellcheck disable=SC2206
main_pkgs+=(${WBERR_APPS_PACKAGES:-})
# Library packages of the closure that never go on the disk (see above).
skip_re='^(libc6|libc-bin|libc-l10n|libllvm[0-9]+|libz3-[0-9]+|libperl[0-9.]+|lib.*-perl|perl-modules-.*|libelogind0)$'
# Paths removed from every package (relative to its root).
prune=(usr/share/doc usr/share/man usr/share/locale usr/share/lintian usr/share/bug
	usr/lib/postgresql/15/lib/llvmjit.so usr/lib/postgresql/15/lib/llvmjit_types.bc
	usr/lib/postgresql/15/lib/bitcode)
# Bump when the recipe changes in a way the hashed inputs do not show.
recipe=1

out=
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	-h|--help) sed -n '4,36p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (usage: mkapps.sh --out IMG)" 2 ;;
	esac
done
[ -n "$out" ] || die "usage: mkapps.sh --out IMG" 2
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
cache=${WBERR_CACHE:-$HOME/.cache/wberr}
t_start=$(date +%s)

step "check the host tools"
for t in apt-cache apt-get dpkg-deb readelf mke2fs e2fsck sha256sum flock ldd setpriv; do
	command -v "$t" > /dev/null || die "$t not found: install the Debian packages apt, dpkg, binutils, e2fsprogs, coreutils, util-linux, libc-bin (make deps)"
done

# apt-get update at most once per run (the re-run after it is told so).
apt_update() {	# $1: why
	[ -z "${WBERR_APPS_UPDATED:-}" ] || return 1
	say "$1: apt-get update"
	step "apt-get update" "$cache/apps-apt-update.log"
	mkdir -p "$cache"
	apt-get update > "$cache/apps-apt-update.log" 2>&1 ||
		die "apt-get update failed (status $?; root or sudo needed, and Debian's archive reachable): $(tail -n 3 "$cache/apps-apt-update.log" | tr '\n' ' ')"
	export WBERR_APPS_UPDATED=1
}

# ---- which packages, which versions --------------------------------------
step "resolve the packages"
say "resolving ${main_pkgs[*]} and their libraries"
# One call (each loads apt's cache): "pkg:" lines, then "  Candidate: v".
policy=$(apt-cache policy "${main_pkgs[@]}" 2>/dev/null | awk '
	/^[^ ]/ { p = $1; sub(/:$/, "", p) } /^  Candidate: / { print p, $2 }') || true
for p in "${main_pkgs[@]}"; do
	v=$(printf '%s\n' "$policy" | awk -v p="$p" '$1 == p { print $2 }')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		apt_update "no candidate for $p" && exec "$0" --out "$out"
		die "apt knows no installable version of $p (apt-cache policy $p), even after apt-get update: is Debian 12's main archive in /etc/apt/sources.list?"
	fi
done

closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances "${main_pkgs[@]}") ||
	die "apt-cache depends --recurse ${main_pkgs[*]} failed (status $?)"
# Real packages only: dependency lines are indented, virtual ones are <name>.
all=$(printf '%s\n' "$closure" | grep -v -e '^ ' -e '^<' | sed 's/:.*//' | LC_ALL=C sort -u)
# Candidate version, section, architecture, size and checksum of each, in
# one call.
declare -A ver sect arch size sha
while IFS=$'\t' read -r p v c a s h; do
	ver[$p]=$v sect[$p]=$c arch[$p]=$a size[$p]=$s sha[$p]=$h
done < <(apt-cache show --no-all-versions $all 2>/dev/null | awk '
	function out() { if (p != "") printf "%s\t%s\t%s\t%s\t%s\t%s\n", p, v, c, a, s, h; p = "" }
	/^Package: /{p=$2} /^Version: /{v=$2} /^Section: /{c=$2} /^Architecture: /{a=$2}
	/^Size: /{s=$2} /^SHA256: /{h=$2} /^$/{out()} END{out()}')
# The three and the library packages (named lib*, or in section libs).
pkgs=("${main_pkgs[@]}")
skipped=()
for p in $all; do
	case " ${main_pkgs[*]} " in *" $p "*) continue ;; esac
	case "$p/${sect[$p]:-}" in lib*|*/libs) ;; *) continue ;; esac
	if [[ $p =~ $skip_re ]]; then skipped+=("$p"); continue; fi
	pkgs+=("$p")
done
say "closure: $(echo "$all" | wc -l) packages; considered: ${#pkgs[@]} (the programs' packages and the library ones); never taken: ${skipped[*]}"
for p in "${pkgs[@]}"; do
	if [ -z "${sha[$p]:-}" ]; then
		apt_update "apt-cache show gives no candidate for $p" && exec "$0" --out "$out"
		die "apt-cache show --no-all-versions $p gives no version and checksum"
	fi
done

step "list the guest image's libraries"
mapfile -t image_libs < <(host_tool_libs)
[ "${#image_libs[@]}" -gt 0 ] || die "no library found with ldd for the image's host tools (harness/host-tools.sh): are they installed (make deps)?"
declare -A in_image=()
for l in "${image_libs[@]}"; do in_image[$l]=1; done

key=$( {
	echo "recipe $recipe"
	for p in "${pkgs[@]}"; do echo "$p ${ver[$p]} ${arch[$p]} ${sha[$p]}"; done | LC_ALL=C sort
	sha256sum < "$0"
	sha256sum < "$here/guest/apps-env"
	printf '%s\n' "${image_libs[@]}"
} | sha256sum | cut -c1-16)
dir=$cache/apps-$key
mkdir -p "$dir"

step "lock $dir"
exec 9> "$dir.lock"
if ! flock -n 9; then
	say "another mkapps.sh is building $dir; waiting for it"
	flock 9
fi

publish() {	# copy apps.img to --out when it differs
	mkdir -p "$(dirname "$out")"
	if ! cmp -s "$dir/apps.img" "$out" 2>/dev/null; then
		step "copy the image to $out"
		cp --reflink=auto "$dir/apps.img" "$out.tmp"
		mv "$out.tmp" "$out"
	fi
}

if [ -f "$dir/.done" ] && [ -f "$dir/apps.img" ]; then
	publish
	say "up to date: $out ($(( $(stat -c %s "$dir/apps.img") / 1048576 )) MiB, key $key, $(( $(date +%s) - t_start ))s)"
	exit 0
fi
rm -f "$dir/.done"
say "building in $dir (key $key)"

# ---- download ------------------------------------------------------------
step "download the packages" "$dir/download.log"
mkdir -p "$dir/debs"
verified() {	# $1 file $2 package: the file is that package's candidate .deb
	[ -f "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "${sha[$2]}" ]
}
fetch=()
for p in "${pkgs[@]}"; do
	verified "$dir/debs/$p.deb" "$p" && continue
	# The same version downloaded for another key (an older script)?
	found=
	for old in "$cache"/apps-*/debs/"$p.deb"; do
		if [ "$old" != "$dir/debs/$p.deb" ] && verified "$old" "$p"; then
			ln -f "$old" "$dir/debs/$p.deb" 2>/dev/null || cp "$old" "$dir/debs/$p.deb"
			found=1; break
		fi
	done
	[ -n "$found" ] || fetch+=("$p")
done
dl_bytes=0
for p in "${fetch[@]+"${fetch[@]}"}"; do dl_bytes=$((dl_bytes + size[$p])); done
if [ "${#fetch[@]}" -gt 0 ]; then
	say "downloading ${#fetch[@]} of ${#pkgs[@]} packages ($((dl_bytes / 1048576)) MiB; the others are in the cache)"
	rm -rf "$dir/debs/.partial"; mkdir -p "$dir/debs/.partial"
	specs=()
	for p in "${fetch[@]}"; do specs+=("$p=${ver[$p]}"); done
	if ! (cd "$dir/debs/.partial" && apt-get download "${specs[@]}") > "$dir/download.log" 2>&1; then
		# A candidate the archive no longer has: the package lists are stale.
		apt_update "apt-get download failed ($(grep -m1 -E '^(E|Err):' "$dir/download.log" || tail -n 1 "$dir/download.log"))" &&
			exec "$0" --out "$out"
		die "apt-get download failed: $(grep -E '^(E|Err):' "$dir/download.log" | head -n 3 | tr '\n' ' ')"
	fi
	for p in "${fetch[@]}"; do
		f=("$dir/debs/.partial/${p}_"*.deb)
		[ "${#f[@]}" = 1 ] && [ -f "${f[0]}" ] || die "apt-get download left no single ${p}_*.deb in $dir/debs/.partial"
		verified "${f[0]}" "$p" || die "${f[0]##*/}: SHA256 differs from the one apt-cache show gives (${sha[$p]})"
		mv "${f[0]}" "$dir/debs/$p.deb"
	done
	rmdir "$dir/debs/.partial"
else
	say "all ${#pkgs[@]} packages already downloaded"
fi

# ---- unpack, one directory per package -----------------------------------
step "unpack the packages"
rm -rf "$dir/pkgs" "$dir/root"
mkdir -p "$dir/pkgs"
say "unpacking ${#pkgs[@]} packages (dpkg-deb -x)"
pruned_kb=0
for p in "${pkgs[@]}"; do
	dpkg-deb -x "$dir/debs/$p.deb" "$dir/pkgs/$p" || die "dpkg-deb -x $dir/debs/$p.deb failed"
	for x in "${prune[@]}"; do
		if [ -e "$dir/pkgs/$p/$x" ] || [ -L "$dir/pkgs/$p/$x" ]; then
			pruned_kb=$((pruned_kb + $(du -sk "$dir/pkgs/$p/$x" | cut -f1)))
			rm -rf "${dir:?}/pkgs/$p/$x"
		fi
	done
done

# The library directories the guest searches first (apps-env), relative.
lib_dirs=()
for d in $(LD_LIBRARY_PATH=; WBERR_APPS=/ROOT; . "$here/guest/apps-env"; echo "$LD_LIBRARY_PATH" | tr ':' ' '); do
	lib_dirs+=("${d#/ROOT/}")
done

# needed DIR: "file<TAB>soname" for every DT_NEEDED of every ELF file
# under DIR (readelf prints "File:" headers only for ELF files, and only
# when given several: /dev/null makes sure).
needed() {
	(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z |
		xargs -0 -r readelf -d /dev/null 2>/dev/null || true) | awk '
		/^File: / { f = substr($0, 7); sub(/^\.\//, "", f); next }
		/\(NEEDED\)/ { n = $NF; gsub(/[][]/, "", n); print f "\t" n }'
}
elf_count() {
	(cd "$1" && find . -type f -print0 | xargs -0 -r readelf -h /dev/null 2>/dev/null || true) | grep -c '^ELF Header:' || true
}

# ---- select the libraries by DT_NEEDED -----------------------------------
step "select the library packages the programs need"
declare -A provider=()
for p in "${pkgs[@]}"; do
	for d in "${lib_dirs[@]}"; do
		[ -d "$dir/pkgs/$p/$d" ] || continue
		for f in "$dir/pkgs/$p/$d"/*; do
			n=${f##*/}
			[ -z "${provider[$n]:-}" ] && provider[$n]=$p
		done
	done
done
declare -A keep=()
queue=("${main_pkgs[@]}")
for p in "${main_pkgs[@]}"; do keep[$p]=1; done
missing=()
while [ "${#queue[@]}" -gt 0 ]; do
	p=${queue[0]}; queue=("${queue[@]:1}")
	while IFS=$'\t' read -r f n; do
		[ -n "$n" ] || continue
		q=${provider[$n]:-}
		if [ -n "$q" ]; then
			if [ -z "${keep[$q]:-}" ]; then keep[$q]=1; queue+=("$q"); fi
		elif [ -z "${in_image[$n]:-}" ]; then
			missing+=("$n (needed by $p: $f)")
		fi
	done < <(needed "$dir/pkgs/$p")
done
[ "${#missing[@]}" = 0 ] || die "libraries found neither in the packages nor in the guest image: $(printf '%s\n' "${missing[@]}" | LC_ALL=C sort -u | paste -sd ';' | sed 's/;/; /g')"
kept=() left=() left_kb=0
for p in "${pkgs[@]}"; do
	if [ -n "${keep[$p]:-}" ]; then kept+=("$p"); else
		left+=("$p"); left_kb=$((left_kb + $(du -sk "$dir/pkgs/$p" | cut -f1)))
	fi
done
say "taken: ${#kept[@]} packages; left out, no ELF file needs them ($((left_kb / 1024)) MiB): ${left[*]:-none}"

# ---- the root --------------------------------------------------------------
step "assemble $dir/root"
mkdir -p "$dir/root"
for p in "${kept[@]}"; do
	cp -al --remove-destination "$dir/pkgs/$p/." "$dir/root/"
done
for p in "${kept[@]}"; do printf '%s\t%s\t%s\n' "$p" "${ver[$p]}" "${arch[$p]}"; done > "$dir/root/wberr-apps.list"
rm -rf "$dir/pkgs"
root_kb=$(du -sk "$dir/root" | cut -f1)
nfiles=$(find "$dir/root" | wc -l)
say "root: $((root_kb / 1024)) MiB in $nfiles files and directories (removed: $((pruned_kb / 1024)) MiB of documentation, manual pages, message catalogues and the JIT)"

# ---- the check the guest would otherwise make the hard way ---------------
step "check every ELF file's libraries are found"
declare -A here_lib=()
for d in "${lib_dirs[@]}"; do
	[ -d "$dir/root/$d" ] || continue
	for f in "$dir/root/$d"/*; do
		[ -e "$f" ] && here_lib[${f##*/}]=1	# -e: a dangling symlink is no library
	done
done
missing=() from_image=() nneeded=0
while IFS=$'\t' read -r f n; do
	[ -n "$n" ] || continue
	nneeded=$((nneeded + 1))
	if [ -n "${here_lib[$n]:-}" ]; then :
	elif [ -n "${in_image[$n]:-}" ]; then from_image+=("$n")
	else missing+=("$n (needed by $f)"); fi
done < <(needed "$dir/root")
[ "${#missing[@]}" = 0 ] || die "missing libraries: $(printf '%s\n' "${missing[@]}" | LC_ALL=C sort -u | paste -sd ';' | sed 's/;/; /g')"
from_image=($(printf '%s\n' "${from_image[@]+"${from_image[@]}"}" | LC_ALL=C sort -u))
say "check: $(elf_count "$dir/root") ELF files, $nneeded DT_NEEDED entries, all found (from the guest image: ${from_image[*]:-none})"

# ---- a PostgreSQL cluster ---------------------------------------------------
# scenarios/programs/postgres/run.sh copies this cluster onto the file
# system under test instead of running initdb there: the same initdb with
# the same options, 0.7 s here against 8-17 s of a PostgreSQL instance's
# 15-32 s under TCG (docs/measurements.md).  Both write the same
# postgresql.conf (compared 2026-12-07): TZ=UTC0 is what initdb picks in
# the guest, which has no tzdata (guest/apps-env).  As nobody: initdb
# refuses to run as root.  Readable by all, so that uid 1000 can copy it.
# nobody may not reach into the cache (CI's is a mktemp -d, mode 0700), so
# initdb runs from a copy of the root in a directory of its own.
step "make a PostgreSQL cluster with initdb" "$dir/initdb.log"
pgt=$dir/root/usr/share/wberr/pgdata
rm -rf "$pgt"
mkdir -p "${pgt%/*}" || die "cannot make ${pgt%/*}"
pgstage=$(mktemp -d "${TMPDIR:-/tmp}/wberr-initdb.XXXXXX") || die "cannot make a directory for initdb"
errtrap_cleanup 'rm -rf "$pgstage"'
chmod 0755 "$pgstage" && cp -a "$dir/root" "$pgstage/root" && mkdir "$pgstage/out" &&
	chown 65534:65534 "$pgstage/out" || die "cannot copy the root to $pgstage for initdb"
env -i PATH=/usr/bin:/bin TZ=UTC0 LC_ALL=C \
	LD_LIBRARY_PATH="$pgstage/root/usr/lib/x86_64-linux-gnu:$pgstage/root/lib/x86_64-linux-gnu" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$pgstage/root/usr/lib/postgresql/15/bin/initdb" -N -D "$pgstage/out/pgdata" \
	-U postgres --locale=C -E UTF8 -A trust > "$dir/initdb.log" 2>&1 ||
	die "initdb of the PostgreSQL cluster failed: $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')"
cp -R "$pgstage/out/pgdata" "$pgt" && chmod -R a+rX "$pgt" || die "cannot copy the cluster to $pgt"
rm -rf "$pgstage"
root_kb=$(du -sk "$dir/root" | cut -f1)
nfiles=$(find "$dir/root" | wc -l)
say "PostgreSQL cluster: $(du -sk "$pgt" | cut -f1) KiB in ${pgt#"$dir/root"}"

# ---- the image -------------------------------------------------------------
step "make the ext4 image" "$dir/mke2fs.log"
# Sized to fit: the data plus an eighth, the inodes plus a tenth; no
# journal (the disk is only ever mounted read-only); a UUID from the key.
inodes=$((nfiles + nfiles / 10 + 64))
img_kb=$(( (root_kb + root_kb / 8 + inodes / 4 + 4096) / 4 * 4 ))
uuid=$(echo "$key$key" | sed -E 's/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/\1-\2-\3-\4-\5/')
for attempt in 1 2 3; do
	rm -f "$dir/apps.img.tmp"
	if mke2fs -q -F -t ext4 -O ^has_journal -b 4096 -N "$inodes" -m 0 -L wberr-apps \
		-U "$uuid" -E "root_owner=0:0,hash_seed=$uuid" -d "$dir/root" \
		"$dir/apps.img.tmp" "${img_kb}k" > "$dir/mke2fs.log" 2>&1; then
		break
	fi
	[ "$attempt" = 3 ] && die "mke2fs -d $dir/root failed at ${img_kb} KiB: $(tail -n 2 "$dir/mke2fs.log" | tr '\n' ' ')"
	say "mke2fs: ${img_kb} KiB is too small ($(tail -n 1 "$dir/mke2fs.log")); a quarter more"
	img_kb=$(( (img_kb + img_kb / 4) / 4 * 4 ))
done
step "check the ext4 image" "$dir/e2fsck.log"
e2fsck -fn "$dir/apps.img.tmp" > "$dir/e2fsck.log" 2>&1 ||
	die "e2fsck -fn of the new image failed (status $?): $(tail -n 3 "$dir/e2fsck.log" | tr '\n' ' ')"
mv "$dir/apps.img.tmp" "$dir/apps.img"
echo "$key" > "$dir/.done"
publish
dl_total=0
for p in "${pkgs[@]}"; do dl_total=$((dl_total + size[$p])); done
say "$out: $((img_kb / 1024)) MiB image, $((root_kb / 1024)) MiB of files, ${#kept[@]} packages ($((dl_total / 1048576)) MiB of .deb files, $((dl_bytes / 1048576)) MiB downloaded now), $(( $(date +%s) - t_start ))s"
