/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs set-up for the errseq tracepoints: filemap_set_wb_err,
 * file_check_and_advance_wb_err and, with kernel/patches/0005,
 * file_check_and_advance_sb_err.  Timestamps on trace_clock "mono"
 * (CLOCK_MONOTONIC, the clock of dm-wberr's fault log).
 */
#ifndef WB_TRACEFS_H
#define WB_TRACEFS_H

/*
 * Mounts tracefs on @root if it is not there, stops tracing, sets the
 * clock and @buffer_kb per CPU (where they differ), disables every other
 * event, empties the buffer, enables the errseq events and starts tracing.  Returns 1 when
 * the syncfs event exists too, 0 when not, -1 on error (errno set; the
 * step in *what when not NULL).
 */
int wb_tracefs_start(const char *root, unsigned int buffer_kb, const char **what);
/*
 * After wb_tracefs_start(): @on 1 enables block_rq_complete and
 * block_bio_complete with the filter "error != 0" (the failed
 * completions a real driver's fault log is made of, wb_backend.h), 0
 * disables them.  0, or -1 (errno set).
 */
int wb_tracefs_blk(const char *root, int on);
/* disables the errseq events; tracing_on is left to the caller */
void wb_tracefs_events_off(const char *root);
/*
 * Program mode (wberr-run running an unmodified program): besides the
 * errseq events, every sync-family call the program makes, without a pid
 * filter (set_event_pid would also hide filemap_set_wb_err, which fires in
 * writeback completion context in other tasks).  tools/wberr-run/synctrace.h
 * reads the result.
 */
enum {
	WB_TRACEFS_SYSCALLS	= 1 << 0,	/* always, on success: sys_enter_/sys_exit_ of
						 * fsync fdatasync msync sync_file_range syncfs
						 * sync write pwrite64 writev pwritev pwritev2 */
	WB_TRACEFS_URING	= 1 << 1,	/* io_uring_submit_req (6.1: _sqe), io_uring_complete */
	WB_TRACEFS_URING_FD	= 1 << 2,	/* io_uring_file_get: a request's fd */
	WB_TRACEFS_SCHED	= 1 << 3,	/* sched_process_fork, sched_process_exec */
	WB_TRACEFS_TGID		= 1 << 4,	/* options/record-tgid: lines carry the tgid */
};
/*
 * After wb_tracefs_start(): sets options/record-tgid and enables the
 * events above.  The syscall events are required (the write family is how
 * an O_SYNC write's cursor move is told from a stray one): without them
 * -1, errno ENOENT, *what the first missing event, which on a kernel
 * built without CONFIG_FTRACE_SYSCALLS (Debian's 6.1 and 6.12 have it) is the
 * events/syscalls directory itself.  The others are optional (no io_uring
 * in the kernel, an old option name): their bits say what is on.  Returns
 * the bits, or -1 (errno set, the step in *what when not NULL).
 */
int wb_tracefs_program(const char *root, const char **what);
/* disables program mode's events and record-tgid */
void wb_tracefs_program_off(const char *root);
/* the buffer's text (malloc'ed), consumed from trace_pipe; NULL on error */
char *wb_tracefs_take(const char *root);
/* one line into trace_marker */
int wb_tracefs_mark(const char *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
