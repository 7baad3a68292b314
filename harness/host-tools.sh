# SPDX-License-Identifier: GPL-2.0
#
# Sourced by harness/mkimage.sh and harness/mkapps.sh (after lib/sh/errtrap.sh,
# with $here their directory): the host programs the guest image carries
# unmodified (mkimage.sh copies each with its ldd closure), the file
# systems' mkfs programs among them, and the libraries that closure puts
# in the image, which the apps disk (mkapps.sh) may rely on instead of
# shipping its own.

# lib/c's tables for shell scripts: make builds it (lib/c) before the
# image and the apps disk
wberr_names=${WBERR_NAMES:-$here/../build/lib/wberr-names}
[ -x "$wberr_names" ] || die "$wberr_names missing: make builds it (make -C lib/c) before the image"

# mkfs_programs: "<program> <host file>" for the mkfs of every file system
# in lib/c's table (wberr-names mkfs), the host file being what the
# program resolves to (mkfs.ext4 -> /usr/sbin/mke2fs), one a line.
mkfs_programs() {
	local fs cmd prog d
	for fs in $("$wberr_names" fs); do
		cmd=$("$wberr_names" mkfs "$fs") || continue
		prog=${cmd%% *}
		for d in /usr/sbin /usr/bin; do
			if [ -e "$d/$prog" ]; then
				echo "$prog $(readlink -f "$d/$prog")"
				break
			fi
		done
	done | sort -u
}

host_tools=(
	/usr/sbin/dmsetup /usr/sbin/lvm /usr/sbin/losetup /usr/sbin/blockdev
	/usr/bin/fio /usr/sbin/dumpe2fs /usr/sbin/e2fsck
	/usr/sbin/filefrag /usr/sbin/xfs_io /usr/bin/btrfs
	$(mkfs_programs | awk '{ print $2 }' | sort -u)
)

# glibc's own libraries that no host tool links but Debian's programs on
# the apps disk do (libpthread.so.0: lmdb-utils, libgflags; a stub since
# glibc 2.34, and with libdl, librt and libm of the same build as the
# image's libc.so.6, which the apps disk never ships: mkapps.sh).
glibc_libs=(
	/lib/x86_64-linux-gnu/libpthread.so.0 /lib/x86_64-linux-gnu/libdl.so.2
	/lib/x86_64-linux-gnu/librt.so.1 /lib/x86_64-linux-gnu/libm.so.6
)

# host_tool_libs: the file names of the shared libraries (and the loader)
# the image gets with the host tools, one a line, sorted.  The image
# keeps each under the name ldd resolved it to, which is the soname a
# DT_NEEDED entry asks for.
host_tool_libs() {
	local t
	{
	for t in "${host_tools[@]}"; do
		[ -x "$t" ] || continue
		ldd "$t" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}'
	done
	for t in "${glibc_libs[@]}"; do
		[ -e "$t" ] && echo "$t"
	done
	} | sed 's,.*/,,' | LC_ALL=C sort -u
}
