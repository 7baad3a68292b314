/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program mode's judge: what each injected fault came to in the run of an
 * unmodified program (sqlite3, PostgreSQL), from the trace of every
 * sync-family call it made.
 *
 * Nothing is asked of the program: tracefs records it (lib/c's
 * wb_tracefs_program(): the sync and write syscalls' entry and exit,
 * io_uring submit and complete, the errseq events), for every task,
 * because filemap_set_wb_err fires in completion context in whatever task
 * ends the bio.  lib/c parses it (wb_trace.h) and attributes it
 * (wb_attr.h: calls by syscall windows, each set to its fault, each
 * cursor move to its call); this module asks program mode's question of
 * that answer, sc_judge(), and renders it, sc_render_text() and
 * sc_render_json().
 *
 * Why the cursor events and not only the return values: errseq_t reports
 * an error once per open file description (struct file), so "who saw
 * fault 3" is answered by the file_check_and_advance_wb_err event that
 * moved that description's f_wb_err past the mapping's set, and its
 * hashed file= pointer names the description (a fork shares it, a second
 * open() does not).
 */
#ifndef WBERR_SYNCTRACE_H
#define WBERR_SYNCTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wb_attr.h"

/* one fault of the plan: the fault-log entries its rules produced */
struct sc_fault {
	unsigned int id;
	int err;		/* errno expected; 0 for a silent action (drop) */
	uint32_t major, minor;	/* the device its rules are on */
	const size_t *log;	/* indices in the faults given to wb_attr_faults() */
	size_t nlog;
};

enum sc_verdict { SC_NOT_FIRED, SC_SILENT, SC_LOST, SC_SEEN };
/* "not-fired", "silent", "lost", "seen" */
const char *sc_verdict_name(int verdict);

/* one call (or untraced path) that was told about a fault */
struct sc_seer {
	long call;		/* -1: a cursor move no traced call claimed */
	long cursor;		/* its cursor move (event index); -1: syncfs without one */
	long set;		/* the set it consumed (event index); -1: through the super block */
	int match;		/* ret == -errno recorded: 1, 0, or -1 not known */
};

struct sc_fate {
	int verdict;
	size_t nfired;			/* fault-log entries: bios failed or dropped */
	uint64_t fired_us, last_us;	/* the first and last of them */
	size_t nhit;			/* of them, those on a file's data after the run */
	size_t *sets;			/* the set events it led to */
	size_t nsets;
	struct sc_seer *seers;
	size_t nseers, cap;
};

/* a call's phase: the program's own, or the checker's after recovery */
enum sc_phase { SC_PHASE_PROGRAM, SC_PHASE_CHECK };

struct sc_judge {
	const struct wb_trace *t;
	const struct wb_attr *a;
	const struct sc_fault *faults;
	size_t nfaults;
	uint32_t self;			/* the runner's pid: its calls are left out */
	size_t *sets, nsets;		/* the set events, in trace order */
	size_t *curs, ncurs;		/* the cursor moves, in trace order */
	long *pos;			/* [t->n] a set's or cursor move's position in those */
	unsigned char *phase;		/* [a->ncalls] enum sc_phase */
	struct sc_fate *fates;		/* one per fault, in the caller's order */
	long *set_fate;			/* [t->n] a set's fault (index in faults), -1 */
	size_t *unexplained;		/* the program's calls that failed and no fault explains */
	size_t nunexplained;
};

/*
 * Program mode's question, asked of @a (built on @t with WB_WIN_SYSCALLS,
 * and wb_attr_faults() on the run's fault log):
 *  - fired: the fault's log entries (first, last, how many);
 *  - its sets: the sets whose fault (wb_attr.h's rule) is one of its entries;
 *  - seers: each cursor move that consumed one of its sets (wb_attr_consumed),
 *    and each failing syncfs (and sync) that returned the errno of one of
 *    its sets recorded before the call returned (mapping_set_error sets
 *    s_wb_err with the mapping), on its device when a sb cursor event says
 *    which (patch 0005);
 *  - verdict: seen (anyone saw it), else not-fired, else lost (a set, no
 *    one consumed it: e.g. the inode was evicted), else silent (nothing
 *    recorded: a drop, or a fault the file system swallowed);
 *  - unexplained (wb_invariants' cause rule): a call of the program that
 *    failed and saw no fault.  A write-family call counts only when its
 *    errno is one a write to a file can have from the device (the trace
 *    shows an fd number, not what it is: a pipe's EPIPE is no write-back
 *    error), and the checker's calls (between the "check start" and
 *    "check end" marks) are its own phase, never the program's.
 * Calls and cursor moves of @self (its tgid, or its tid where tgids were
 * not recorded) are left out.  @after (may be NULL): the files on the mount
 * after the run, to say whose data a silent fault's bios were on.  0, or
 * -1 when out of memory.
 */
int sc_judge(struct sc_judge *j, const struct wb_attr *a, uint32_t self, const struct sc_fault *faults,
	     size_t nfaults, const struct wb_files *after);
void sc_judge_free(struct sc_judge *j);
/* whether a task (@tid of @tgid, 0 = not recorded) is the runner itself */
int sc_is_self(const struct sc_judge *j, uint32_t tid, uint32_t tgid);
/* whether call @k is the program's (not the runner's, not the checker's) */
int sc_program_call(const struct sc_judge *j, size_t k);
/* whether call @k is one of the program's sync-family results: not a
 * write that failed on a pipe or socket (see unexplained above) */
int sc_sync_result(const struct sc_judge *j, size_t k);

/* a fault of the plan as the runner armed it: the dm-wberr rules it became */
struct sc_plan {
	unsigned int id;
	int err;		/* errno expected; 0 for a silent action (drop) */
	const unsigned int *rules;
	size_t nrules;
};

/* a judged run: what program mode and its replay both build */
struct sc_run {
	struct wb_trace t;	/* the caller parses the trace into it first */
	struct wb_attr a;
	struct sc_judge j;
	struct sc_fault *faults;
	size_t *logidx;
};

/*
 * @r->t attributed (syscall windows) against the fault log @log[nlog] on
 * @major:@minor and the files faults aimed at, @aimed; each fault of
 * @plan[n] gets the log entries of its rules; then sc_judge() with @self
 * and @after.  0, or -1 when out of memory.
 */
int sc_run_judge(struct sc_run *r, const struct wb_fault *log, size_t nlog, const struct wb_files *aimed,
		 const struct wb_files *after, uint32_t major, uint32_t minor, uint32_t self,
		 const struct sc_plan *plan, size_t n);
void sc_run_free(struct sc_run *r);

/* inode -> path, which the caller builds by walking the mount */
struct sc_path {
	uint32_t major, minor;
	uint64_t ino;
	const char *path;
};
/* NULL when the table does not have it */
const char *sc_path_of(const struct sc_path *paths, size_t n, uint32_t major, uint32_t minor,
		       uint64_t ino);

struct sc_report {
	const struct sc_judge *j;
	const struct sc_path *paths;
	size_t npaths;
};

/*
 * One line per event in time order, times in ms relative to the first
 * mark (else the first event): marks, faults fired, sets, sync calls
 * (pid, comm, fd, path, return, errno name, the fault it consumed), then
 * a verdict per fault, the unexplained errors and the checker's errors.
 */
void sc_render_text(FILE *out, const struct sc_report *r);
/* the same as one JSON object: marks, calls, cursors, sets, faults, unexplained */
void sc_render_json(FILE *out, const struct sc_report *r);

#endif
