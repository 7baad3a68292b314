/* SPDX-License-Identifier: GPL-2.0 */
/* tracefs: the filemap errseq tracepoints, with step markers. */
#ifndef WBERR_TRACE_H
#define WBERR_TRACE_H

#include <stddef.h>
#include "errseq.h"

enum tr_kind { TR_SET, TR_ADVANCE, TR_MARK };

struct tr_event {
	int kind;
	unsigned maj, min;
	unsigned long ino;
	errseq_t a, b;		/* set: previous value; advance: old, new */
	int pid;
	char mark[64];		/* TR_MARK: text after "wberr-mark:" */
};

/* parse a whole "trace" file; returns the number of events */
int trace_parse(const char *text, struct tr_event **v, int *n, int *cap);

int trace_setup(const char *root);	/* clear, size, enable the two events */
int trace_mark(const char *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* read and clear; returns malloc'ed text */
char *trace_take(const char *root);
void trace_stop(const char *root);

#endif
