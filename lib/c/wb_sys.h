/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-file reads and writes, for procfs, sysfs, tracefs and results. */
#ifndef WB_SYS_H
#define WB_SYS_H

#include <stddef.h>
#include <stdio.h>

/* the whole file, NUL-terminated, its length in *len (if not NULL); NULL on error */
char *wb_read_file(const char *path, size_t *len);
/* the same, opened O_NONBLOCK: what a pipe (tracefs's trace_pipe) holds
 * now, up to its EAGAIN, without waiting for more */
char *wb_drain_file(const char *path, size_t *len);
/*
 * Writes @text to an existing file opened O_TRUNC, as the shell's '>' does
 * (tracefs's "trace" is cleared by it); 0 when every byte was taken.
 */
int wb_write_file(const char *path, const char *text);
/* fopen(@dir/@name, @mode): a file of a results or evidence directory */
FILE *wb_fopen_in(const char *dir, const char *name, const char *mode);

/*
 * Keep the flusher from writing dirty pages back behind a test's back, so
 * that only the test's own fsync (or sync, or eviction) starts writeback.
 * Not 0 in dirty_writeback_centisecs: 0 stops periodic writeback, but then
 * wb_wakeup_delayed() (mm/backing-dev.c) wakes the flusher as soon as an
 * inode is first dirtied, and a fresh dm device's bdi has almost no share of
 * the background threshold (wb_over_bg_thresh()), so everything is written
 * back at once.  An hour keeps both the periodic and the first-dirty
 * wakeups out.  The guest tests do the same with flusher_hold in
 * harness/guest/lib.sh.  Returns 0 when both sysctls took the value.
 */
int wb_flusher_hold(void);
/* the kernel's defaults again: 5 s interval, 30 s expiry */
int wb_flusher_restore(void);

#endif
