/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test files and where their data lives on the device: FIEMAP
 * (lib/c's wb_fiemap) turns each file's extents into device sector
 * ranges, which become dm-wberr rule ranges (so faults hit the files' data
 * and never fs metadata or the journal) and let the oracle tie each logged
 * fault to a file (lib/c's wb_files, saved as files.txt).
 */
#ifndef WBS_EXTENTS_H
#define WBS_EXTENTS_H

#include "wb_files.h"

/* Appends @fd's extents as file @idx; -1 if FIEMAP fails or an extent is
 * not plain written data (unwritten, delalloc, inline, encoded...). */
int wbs_files_add(struct wb_files *fs, unsigned int idx, int fd, const char *path);

#endif
