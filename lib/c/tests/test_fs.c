// SPDX-License-Identifier: GPL-2.0
/*
 * wb_fs: the file-system table, and scenarios/README.md's lists of file
 * systems against it (every "raw, ext4, ..." and "raw|ext4|..." there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>

#include "wb_fs.h"
#include "wb_sys.h"
#include "wb_test.h"

static int has_dax(const struct wb_fs_desc *f)
{
	return f->mkfs_dax != NULL;
}

static void test_table(void)
{
	char buf[128];

	is_int(WB_FS_XFS, wb_fs_by_name("xfs"), "by name");
	is_int(-1, wb_fs_by_name("zfs"), "an unknown name");
	is_int(WB_FS_BTRFS, wb_fs_by_magic(BTRFS_SUPER_MAGIC), "btrfs by its statfs magic");
	is_int(WB_FS_EXT4, wb_fs_by_magic(EXT2_SUPER_MAGIC), "ext2's magic is ext4's: ext4 first");
	is_int(-1, wb_fs_by_magic(0), "no magic, no file system");
	ok(!wb_fs[WB_FS_RAW].mkfs && !wb_fs[WB_FS_RAW].file_faults, "raw: no mkfs, no file-targeted faults");
	ok(wb_fs[WB_FS_EXT4].data_modes && !wb_fs[WB_FS_XFS].data_modes, "data modes: ext4's");
	ok(wb_fs[WB_FS_BTRFS].extents == WB_FS_EXTENTS_CHUNKS && wb_fs[WB_FS_BTRFS].fsync_as_flags,
	   "btrfs: extents through the chunk tree, fsync through the AS_* flags");
	ok(strstr(wb_fs[WB_FS_EXT4].mkfs_dax, "-b 4096") != NULL, "DAX ext4 gets page-size blocks");
	wb_fs_list(buf, sizeof(buf), has_dax, "and");
	is_str("ext4 and xfs", buf, "the DAX file systems, listed");
	wb_fs_list(buf, sizeof(buf), NULL, NULL);
	is_str("raw, ext4, ext2, xfs, btrfs", buf, "all, listed");
	for (int i = 0; i < WB_FS__N; i++)
		if (wb_fs[i].mkfs_dax && !wb_fs[i].mount_dax)
			ok(0, "%s: a DAX mkfs needs its DAX mount option", wb_fs[i].name);
}

/* every list of file-system names in @doc, after "raw" and up to a
 * character that is neither a name nor a separator */
static void test_readme(void)
{
	char path[512], want[128], got[128];
	char *doc, *p;
	int lists = 0;

	snprintf(path, sizeof(path), "%s/scenarios/README.md", TOP_DIR);
	doc = wb_read_file(path, NULL);
	ok(doc != NULL, "scenarios/README.md is readable (%s)", path);
	if (!doc)
		return;
	wb_fs_list(want, sizeof(want), NULL, NULL);
	for (p = strstr(doc, "raw, ext4"); p; p = strstr(p + 1, "raw, ext4")) {
		size_t n = 0;

		while (p[n] && (p[n] == ',' || p[n] == ' ' || (p[n] >= 'a' && p[n] <= 'z') ||
				(p[n] >= '0' && p[n] <= '9')))
			n++;
		snprintf(got, sizeof(got), "%.*s", (int)n, p);
		/* "..., btrfs, all" or "..., btrfs or default": the table's list first */
		ok(!strncmp(got, want, strlen(want)) && (!got[strlen(want)] || got[strlen(want)] == ','
							 || got[strlen(want)] == ' '),
		   "a README list of file systems is the table's (%s)", got);
		lists++;
	}
	for (p = strstr(doc, "{raw|"); p; p = strstr(p + 1, "{raw|")) {
		size_t o = 0;

		for (int i = 0; i < WB_FS__N; i++)
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s|", i ? "" : "{", wb_fs[i].name);
		ok(!strncmp(p, want, strlen(want)), "a README {fs|...} mapping names the table's (%.40s)", p);
		lists++;
	}
	ok(lists >= 4, "README has the lists (%d)", lists);
	free(doc);
}

int main(void)
{
	test_table();
	test_readme();
	return tap_done();
}
