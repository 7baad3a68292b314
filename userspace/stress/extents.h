/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test files and where their data lives on the device: FIEMAP
 * (lib/c's wb_fiemap) turns each file's extents into device sector
 * ranges, which become dm-wberr rule
 * ranges (so faults hit the files' data and never fs metadata or the
 * journal) and let the oracle tie each logged fault to a file.
 * Saved as files.txt in the run directory:
 *   file <idx> <ino> <path>
 *   ext <idx> <first_sector> <last_sector>
 */
#ifndef WBS_EXTENTS_H
#define WBS_EXTENTS_H

#include <stddef.h>
#include <stdint.h>

struct wbs_extent {
	unsigned int file;
	uint64_t first, last;	/* 512-byte sectors, inclusive */
};

struct wbs_files {
	unsigned int nfiles;
	uint64_t *ino;		/* [nfiles] */
	char **path;		/* [nfiles] */
	struct wbs_extent *ext;
	size_t next;
};

/* Appends @fd's extents as file @idx; -1 if FIEMAP fails or an extent is
 * not plain written data (unwritten, delalloc, inline, encoded...). */
int wbs_files_add(struct wbs_files *fs, unsigned int idx, int fd,
		  const char *path);
int wbs_files_save(const struct wbs_files *fs, const char *dir);
int wbs_files_load(struct wbs_files *fs, const char *dir);
void wbs_files_free(struct wbs_files *fs);

/* File index owning inode @ino, or -1. */
int wbs_files_by_ino(const struct wbs_files *fs, uint64_t ino);
/* Calls back for every file whose data overlaps [first, last]; returns the
 * number of files hit. */
unsigned int wbs_files_hit(const struct wbs_files *fs, uint64_t first,
			   uint64_t last, unsigned char *hit /* [nfiles] */);

#endif
