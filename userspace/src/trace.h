/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing the filemap errseq tracepoints and wberr-run's step markers. */
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

/* set-up, markers and reading the buffer: lib/c's wb_tracefs */

#endif
