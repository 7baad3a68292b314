/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files a judge knows and where their data lives on the device under
 * test: inode, path and extents (512-byte sectors, inclusive), so that a
 * logged fault's sectors name the files it hit and a traced errseq event's
 * inode names its file.  wberr-stress writes its test files here (and as
 * files.txt in its evidence), wberr-run its model's inodes with every
 * extent they have had, program mode the files it aimed faults at and the
 * files on the mount when the program ended.  files.txt:
 *   file <idx> <ino> <path>
 *   ext <idx> <first_sector> <last_sector>
 */
#ifndef WB_FILES_H
#define WB_FILES_H

#include <stddef.h>
#include <stdint.h>

struct wb_file_ext {
	unsigned int file;
	uint64_t first, last;
};

struct wb_files {
	unsigned int nfiles;
	uint64_t *ino;		/* [nfiles] */
	char **path;		/* [nfiles] */
	struct wb_file_ext *ext;
	size_t next;
};

/* file @idx is @ino at @path (the table grows to hold it): 0 or -1 */
int wb_files_set(struct wb_files *fs, unsigned int idx, uint64_t ino, const char *path);
/* the next free index for @ino at @path, or its index when @ino is known: >= 0, or -1 */
int wb_files_find_or_add(struct wb_files *fs, uint64_t ino, const char *path);
/* sectors [@first, @last] are file @idx's data (a repeat is kept once): 0 or -1 */
int wb_files_add_extent(struct wb_files *fs, unsigned int idx, uint64_t first, uint64_t last);
/* @fs as @dir/@name (files.txt, unless a tool keeps two tables) */
int wb_files_save(const struct wb_files *fs, const char *dir, const char *name);
/* @dir/@name into a zeroed @fs: 0, or -1 (no such file, or out of memory) */
int wb_files_load(struct wb_files *fs, const char *dir, const char *name);
void wb_files_free(struct wb_files *fs);

/* the file index of inode @ino, or -1 */
int wb_files_by_ino(const struct wb_files *fs, uint64_t ino);
/* which files' data [@first, @last] overlaps (@hit[nfiles], 0 or 1 each): their number */
unsigned int wb_files_hit(const struct wb_files *fs, uint64_t first, uint64_t last,
			  unsigned char *hit);

#endif
