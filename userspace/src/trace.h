/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing the filemap errseq tracepoints and wberr-run's step markers. */
#ifndef WBERR_TRACE_H
#define WBERR_TRACE_H

#include <stddef.h>
#include "wb_trace.h"

/*
 * Parses a whole "trace" file with wb_tev_parse; returns the number of
 * events.  Of the markers only the call markers are kept (wb_call_mark:
 * "wb B|E <proc> <fd> <step>"), as written.
 */
int trace_parse(const char *text, struct wb_tev **v, int *n, int *cap);

/* set-up, markers and reading the buffer: lib/c's wb_tracefs */

#endif
