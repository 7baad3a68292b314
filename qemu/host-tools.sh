# SPDX-License-Identifier: GPL-2.0
#
# Sourced by qemu/mkimage.sh and qemu/mkapps.sh: the host programs the
# guest image carries unmodified (mkimage.sh copies each with its ldd
# closure), and the libraries that closure puts in the image, which the
# apps disk (mkapps.sh) may rely on instead of shipping its own.

host_tools=(
	/usr/sbin/dmsetup /usr/sbin/lvm /usr/sbin/losetup /usr/sbin/blockdev
	/usr/bin/fio /usr/sbin/mke2fs /usr/sbin/dumpe2fs /usr/sbin/e2fsck
	/usr/sbin/filefrag /usr/sbin/mkfs.xfs /usr/sbin/xfs_io /usr/sbin/mkfs.btrfs
	/usr/bin/btrfs
)

# host_tool_libs: the file names of the shared libraries (and the loader)
# the image gets with the host tools, one a line, sorted.  The image
# keeps each under the name ldd resolved it to, which is the soname a
# DT_NEEDED entry asks for.
host_tool_libs() {
	local t
	for t in "${host_tools[@]}"; do
		[ -x "$t" ] || continue
		ldd "$t" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}'
	done | sed 's,.*/,,' | LC_ALL=C sort -u
}
