/* SPDX-License-Identifier: GPL-2.0 */
/* Arms the errseq tracepoints (lib/c wb_tracefs) and keeps the trace. */
#ifndef WBS_TRACEFS_H
#define WBS_TRACEFS_H

/* trace_clock mono, @buffer_kb per CPU, events enabled, buffer empty. */
int wbs_tracefs_start(const char *tracefs, unsigned int buffer_kb);
/* Stops tracing and copies the trace into <dir>/trace.txt. */
int wbs_tracefs_stop(const char *tracefs, const char *dir);

#endif
