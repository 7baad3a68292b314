/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wberr-run's evidence directory: what the cross-checks of one instance
 * judged, written during the live run (--evidence) and read back by
 * --replay on the host.  The files wberr-stress also writes have its names
 * and are written and read by the same lib/c code; docs/architecture.md
 * ("Evidence") specifies them:
 *   meta.txt        key=value: tool, id, fs, status, seed, traced,
 *                   sb_traced, steps, live_crosscheck (ok|fail)
 *   recs.<proc>.bin one wb_rec per step (lib/c wb_rec), seq = the step
 *   faults.txt      every fault-log entry (lib/c wb_faultlog), after an
 *                   "event <ns> step <i>" line for the step that fetched it
 *   trace.txt       the raw trace text taken after each step, after a
 *                   "# wberr-run step <i>" line (a comment to the parsers)
 * and one file of wberr-run's own, the model's side of each step:
 *   steps.txt       step <i> <op> proc=<p> explicit=<0|1> fault_op=<0|1> nlog=<n> <what...>
 *                   fault <i> <fault seq> ino=0x<ino> <path>
 *                   pred <i> sb=<0|1> consumed=<0|1> err=<ERRNAME> before=0x.. after=0x.. ino=0x<ino>
 */
#ifndef WBERR_EVIDENCE_H
#define WBERR_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "crosscheck.h"
#include "synctrace.h"
#include "wb_faultlog.h"
#include "wb_files.h"
#include "wb_meta.h"
#include "wb_rec.h"

#define EV_MAX_PROCS 16

/* ------------------------------------------------------------ writer */

struct evidence {
	char dir[4096];
	FILE *faults, *trace, *steps;
	struct wb_rec_writer rec[EV_MAX_PROCS];
	int nsteps, failed;	/* steps written; of which a cross-check failed */
};

/* the directory name of instance @id: every byte but [A-Za-z0-9._+-] becomes '_' */
void evidence_dirname(const char *id, char *buf, size_t len);

/* creates @root/<evidence_dirname(@id)>/ with its files; 0 or -1 (errno) */
int evidence_open(struct evidence *e, const char *root, const char *id);

/* what one step adds; @faults[nfaults] are the log entries it fetched */
struct evidence_step {
	const struct xc_step *xs;
	int xc_ok;			/* what xc_step() returned live */
	const char *op, *proc, *what;
	unsigned int proc_index;
	uint64_t t0, t1;		/* CLOCK_MONOTONIC ns around the call */
	int ret;
	const struct wb_fault *faults;
	size_t nfaults;
	const char *trace;		/* the raw trace text taken, or NULL */
};
void evidence_step(struct evidence *e, const struct evidence_step *s);

/* meta.txt, and every file closed; 0 or -1 */
int evidence_close(struct evidence *e, const char *id, const char *fs, const char *status,
		  uint64_t seed, int traced, int sb_traced);

/* removes what evidence_open() made for @id under @root (--evidence-failed
 * keeps failing instances only); 0 or -1 */
int evidence_remove(const char *root, const char *id);

/* ------------------------------------------------------------ reader */

struct evidence_in_step {
	int present;
	char op[32], proc[32], what[160];
	struct xc_step xs;		/* attr points into attrs */
	struct xc_attr *attrs;
	size_t nattr;
	const char *trace;		/* its part of trace.txt (NUL-terminated) */
};

struct evidence_in {
	char id[256], fs[16], status[32];
	int traced, sb_traced, nsteps, live_ok;
	uint64_t seed;
	struct wb_faultlog faults;
	struct wb_recs recs;
	struct evidence_in_step *steps;	/* [nsteps] */
	char *trace_text, *steps_text;	/* owned, attr paths point into them */
};

/* 0, or -1 with the reason in @err */
int evidence_load(struct evidence_in *in, const char *dir, char *err, size_t len);
void evidence_free(struct evidence_in *in);

/* ------------------------------------------------------------ program mode */

/*
 * Program mode's evidence, in <results>/programs/<id>/ beside the
 * timeline: the files every tool writes (meta.txt with tool=program,
 * faults.txt, trace.txt, files.txt: the files faults aimed at, their
 * extents when armed), and two of its own:
 *   files-after.txt  the files on the mount when the program ended (files.txt's format)
 *   plan.txt         fault <id> <errno name, or 0 for a drop> <rule>...
 * trace.txt is written when the trace is taken; this writes the rest.
 */
struct program_evidence {
	const char *id, *fs, *status, *expect;
	uint32_t self, major, minor;
	const struct sc_judge *j;	/* the live verdicts */
	const struct sc_plan *plan;
	size_t nplan;
	const struct wb_fault *log;
	size_t nlog;
	const struct wb_files *aimed, *after;
};
/* 0, or -1 when a file could not be written */
int program_evidence_write(const char *dir, const struct program_evidence *e);

struct program_evidence_in {
	struct wb_meta meta;
	struct wb_faultlog faults;
	struct wb_files aimed, after;
	struct sc_plan *plan;
	unsigned int *rules;
	size_t nplan;
	char *trace_text;
	uint32_t major, minor, self;
};
/* 0, or -1 with the reason in @err */
int program_evidence_load(struct program_evidence_in *in, const char *dir, char *err, size_t len);
void program_evidence_free(struct program_evidence_in *in);

#endif
