/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-process records of every sync call (and every other outcome a check
 * needs), fixed-size binary, one file per worker: recs.<proc>.bin in the
 * run directory.  Times are CLOCK_MONOTONIC ns taken just before and just
 * after the system call.
 */
#ifndef WBS_REC_H
#define WBS_REC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum wbs_op {
	WBS_OP_OPEN,		/* fd opened; ret is the fd number */
	WBS_OP_FSYNC,
	WBS_OP_FDATASYNC,
	WBS_OP_SYNCFS,
	WBS_OP_WRITE_ERR,	/* a buffered pwrite() that failed */
	WBS_OP_SUMMARY,		/* end of worker: counts in ino/ret/err/file */
	WBS_OP_NR
};

enum wbs_phase {
	WBS_PHASE_LOOP,		/* while faults are being injected */
	WBS_PHASE_SWEEP,	/* final sync of every fd, faults cleared */
};

struct wbs_rec {
	uint64_t t0, t1;	/* ns before / after the call */
	uint64_t ino;		/* inode of the fd's file (SUMMARY: writes) */
	uint32_t pid;
	uint32_t seq;		/* per-process record number */
	int32_t ret;		/* SUMMARY: syncs */
	int32_t err;		/* errno when ret < 0 (SUMMARY: write errors) */
	uint16_t proc;		/* worker index */
	uint16_t file;		/* file index (SUMMARY: loop ms / 1000, capped) */
	uint8_t fdi;		/* fd index within the worker */
	uint8_t op;		/* enum wbs_op */
	uint8_t phase;		/* enum wbs_phase */
	uint8_t pad[5];
};

const char *wbs_op_name(unsigned int op);
int wbs_op_is_fsync_family(unsigned int op);	/* fsync or fdatasync */

/* Writer: buffered, flushed at close. */
struct wbs_rec_writer {
	FILE *f;
	uint32_t seq;
};
int wbs_rec_open(struct wbs_rec_writer *w, const char *dir, unsigned int proc);
void wbs_rec_put(struct wbs_rec_writer *w, struct wbs_rec *r);
int wbs_rec_close(struct wbs_rec_writer *w);

/* Every recs.*.bin in @dir, sorted by (t0, proc, seq).  0 or -1. */
struct wbs_recs {
	struct wbs_rec *v;
	size_t n;
};
int wbs_recs_load(struct wbs_recs *rs, const char *dir);
void wbs_recs_sort(struct wbs_recs *rs);
void wbs_recs_free(struct wbs_recs *rs);
/* One line per record, for humans (records.txt). */
void wbs_rec_print(FILE *f, const struct wbs_rec *r);

#endif
