/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs set-up for the errseq tracepoints: filemap_set_wb_err,
 * file_check_and_advance_wb_err and, with kernel/patches/0004,
 * file_check_and_advance_sb_err.  Timestamps on trace_clock "mono"
 * (CLOCK_MONOTONIC, the clock of dm-wberr's fault log).
 */
#ifndef WB_TRACEFS_H
#define WB_TRACEFS_H

/*
 * Mounts tracefs on @root if it is not there, stops tracing, sets the
 * clock and @buffer_kb per CPU, disables every other event, clears the
 * buffer, enables the errseq events and starts tracing.  Returns 1 when
 * the syncfs event exists too, 0 when not, -1 on error (errno set; the
 * step in *what when not NULL).
 */
int wb_tracefs_start(const char *root, unsigned int buffer_kb, const char **what);
/* disables the errseq events; tracing_on is left to the caller */
void wb_tracefs_events_off(const char *root);
/* the buffer's text (malloc'ed), then clears it; NULL on error */
char *wb_tracefs_take(const char *root);
/* one line into trace_marker */
int wb_tracefs_mark(const char *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
