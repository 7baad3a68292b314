/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The errseq tracepoints as read back from tracefs (trace.txt, text, with
 * trace_clock "mono" so timestamps are CLOCK_MONOTONIC, printed in us):
 *   filemap:filemap_set_wb_err  dev=M:m ino=0x.. errseq=0x..  (OLD value)
 *   filemap:file_check_and_advance_wb_err
 *                               file=%p dev=M:m ino=0x.. old=0x.. new=0x..
 * With kernel/patches 0004 the set event prints errseq= as the NEW value
 * plus old=, and syncfs gets filemap:file_check_and_advance_sb_err (same
 * fields as the fsync one); both forms are read.
 *   ftrace:print (trace_marker)  wb B|E <proc> <fdi> <seq>   written by
 *                               the workers around every sync call
 * plus errseq_t arithmetic (lib/errseq.c) on the printed values.
 */
#ifndef WBS_TRACE_H
#define WBS_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum wbs_tev_type {
	WBS_TEV_SET,
	WBS_TEV_ADVANCE,
	WBS_TEV_MARK,		/* trace_marker "wb B|E <proc> <fdi> <seq>" */
	WBS_TEV_SB_ADVANCE,	/* file_check_and_advance_sb_err (patch 0004) */
	WBS_TEV_IGNORED = 0xff,
};

struct wbs_tev {
	uint64_t us;		/* timestamp, microseconds */
	uint64_t ino;
	uint32_t pid;
	uint32_t major, minor;
	uint32_t old, new;	/* SET: old = the value before errseq_set */
	uint32_t ord;		/* position in the trace, breaks timestamp ties */
	uint32_t cpu;
	/* MARK: 'B' before a sync call, 'E' after it; record (proc, seq) */
	char mark;
	uint32_t proc, fdi, seq;
	uint8_t type;
	char file[24];		/* ADVANCE: hashed struct file pointer */
	char *line;		/* the raw trace line */
};

struct wbs_trace {
	struct wbs_tev *v;
	size_t n, cap;
	uint64_t lost;		/* entries-written - entries-in-buffer */
	int header_seen;
};

int wbs_trace_parse(struct wbs_trace *t, const char *text);
int wbs_trace_load(struct wbs_trace *t, const char *dir);
void wbs_trace_free(struct wbs_trace *t);


#endif
