/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call records of an evidence directory (docs/architecture.md,
 * "Evidence"): one fixed-size binary record per call, one file per
 * process, recs.<proc>.bin.  Times are CLOCK_MONOTONIC ns taken just before
 * and just after the system call.  seq is the number the call's trace
 * markers carry (wb_call_mark, wb_trace.h): wberr-stress numbers each
 * worker's records 0, 1, 2...; wberr-run records every step, numbered by
 * the step (it sets the writer's seq before each put).
 */
#ifndef WB_REC_H
#define WB_REC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum wb_rec_op {
	WB_REC_OPEN,		/* fd opened; ret is the fd number */
	WB_REC_FSYNC,
	WB_REC_FDATASYNC,
	WB_REC_SYNCFS,
	WB_REC_WRITE_ERR,	/* a buffered pwrite() that failed */
	WB_REC_SUMMARY,		/* end of worker: counts in ino/ret/err/file */
	WB_REC_STEP,		/* wberr-run: a step of another op (steps.txt names it) */
	WB_REC_NR
};

enum wb_rec_phase {
	WB_REC_PHASE_LOOP,		/* while faults are being injected */
	WB_REC_PHASE_SWEEP,	/* final sync of every fd, faults cleared */
};

struct wb_rec {
	uint64_t t0, t1;	/* ns before / after the call */
	uint64_t ino;		/* inode of the fd's file (SUMMARY: writes) */
	uint32_t pid;
	uint32_t seq;		/* per-process record number */
	int32_t ret;		/* SUMMARY: syncs */
	int32_t err;		/* errno when ret < 0 (SUMMARY: write errors) */
	uint16_t proc;		/* worker index */
	uint16_t file;		/* file index (SUMMARY: loop ms / 1000, capped) */
	uint8_t fdi;		/* fd index within the worker */
	uint8_t op;		/* enum wb_rec_op */
	uint8_t phase;		/* enum wb_rec_phase */
	uint8_t pad[5];
};

const char *wb_rec_op_name(unsigned int op);
int wb_rec_op_is_fsync(unsigned int op);	/* fsync or fdatasync */

/* Writer: buffered, flushed at close; put numbers the record w->seq++. */
struct wb_rec_writer {
	FILE *f;
	uint32_t seq;
};
int wb_rec_open(struct wb_rec_writer *w, const char *dir, unsigned int proc);
void wb_rec_put(struct wb_rec_writer *w, struct wb_rec *r);
int wb_rec_close(struct wb_rec_writer *w);

/* Every recs.*.bin in @dir (its other files are not read), sorted by
 * (t0, proc, seq).  0 or -1. */
struct wb_recs {
	struct wb_rec *v;
	size_t n;
};
int wb_recs_load(struct wb_recs *rs, const char *dir);
void wb_recs_sort(struct wb_recs *rs);
void wb_recs_free(struct wb_recs *rs);
/* One line per record, for humans (records.txt). */
void wb_rec_print(FILE *f, const struct wb_rec *r);

#endif
