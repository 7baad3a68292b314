/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file systems wberr tests, in one table: the names (WB_FS_LIST, from
 * which wberr-run's enum fs_kind is made too), how each is made (mkfs for
 * the page cache and for DAX) and mounted, which of them has ext4's data
 * modes, takes file-targeted faults, and how a file's data is found on the
 * device.  wberr-run's parser, device stack and fault programmer, the
 * kernel facts (wb_kernel.c), the extent mapper (wb_fiemap.c) and, through
 * `wberr-names fs|mkfs|module`, the guest image and the shell tests read
 * it; a new file system is one row here plus its own code.
 */
#ifndef WB_FS_H
#define WB_FS_H

#include <stddef.h>

/* X(suffix, name): in the order instance ids, reports and shards list them */
#define WB_FS_LIST(X) \
	X(RAW, raw) \
	X(EXT4, ext4) \
	X(EXT2, ext2) \
	X(XFS, xfs) \
	X(BTRFS, btrfs)

enum wb_fs {
#define WB_FS_ENUM(sfx, name) WB_FS_##sfx,
	WB_FS_LIST(WB_FS_ENUM)
#undef WB_FS_ENUM
	WB_FS__N
};

/* how a file's data is found on the device under the file system */
enum wb_fs_extents {
	WB_FS_EXTENTS_NONE,	/* raw: the block device is the file */
	WB_FS_EXTENTS_FIEMAP,	/* FIEMAP's physical addresses are the device's */
	WB_FS_EXTENTS_CHUNKS,	/* FIEMAP gives btrfs's logical addresses: map them
				 * through the chunk tree (single device, SINGLE data) */
};

struct wb_fs_desc {
	const char *name;	/* scenarios, mount(2)'s type, instance ids */
	const char *mkfs;	/* the command that makes it (page cache); NULL: no
				 * file system (raw) */
	const char *mkfs_dax;	/* on the pmem, for mount -o <mount_dax>; NULL: no DAX */
	const char *mount_dax;	/* the mount option that makes file data DAX */
	const char *module;	/* the kernel module that has it (a modular kernel) */
	unsigned long magic;	/* statfs()'s f_type; 0: none (raw) */
	int data_modes;		/* mount -o data=ordered|writeback|journal */
	int file_faults;	/* a fault may target a file's extents */
	int extents;		/* WB_FS_EXTENTS_* */
	/*
	 * fsync returns filemap_check_errors()'s reading of the legacy AS_EIO
	 * and AS_ENOSPC flags (EIO unless ENOSPC alone), while
	 * file_check_and_advance_wb_err() advances the cursor in the same call
	 * (btrfs_sync_file() -> btrfs_wait_ordered_range())
	 */
	int fsync_as_flags;
};

extern const struct wb_fs_desc wb_fs[WB_FS__N];
/* the index of @name, or -1 */
int wb_fs_by_name(const char *name);
/* the first file system with statfs f_type @magic (ext2 and ext4 share
 * theirs: the first, ext4, is returned), or -1 */
int wb_fs_by_magic(unsigned long magic);
/* the names of the file systems for which @pick is true (NULL: all),
 * "a, b and c" with @last "and", "a, b, c" with @last NULL */
void wb_fs_list(char *buf, size_t len, int (*pick)(const struct wb_fs_desc *), const char *last);

#endif
