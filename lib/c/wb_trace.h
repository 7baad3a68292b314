/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one parser of tracefs's "trace" text, for every wberr judge
 * (wberr-run, wberr-stress, program mode): one event shape, struct wb_ev,
 * and one whole-trace container, struct wb_trace.  Attribution (which call
 * a cursor move belongs to, which fault a set came from) is wb_attr.h's.
 *
 * The head of a line (kernel/trace/trace_output.c, trace_print_context(),
 * 6.12):
 *   "%16s-%-7d " comm, pid
 *   "(%7d) " tgid, or "(-------) " when unknown  (only with options/record-tgid)
 *   "[%03d] " cpu
 *   flags, 5 characters and a space             (only with options/irq-info)
 *   " %5lu.%06lu: " seconds.microseconds        (trace_clock mono and friends)
 * then <event>: <fields>.  The events read:
 *   filemap_set_wb_err: dev=M:m ino=0x.. errseq=0x..      (stock 6.12:
 *                       errseq= is errseq_set()'s return, the value BEFORE)
 *   filemap_set_wb_err: dev=M:m ino=0x.. errseq=0x.. errno=N
 *                       (kernel/patches/0005: errseq= as stock, errno= the
 *                       error recorded)
 *   filemap_set_wb_err: dev=M:m ino=0x.. errseq=0x.. old=0x.. errno=N seq=N
 *                       (0005 before issue 14: errseq= was the NEW value and
 *                       old= the one before; still parsed, for old traces)
 *   file_check_and_advance_wb_err: file=.. dev=M:m ino=0x.. old=0x.. new=0x..
 *                       (0005 adds errno=N seq=N, decoded from new=)
 *   file_check_and_advance_sb_err: same fields (patch 0005, syncfs)
 *   tracing_mark_write: <text>
 *   syscalls (kernel/trace/trace_syscalls.c): "sys_fsync(fd: 3)", every
 *             argument "%s: %lx" (hex, no 0x); "sys_fsync -> 0x%lx" (a
 *             negative return is 0xfffffffffffffffb); only wb_syscalls[]
 *   io_uring  (include/trace/events/io_uring.h)
 *             "io_uring_submit_req: ring %p, req %p, user_data 0x%llx, opcode %s, ..."
 *             (6.1: io_uring_submit_sqe, the same fields up to opcode)
 *             "io_uring_file_get: ring %p, req %p, user_data 0x%llx, fd %d"
 *             "io_uring_complete: ring %p, req %p, user_data 0x%llx, result %d, ..."
 *   sched     "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d"
 *             "sched_process_exec: filename=%s pid=%d old_pid=%d"
 *   block     (include/trace/events/block.h) what a real driver's failure
 *             left, in place of dm-wberr's fault log (wb_backend.h):
 *             "block_rq_complete: %d,%d %s (%s) %llu + %u %s,%u,%u [%d]"
 *             and block_rq_error the same (6.1: without the ioprio
 *             "%s,%u,%u"), "block_bio_complete: %d,%d %s %llu + %u [%d]":
 *             the device, rwbs (blk_fill_rwbs()), sector, sectors and
 *             blk_status_to_errno() of the status, 0 on success
 * plus two kinds of lines that are no events: the header's
 * "entries-in-buffer/entries-written: N/M" and "[LOST N EVENTS]", which
 * say what the ring lost.
 */
#ifndef WB_TRACE_H
#define WB_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum wb_ev_kind {
	WB_EV_SET,		/* filemap_set_wb_err: an error recorded in a mapping */
	WB_EV_ADVANCE,		/* file_check_and_advance_wb_err: an fd's cursor */
	WB_EV_SB_ADVANCE,	/* file_check_and_advance_sb_err (patch 0005) */
	WB_EV_MARK,		/* trace_marker text */
	WB_EV_SYS_ENTER,	/* a syscall of wb_syscalls[] */
	WB_EV_SYS_EXIT,
	WB_EV_URING_SUBMIT,	/* an io_uring request submitted (any opcode) */
	WB_EV_URING_FILE,	/* its fd */
	WB_EV_URING_COMPLETE,
	WB_EV_FORK,		/* sched_process_fork */
	WB_EV_EXEC,		/* sched_process_exec */
	WB_EV_BLK,		/* block_rq_complete, block_rq_error, block_bio_complete */
	WB_EV_NR
};

/*
 * The marker both tools write into trace_marker before (B) and after (E) a
 * call, so that the events between a call's two lines are the call's:
 *   wb B|E <proc> <fd> <seq>
 * wberr-run: the step's process (index), fd 0 (its fds have names), and
 * the step number; wberr-stress: the worker, its fd index and the call's
 * sequence number.  Program mode's runner marks its phases "wb app <phase>".
 */
struct wb_call_mark {
	char what;		/* 'B' or 'E' */
	unsigned int proc, fd, seq;
};
#define WB_APP_MARK "wb app "

/* the call kinds every judge names: the sync family, as program mode sees it */
enum wb_call_kind {
	WB_CALL_FSYNC,
	WB_CALL_FDATASYNC,
	WB_CALL_MSYNC,
	WB_CALL_SYNC_FILE_RANGE,
	WB_CALL_SYNCFS,
	WB_CALL_SYNC,
	WB_CALL_O_SYNC_WRITE,	/* write family whose call moved a cursor (O_SYNC,
				 * O_DSYNC, RWF_*SYNC: generic_write_sync ->
				 * vfs_fsync_range), or that failed */
	WB_CALL_URING_FSYNC,
	WB_CALL_URING_SYNC_FILE_RANGE,
	WB_CALL_OTHER,		/* a marked call of another op (wberr-run's steps) */
	WB_CALL_NR
};
/* "fsync" ... "uring_sync_file_range", "other" */
const char *wb_call_kind_name(int kind);

/* the syscalls the parser keeps: the sync family and the write family */
struct wb_syscall {
	const char *name;
	int kind;		/* enum wb_call_kind */
	int write;		/* write family: a call only when it synced or failed */
};
extern const struct wb_syscall wb_syscalls[];
extern const size_t wb_nr_syscalls;

struct wb_ev_errseq {
	uint32_t major, minor;	/* dev= (the super block's s_dev) */
	uint64_t ino;
	uint32_t errseq;	/* SET: errseq= as printed */
	uint32_t old, new;	/* SET: the value before errseq_set (old= when printed,
				 * else errseq=) and, in the form with old=, after
				 * it (else 0); ADVANCE: the cursor's */
	int err;		/* SET: the errno recorded (patch 0005), else -1;
				 * ADVANCE: the errno consumed (new's when old !=
				 * new), else 0 */
	char file[24];		/* ADVANCE: hashed struct file pointer */
};

struct wb_ev_mark {
	char text[64];		/* the text written, newline dropped */
	int is_call;		/* the text is a wb_call_mark: */
	struct wb_call_mark call;
};

struct wb_ev_sys {
	unsigned int sys;	/* index in wb_syscalls[] */
	int fd;			/* ENTER: -1 when the call has none */
	uint64_t off, len;	/* ENTER: msync: start, len; sync_file_range: offset,
				 * nbytes; write family: pos, count */
	unsigned int flags;	/* ENTER: msync, sync_file_range: flags; pwritev2: rwf */
	long long ret;		/* EXIT */
};

struct wb_ev_uring {
	char ring[24], req[24];
	unsigned long long user_data;
	char op[20];		/* SUBMIT: the opcode ("FSYNC") */
	int val;		/* FILE: the fd; COMPLETE: the result */
};

struct wb_ev_proc {
	uint32_t pid;		/* FORK: the child (a thread too); EXEC: the task */
	uint32_t parent;	/* FORK: the parent; EXEC: 0 */
	char comm[16];		/* FORK: the child's; EXEC: the new one */
	char exe[96];		/* EXEC: the filename */
};

struct wb_ev_blk {
	uint32_t major, minor;	/* the request's disk, or the bio's device */
	char rwbs[8];		/* blk_fill_rwbs(): [F]{W,R,D,DE,F,N}[F][A][S][M] */
	uint64_t sector;
	uint32_t nr;		/* sectors */
	int err;		/* positive errno of the status, 0 on success */
	int bio;		/* block_bio_complete: a bio (a bio-based device) */
};

/* one event: the line's head, and what the event says */
struct wb_ev {
	uint8_t kind;		/* enum wb_ev_kind */
	uint32_t line;		/* 1-based line in the text parsed: orders events of one us */
	size_t off;		/* where the line starts in wb_trace.text */
	uint64_t us;		/* timestamp in microseconds (trace_clock's) */
	uint32_t cpu, pid;	/* pid: the task (thread) id */
	uint32_t tgid;		/* with options/record-tgid; 0 when not printed */
	char comm[16];		/* TASK_COMM_LEN, "<...>" when the kernel forgot it */
	union {
		struct wb_ev_errseq es;	/* SET, ADVANCE, SB_ADVANCE */
		struct wb_ev_mark mark;	/* MARK */
		struct wb_ev_sys sys;	/* SYS_ENTER, SYS_EXIT */
		struct wb_ev_uring ur;	/* URING_* */
		struct wb_ev_proc proc;	/* FORK, EXEC */
		struct wb_ev_blk blk;	/* BLK */
	};
};

static inline int wb_ev_is_errseq(const struct wb_ev *e)
{
	return e->kind <= WB_EV_SB_ADVANCE;
}

static inline int wb_ev_is_advance(const struct wb_ev *e)
{
	return e->kind == WB_EV_ADVANCE || e->kind == WB_EV_SB_ADVANCE;
}

/* 0 and *e filled when @line is one of the events above, -1 otherwise */
int wb_ev_parse(const char *line, struct wb_ev *e);

/*
 * The head of any event line.  The comm is the text before the last '-'
 * ahead of the pid, leading padding dropped, so comms with dashes or
 * spaces survive.
 */
struct wb_thead {
	uint64_t us;		/* timestamp in microseconds (trace_clock's) */
	uint32_t pid;		/* the task (thread) id */
	uint32_t tgid;		/* 0 when record-tgid is off or the tgid unknown */
	uint32_t cpu;
	char comm[16];
	const char *body;	/* into the line: "<event>: ..." or a syscall's text */
};
/* 0 and *h when @line has a head, -1 for comments and anything else */
int wb_trace_head(const char *line, struct wb_thead *h);

/* the line, newline included, into @buf: its length, or -1 if it does not fit */
int wb_call_mark_format(char *buf, size_t len, const struct wb_call_mark *m);
/* 0 and *m when @text (a MARK's text) is a call marker, -1 otherwise */
int wb_call_mark_parse(const char *text, struct wb_call_mark *m);

/* a whole trace: its events in text order, and what the ring lost */
struct wb_trace {
	struct wb_ev *v;
	size_t n, cap;
	char *text;		/* every text parsed, in order (the events' lines) */
	size_t len;
	size_t lines;		/* lines read */
	size_t skipped;		/* lines that looked like ours and did not parse */
	uint64_t lost;		/* "[LOST n EVENTS]" and entries-written - entries-in-buffer */
	int header_seen;	/* an "entries-in-buffer/entries-written" header was read */
	int tgids;		/* some line had record-tgid's column */
};

/*
 * Appends the events of @text to @t (zeroed before the first call): a
 * trace taken in several pieces is parsed piece by piece, line numbers
 * going on.  Comments, other events and malformed lines are skipped (one
 * torn line must not hide a run).  0, or -1 when out of memory.
 */
int wb_trace_parse(struct wb_trace *t, const char *text);
/* wb_trace_parse() of the file @path into a zeroed @t: 0, or -1 */
int wb_trace_load(struct wb_trace *t, const char *path);
/* the raw text of event @e's line, without its newline, into @buf */
const char *wb_trace_line(const struct wb_trace *t, const struct wb_ev *e, char *buf, size_t len);
/*
 * Orders the events by time stamp, text order breaking ties (tracefs
 * merges the CPUs' buffers by time stamp; pieces taken one after another
 * are in order already, so this only settles what a CPU wrote out of
 * order).  Event indices change: call it before attributing.
 */
void wb_trace_sort(struct wb_trace *t);
void wb_trace_free(struct wb_trace *t);

#endif
