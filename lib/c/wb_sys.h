/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-file reads and writes, for procfs, sysfs, tracefs and results. */
#ifndef WB_SYS_H
#define WB_SYS_H

#include <stddef.h>

/* the whole file, NUL-terminated, its length in *len (if not NULL); NULL on error */
char *wb_read_file(const char *path, size_t *len);
/*
 * Writes @text to an existing file opened O_TRUNC, as the shell's '>' does
 * (tracefs's "trace" is cleared by it); 0 when every byte was taken.
 */
int wb_write_file(const char *path, const char *text);

#endif
