/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One stress process: opens its fds, then loops pwrite / fsync / fdatasync
 * / syncfs over them with its own seeded PRNG until the deadline, recording
 * every sync call (rec.h) and bracketing it with trace_marker lines
 * "wb B|E <proc> <fdi> <seq>" (lib/c wb_call_mark) so the oracle can place the call among the
 * errseq tracepoints in the trace's own order.  Then it waits for the final sweep, syncs every
 * fd once more (fsync and syncfs) with the faults cleared, and exits.
 *
 * Synchronisation with the runner is by pipes: one byte on @ready_fd once
 * the fds are open, start at EOF on @go_fd, one byte on @done_fd when the
 * loop ends, sweep at EOF on @sweep_fd.
 */
#ifndef WBS_WORKER_H
#define WBS_WORKER_H

#include <stddef.h>
#include <stdint.h>

#define WBS_MAX_FDS 16

struct wbs_worker_cfg {
	unsigned int proc;
	unsigned int nfds;
	const char *path[WBS_MAX_FDS];
	unsigned int file[WBS_MAX_FDS];
	uint64_t seed;
	uint64_t duration_ns;
	size_t file_size;
	const char *outdir;
	const char *marker;	/* tracefs trace_marker, or NULL */
	int ready_fd, go_fd, done_fd, sweep_fd;
};

/* Returns the process exit status. */
int wbs_worker_main(const struct wbs_worker_cfg *cfg);

#endif
