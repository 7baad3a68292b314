/* SPDX-License-Identifier: GPL-2.0 */
/* tracefs: the filemap errseq tracepoints, with step markers. */
#ifndef WBERR_TRACE_H
#define WBERR_TRACE_H

#include <stddef.h>
#include "wb_errseq.h"

enum tr_kind { TR_SET, TR_ADVANCE, TR_SB_ADVANCE, TR_MARK };

struct tr_event {
	int kind;
	unsigned maj, min;
	unsigned long ino;
	wb_errseq_t a, b;		/* set: the traced errseq; advance: old, new */
	int err;		/* set: errno recorded (patched kernels print errno=), else -1 */
	int pid;
	char mark[64];		/* TR_MARK: text after "wberr-mark:" */
};

/* parse a whole "trace" file; returns the number of events */
int trace_parse(const char *text, struct tr_event **v, int *n, int *cap);

/* clear, size, enable the events; 1 when syncfs's event exists too, 0 if not, -1 on error */
int trace_setup(const char *root);
int trace_mark(const char *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* read and clear; returns malloc'ed text */
char *trace_take(const char *root);
void trace_stop(const char *root);

#endif
