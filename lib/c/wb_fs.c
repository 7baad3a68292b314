// SPDX-License-Identifier: GPL-2.0
#include "wb_fs.h"

#include <stdio.h>
#include <string.h>
#include <linux/magic.h>

/* mke2fs: no lazy inode table or journal init, which would write behind
 * the scenario's back after mount; DAX needs the page size as the block
 * size, and mke2fs makes 1k blocks on a "small" (< 512 MiB) file system */
#define MKE2FS_EAGER "-E lazy_itable_init=0,lazy_journal_init=0"

const struct wb_fs_desc wb_fs[WB_FS__N] = {
	[WB_FS_RAW] = {
		.name = "raw",
		.extents = WB_FS_EXTENTS_NONE,
	},
	[WB_FS_EXT4] = {
		.name = "ext4",
		.mkfs = "mkfs.ext4 -F -q " MKE2FS_EAGER,
		.mkfs_dax = "mkfs.ext4 -F -q -b 4096 " MKE2FS_EAGER,
		.mount_dax = "dax=always",
		.module = "ext4",
		.magic = EXT4_SUPER_MAGIC,
		.data_modes = 1,
		.file_faults = 1,
		.extents = WB_FS_EXTENTS_FIEMAP,
	},
	[WB_FS_EXT2] = {
		.name = "ext2",
		.mkfs = "mkfs.ext2 -F -q -E lazy_itable_init=0",
		/* the ext4 driver mounts ext2 (CONFIG_EXT4_USE_FOR_EXT2) */
		.module = "ext4",
		.magic = EXT2_SUPER_MAGIC,
		.file_faults = 1,
		.extents = WB_FS_EXTENTS_FIEMAP,
	},
	[WB_FS_XFS] = {
		.name = "xfs",
		.mkfs = "mkfs.xfs -f -q",
		.mkfs_dax = "mkfs.xfs -f -q",
		.mount_dax = "dax=always",
		.module = "xfs",
		.magic = XFS_SUPER_MAGIC,
		.file_faults = 1,
		.extents = WB_FS_EXTENTS_FIEMAP,
	},
	[WB_FS_BTRFS] = {
		.name = "btrfs",
		.mkfs = "mkfs.btrfs -f -q",
		.module = "btrfs",
		.magic = BTRFS_SUPER_MAGIC,
		.file_faults = 1,
		.extents = WB_FS_EXTENTS_CHUNKS,
		.fsync_as_flags = 1,
	},
};

int wb_fs_by_name(const char *name)
{
	for (int i = 0; i < WB_FS__N; i++)
		if (!strcmp(wb_fs[i].name, name))
			return i;
	return -1;
}

int wb_fs_by_magic(unsigned long magic)
{
	for (int i = 0; magic && i < WB_FS__N; i++)
		if (wb_fs[i].magic == magic)
			return i;
	return -1;
}

void wb_fs_list(char *buf, size_t len, int (*pick)(const struct wb_fs_desc *), const char *last)
{
	int n = 0, total = 0;
	size_t off = 0;

	for (int i = 0; i < WB_FS__N; i++)
		total += !pick || pick(&wb_fs[i]);
	buf[0] = 0;
	for (int i = 0; i < WB_FS__N && off < len; i++) {
		const char *sep = !n ? "" : n < total - 1 || !last ? ", " : NULL;

		if (pick && !pick(&wb_fs[i]))
			continue;
		if (sep)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, wb_fs[i].name);
		else
			off += (size_t)snprintf(buf + off, len - off, " %s %s", last, wb_fs[i].name);
		n++;
	}
}
