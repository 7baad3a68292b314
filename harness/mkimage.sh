#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs: static busybox, the host's real dmsetup, lvm,
# fio and mkfs.* with their shared libraries (unmodified, no shims), our guest
# binaries, modules, tests and scenarios.  Uncompressed: gunzip costs ~3 s
# per boot under TCG.  Packed with the kernel's own gen_init_cpio, so no root
# is needed for device nodes and the archive is reproducible.
#
#   harness/mkimage.sh --kernel-tree DIR --out FILE [--modules DIR] [--kselftests DIR]
#   harness/mkimage.sh --debian DIR --out FILE [--modules DIR] [--kselftests DIR]
#
# --modules names the directory holding the out-of-tree .ko files (dm-wberr).
# --kselftests names a directory of kselftest programs built from the
# kernel tree (make kselftest), staged in /opt/wberr/kselftest.
# --debian DIR: a Debian shipped kernel unpacked by kernel/debian.sh (make
# KERNEL=debian-6.12|debian-6.1) instead of our tree.  That kernel is
# modular: the image gets the modules the suites need from its own package
# (debian_modules below, with their modules.dep closure), decompressed and
# run through depmod into /lib/modules/<release>, and /etc/wberr-modules,
# the list guest/init loads with modprobe before it looks for the disks.
# gen_init_cpio, which no Debian package ships, is compiled from
# linux-source-6.12's usr/gen_init_cpio.c into $WBERR_CACHE/tools/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/lib/sh/errtrap.sh"
errtrap_init image
build=$top/build
ktree= out= moddir= debdir= kstdir=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel-tree) ktree=$2; shift 2 ;;
	--debian) debdir=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--modules) moddir=$2; shift 2 ;;
	--kselftests) kstdir=$2; shift 2 ;;
	*) die "unknown argument '$1'" 2 ;;
	esac
done
[ -n "$ktree$debdir" ] && [ -n "$out" ] && { [ -z "$ktree" ] || [ -z "$debdir" ]; } ||
	die "usage: mkimage.sh --kernel-tree DIR|--debian DIR --out FILE [--modules DIR] [--kselftests DIR]" 2
if [ -n "$ktree" ]; then
	gen_init_cpio=$ktree/usr/gen_init_cpio
	[ -x "$gen_init_cpio" ] || die "$gen_init_cpio missing: build the kernel first (make kernel)"
else
	[ -f "$debdir/release" ] && [ -d "$debdir/root/lib/modules" ] ||
		die "$debdir is not a kernel unpacked by kernel/debian.sh (no release, no root/lib/modules): run make kernel KERNEL=debian-..."
	step "compile gen_init_cpio"
	src_tar=/usr/src/linux-source-6.12.tar.xz
	[ -f "$src_tar" ] || die "$src_tar missing (gen_init_cpio.c comes from it): install the Debian package linux-source-6.12 (make deps)"
	cache=${WBERR_CACHE:-$HOME/.cache/wberr}
	gen_init_cpio=$cache/tools/gen_init_cpio-$(stat -c '%s-%Y' "$src_tar")
	if [ ! -x "$gen_init_cpio" ]; then
		mkdir -p "$cache/tools"
		say "compiling gen_init_cpio from $src_tar (once)"
		tar -xJOf "$src_tar" linux-source-6.12/usr/gen_init_cpio.c > "$gen_init_cpio.c" ||
			die "cannot extract linux-source-6.12/usr/gen_init_cpio.c from $src_tar"
		${CC:-gcc} -O2 -o "$gen_init_cpio.tmp" "$gen_init_cpio.c" || die "cannot compile $gen_init_cpio.c"
		mv "$gen_init_cpio.tmp" "$gen_init_cpio"
	fi
fi

# Host programs the guest runs unmodified (harness/host-tools.sh, shared with
# mkapps.sh, which counts on their libraries).  Missing optional ones are noted.
. "$here/host-tools.sh"
lvm_cmds=(pvcreate pvremove vgcreate vgremove vgchange lvcreate lvremove lvs vgs pvs lvchange)

# Staging is named after the output, so two images can be built at once.
stage=$(dirname "$out")/.$(basename "$out").stage
root=$stage/root
list=$stage/image.list
step "stage the host tools"
rm -rf "$root"
mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,opt/apps,opt/wberr/{bin,modules,tests,share,libexec,kselftest}}

declare -A copied=()
copy_file() {	# copy a host file to the same path in the image, once
	local f=$1
	[ -n "${copied[$f]:-}" ] && return 0
	copied[$f]=1
	local dst=$root/${f#/}
	case "$f" in /lib/*|/lib64/*|/bin/*|/sbin/*) dst=$root/usr/${f#/} ;; esac
	mkdir -p "$(dirname "$dst")"
	cp -L "$f" "$dst"
}
copy_libs() {	# the ldd closure of a binary
	local bin=$1 lib
	while read -r lib; do
		[ -n "$lib" ] && copy_file "$lib"
	done < <(ldd "$bin" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}')
}

for t in "${host_tools[@]}"; do
	if [ -x "$t" ]; then copy_file "$t"; copy_libs "$t"; else echo "[image] note: $t not installed, left out" >&2; fi
done
for l in "${glibc_libs[@]}"; do
	[ -e "$l" ] && copy_file "$l"
done
for c in "${lvm_cmds[@]}"; do ln -sf lvm "$root/usr/sbin/$c"; done
# a file system's mkfs program that is a link on the host (mkfs.ext4 ->
# mke2fs, copied above) is the same link in the image
while read -r prog path; do
	[ "${path##*/}" = "$prog" ] || ln -sf "${path##*/}" "$root${path%/*}/$prog"
done < <(mkfs_programs)
cp /etc/mke2fs.conf "$root/etc/"
cp "$here/guest/lvm.conf" "$root/etc/lvm.conf" 2>/dev/null || true
mkdir -p "$root/etc/lvm" && mv "$root/etc/lvm.conf" "$root/etc/lvm/lvm.conf" 2>/dev/null || true

# Users: root, and wberr (uid/gid 1000) for programs that refuse to run as
# root (PostgreSQL; tests/apps, harness/guest/apps-env).  Home /tmp (a tmpfs).
# glibc's getpwuid reads these through nss_files, built into libc.
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' 'wberr:x:1000:1000:wberr:/tmp:/bin/sh' > "$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'wberr:x:1000:' > "$root/etc/group"
printf '%s\n' 'passwd: files' 'group: files' > "$root/etc/nsswitch.conf"

step "stage our guest binaries, modules and suites"
# Our own guest binaries and their libraries (libyaml, libdevmapper, ...).
if [ -d "$build/guest-bin" ]; then
	for b in "$build/guest-bin"/*; do
		[ -f "$b" ] && [ -x "$b" ] || continue
		cp "$b" "$root/opt/wberr/bin/"
		copy_libs "$b"
	done
fi

# The series' kselftest programs, when built for this kernel.
if [ -n "$kstdir" ] && [ -d "$kstdir" ]; then
	for b in "$kstdir"/*; do
		[ -f "$b" ] && [ -x "$b" ] || continue
		cp "$b" "$root/opt/wberr/kselftest/"
		copy_libs "$b"
	done
fi

# Modules: ours (dm-wberr.ko, the kmemleak control) and every module the
# tree's current config builds (KUnit suites).  modules.order, not a search
# for *.ko: a rebuild in place leaves the .ko of a dropped option behind.
[ -n "$moddir" ] && [ -d "$moddir" ] && cp "$moddir"/*.ko "$root/opt/wberr/modules/" 2>/dev/null || true
if [ -n "$ktree" ] && [ -f "$ktree/modules.order" ]; then
	while read -r m; do
		cp "$ktree/${m%.o}.ko" "$root/opt/wberr/modules/"
	done < "$ktree/modules.order"
fi

# A Debian kernel's own modules: what our config builds in and the suites
# use, in load order (crc32c_generic first: ext4, xfs and btrfs ask the
# crypto API for crc32c, which modules.dep does not show, and QEMU's TCG
# CPU has no SSE4.2 for crc32c-intel; nfit and nd_pmem for run-guest
# --pmem, the pfn (fsdax) code being part of libnvdimm; nvme for run-guest
# --nvme).  A name the kernel builds in or
# lacks (dm_dust on Debian) is noted and left out.
# The file systems' modules come from lib/c's table (wberr-names module).
debian_modules=(crc32c_generic virtio_pci virtio_blk dm_mod dm_flakey dm_dust dm_delay
	loop null_blk $(for fs in $("$wberr_names" fs); do "$wberr_names" module "$fs" || true; done | awk '!seen[$0]++')
	nfit nd_pmem nvme)
# Staged but not loaded at boot: wberr-run loads them for the real-driver
# backends (docs/real-drivers.md), scsi_debug with the size an instance
# asks for, sd_mod first (the disk driver, which udev loads on a
# distribution: scsi_debug does not depend on it).
debian_on_demand=(sd_mod scsi_debug dm_thin_pool)
if [ -n "$debdir" ]; then
	step "stage the modules of $debdir"
	rel=$(cat "$debdir/release")
	kmods=$debdir/root/lib/modules/$rel
	[ -f "$kmods/modules.dep" ] || die "$kmods/modules.dep missing: the image package was not unpacked whole (kernel/debian.sh)"
	mstage=$stage/mods
	rm -rf "$mstage"; mkdir -p "$mstage/lib/modules/$rel"
	# name (dashes as underscores) -> path, and path -> its dependencies
	declare -A mpath=() mdeps=() taken=()
	while IFS= read -r line; do
		f=${line%%:*} n=${f##*/}; n=${n%%.ko*}; n=${n//-/_}
		mpath[$n]=$f mdeps[$f]=${line#*:}
	done < "$kmods/modules.dep"
	take() {	# a module file and, first, its dependencies
		local f=$1 d
		[ -n "${taken[$f]:-}" ] && return 0
		taken[$f]=1
		for d in ${mdeps[$f]}; do take "$d"; done
		mkdir -p "$mstage/lib/modules/$rel/$(dirname "$f")"
		case "$f" in
		*.ko.xz) xz -dc "$kmods/$f" > "$mstage/lib/modules/$rel/${f%.xz}" || die "xz -d $kmods/$f failed" ;;
		*.ko.zst) zstd -qdc "$kmods/$f" > "$mstage/lib/modules/$rel/${f%.zst}" || die "zstd -d $kmods/$f failed" ;;
		*.ko) cp "$kmods/$f" "$mstage/lib/modules/$rel/$f" ;;
		*) die "$kmods/modules.dep names $f, not a .ko, .ko.xz or .ko.zst" ;;
		esac
	}
	loaded=()
	for m in "${debian_modules[@]}"; do
		if [ -n "${mpath[$m]:-}" ]; then
			take "${mpath[$m]}"; loaded+=("$m")
		elif grep -qE "/${m//_/[-_]}\.ko\$" "$kmods/modules.builtin" 2>/dev/null; then
			say "note: $m is built into $rel"
		else
			say "note: $rel has no module $m, left out"
		fi
	done
	for m in "${debian_on_demand[@]}"; do
		if [ -n "${mpath[$m]:-}" ]; then
			take "${mpath[$m]}"
		else
			say "note: $rel has no module $m, left out"
		fi
	done
	cp "$kmods"/modules.builtin* "$kmods/modules.order" "$mstage/lib/modules/$rel/" 2>/dev/null || true
	command -v depmod > /dev/null || die "depmod not found: install the Debian package kmod (make deps)"
	depmod -b "$mstage" "$rel" 2> "$stage/depmod.log" ||
		die "depmod -b $mstage $rel failed: $(tail -n 3 "$stage/depmod.log" | tr '\n' ' ')"
	mkdir -p "$root/usr/lib/modules"
	mv "$mstage/lib/modules/$rel" "$root/usr/lib/modules/$rel"
	printf '%s\n' "${loaded[@]}" > "$root/etc/wberr-modules"
	say "$rel: ${#taken[@]} modules ($(du -sm "$root/usr/lib/modules/$rel" | cut -f1) MiB decompressed), loaded at boot: ${loaded[*]}"
fi

# Guest tests: the whole tests/ tree (tests/README.md), so a new test or
# group is picked up without an edit here.
cp -r "$top/tests/." "$root/opt/wberr/tests/"
rm -f "$root/opt/wberr/tests/README.md"
[ -d "$top/scenarios" ] && cp -rL "$top/scenarios" "$root/opt/wberr/share/"
install -m 0755 "$here/guest/init" "$root/init"
install -m 0755 "$here/guest/run-suites" "$root/opt/wberr/libexec/run-suites"
install -m 0644 "$top/lib/sh/tap.sh" "$root/opt/wberr/libexec/tap.sh"
install -m 0644 "$top/lib/sh/shard.sh" "$root/opt/wberr/libexec/shard.sh"
install -m 0644 "$top/lib/sh/manifest.sh" "$root/opt/wberr/libexec/manifest.sh"
install -m 0644 "$here/guest/artifacts" "$root/opt/wberr/libexec/artifacts"
install -m 0644 "$here/guest/lib.sh" "$root/opt/wberr/libexec/lib.sh"
install -m 0644 "$here/guest/apps-env" "$root/opt/wberr/libexec/apps-env"
install -m 0644 "$here/guest/oops-patterns" "$root/opt/wberr/libexec/oops-patterns"
install -m 0755 "$here/guest/bench-dm.sh" "$root/opt/wberr/libexec/bench-dm.sh"
install -m 0755 "$here/guest/bench-burst.sh" "$root/opt/wberr/libexec/bench-burst.sh"
install -m 0755 "$here/guest/bench-held.sh" "$root/opt/wberr/libexec/bench-held.sh"

busybox=/bin/busybox
[ -x "$busybox" ] || die "$busybox missing: install the Debian package busybox-static (make deps)"
case "$(ldd "$busybox" 2>&1)" in *'not a dynamic'*) ;; *) false ;; esac ||
	die "$busybox is not static: install the Debian package busybox-static (make deps)"
cp "$busybox" "$root/usr/bin/busybox"

# The archive list: merged-/usr layout like Debian, busybox applets only
# where no real tool of that name was copied in.
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	for d in proc sys tmp run mnt results payload; do echo "dir /$d 0755 0 0"; done
	echo "slink /bin usr/bin 0777 0 0"
	echo "slink /sbin usr/sbin 0777 0 0"
	echo "slink /lib usr/lib 0777 0 0"
	echo "slink /lib64 usr/lib64 0777 0 0"
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort) | while read -r p; do
		p=${p#./}
		if [ -L "$root/$p" ]; then
			echo "slink /$p $(readlink "$root/$p") 0777 0 0"
		elif [ -d "$root/$p" ]; then
			echo "dir /$p 0755 0 0"
		else
			echo "file /$p $root/$p $(stat -c '%a' "$root/$p") 0 0"
		fi
	done
	"$busybox" --list-full | LC_ALL=C sort | while read -r a; do
		case "$a" in
		bin/*|usr/bin/*) dst=usr/bin/${a##*/} ;;
		sbin/*|usr/sbin/*) dst=usr/sbin/${a##*/} ;;
		*) continue ;;
		esac
		[ -e "$root/usr/bin/${a##*/}" ] || [ -e "$root/usr/sbin/${a##*/}" ] || [ "${a##*/}" = busybox ] && continue
		echo "slink /$dst /usr/bin/busybox 0777 0 0"
	done | LC_ALL=C sort -u
} > "$list"

step "pack $out" "$list"
mkdir -p "$(dirname "$out")"
"$gen_init_cpio" -t 0 "$list" > "$out.tmp"
mv "$out.tmp" "$out"
echo "[image] $(basename "$out"): $(du -m "$out" | cut -f1) MiB, $(grep -c '^file' "$list") files"
