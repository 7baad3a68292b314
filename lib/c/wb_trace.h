/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of tracefs's "trace" file, for the errseq tracepoints and
 * trace_marker writes.  The head (kernel/trace/trace_output.c,
 * trace_print_context(), 6.12):
 *   "%16s-%-7d " comm, pid
 *   "(%7d) " tgid, or "(-------) " when unknown  (only with options/record-tgid)
 *   "[%03d] " cpu
 *   flags, 5 characters and a space             (only with options/irq-info)
 *   " %5lu.%06lu: " seconds.microseconds        (trace_clock mono and friends)
 * then <event>: <fields>:
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
 */
#ifndef WB_TRACE_H
#define WB_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum wb_tev_kind { WB_TEV_SET, WB_TEV_ADVANCE, WB_TEV_SB_ADVANCE, WB_TEV_MARK };

struct wb_tev {
	int kind;
	uint64_t us;		/* timestamp in microseconds (trace_clock's) */
	uint32_t cpu, pid;
	uint32_t tgid;		/* with options/record-tgid; 0 when not printed */
	uint32_t major, minor;
	uint64_t ino;
	uint32_t errseq;	/* SET: errseq= as printed */
	uint32_t old, new;	/* SET: the value before errseq_set (old= when printed,
				 * else errseq=) and, in the form with old=, after it
				 * (else 0); ADVANCE: the cursor's */
	int err;		/* SET with patch 0005: the errno recorded; else -1 */
	char file[24];		/* ADVANCE: hashed struct file pointer */
	char mark[64];		/* MARK: the text written */
};

/* 0 and *e filled when @line is one of these events, -1 otherwise */
int wb_tev_parse(const char *line, struct wb_tev *e);

/*
 * The head of any event line, so that every parser of "trace" reads it
 * the same way (wb_tev_parse, and program mode's syscall, io_uring and
 * sched events).  The comm is the text before the last '-' ahead of the
 * pid, leading padding dropped, so comms with dashes or spaces survive.
 */
struct wb_thead {
	uint64_t us;		/* timestamp in microseconds (trace_clock's) */
	uint32_t pid;		/* the task (thread) id */
	uint32_t tgid;		/* 0 when record-tgid is off or the tgid unknown */
	uint32_t cpu;
	char comm[16];		/* TASK_COMM_LEN, "<...>" when the kernel forgot it */
	const char *body;	/* into the line: "<event>: ..." or a syscall's text */
};
/* 0 and *h when @line has a head, -1 for comments and anything else */
int wb_trace_head(const char *line, struct wb_thead *h);

/*
 * The marker both tools write into trace_marker before (B) and after (E) a
 * call, so that the events between a call's two lines are the call's:
 *   wb B|E <proc> <fd> <seq>
 * wberr-run: the step's process (index), fd 0 (its fds have names), and
 * the step number;
 * wberr-stress: the worker, its fd index and the call's sequence number.
 */
struct wb_call_mark {
	char what;		/* 'B' or 'E' */
	unsigned int proc, fd, seq;
};
/* the line, newline included, into @buf: its length, or -1 if it does not fit */
int wb_call_mark_format(char *buf, size_t len, const struct wb_call_mark *m);
/* 0 and *m when @text (a MARK's text) is a call marker, -1 otherwise */
int wb_call_mark_parse(const char *text, struct wb_call_mark *m);

#endif
