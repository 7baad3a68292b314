/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program mode's record of an unmodified program (sqlite3, PostgreSQL):
 * every sync-family call it made, which injected fault each one was told
 * about, and through which open file description.
 *
 * Nothing is asked of the program: tracefs records it (lib/c's
 * wb_tracefs_program(): the sync and write syscalls' entry and exit,
 * io_uring submit and complete, the two errseq events), for every task,
 * because filemap_set_wb_err fires in completion context in whatever task
 * ends the bio.  This module has three jobs, one section of the API each:
 *
 *  1. sc_parse(): the trace text into calls, errseq cursor moves, mapping
 *     sets and the runner's "wb app <phase>" markers;
 *  2. sc_attribute(): each injected fault to the sets it led to and to
 *     every call whose cursor consumed one of them, with a verdict;
 *  3. sc_render_text() / sc_render_json(): a timeline to read, JSON to keep.
 *
 * Times are trace_clock "mono" microseconds; dm-wberr's fault log ns are
 * ktime_get_ns(), the same clock, so fault fires and trace events order.
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

#include "wb_faultlog.h"

/* ---- 1. the parsed trace ---------------------------------------------- */

enum sc_kind {
	SC_FSYNC,
	SC_FDATASYNC,
	SC_MSYNC,
	SC_SYNC_FILE_RANGE,
	SC_SYNCFS,
	SC_SYNC,
	SC_O_SYNC_WRITE,	/* write family whose call moved a cursor (O_SYNC,
				 * O_DSYNC, RWF_*SYNC: generic_write_sync ->
				 * vfs_fsync_range), or that failed */
	SC_URING_FSYNC,
	SC_URING_SYNC_FILE_RANGE,
	SC_NR_KINDS
};
/* "fsync" ... "uring_sync_file_range" */
const char *sc_kind_name(int kind);

/* one move of a file's errseq cursor, as traced */
struct sc_cursor {
	uint64_t us;
	size_t line;		/* in the trace text: orders events of one microsecond */
	uint32_t tid, tgid;	/* tgid 0: not recorded */
	uint32_t major, minor;	/* dev= (the super block's s_dev) */
	uint64_t ino;
	uint32_t old, new;	/* the cursor before and after */
	int err;		/* errno consumed: new's when old != new, else 0 */
	int sb;			/* f_sb_err (syncfs, patch 0005), not f_wb_err */
	char file[24];		/* hashed struct file pointer: the open file description */
	long call;		/* index in calls; -1 when no traced call claimed it */
};

/* sc_call.state bits: what the trace did not show */
enum {
	SC_NO_ENTER = 1,	/* the exit only (tracing started mid-call) */
	SC_NO_EXIT = 2,		/* the entry only (trace ended or lost the exit): ret unknown, 0 */
	SC_AMBIGUOUS = 4,	/* io_uring: another request's window held its cursor event too */
};

struct sc_call {
	int kind;
	char sys[20];		/* the syscall ("pwrite64") or io_uring opcode ("FSYNC") */
	uint32_t tid, tgid;	/* io_uring: the submitter */
	char comm[16];
	int fd;			/* -1: none (msync, sync) or not traced (io_uring
				 * without io_uring_file_get) */
	uint64_t off, len;	/* msync: start, len; sync_file_range: offset, nbytes;
				 * write family: pos (p*), count (write, pwrite64) */
	unsigned int flags;	/* msync, sync_file_range: flags; pwritev2: rwf */
	uint64_t enter_us, exit_us;	/* io_uring: submit, complete */
	long long ret;		/* 0 or -errno; write family: bytes; io_uring: cqe res */
	unsigned int state;
	size_t line;		/* of its entry (its exit without one): orders calls */
	size_t cur, ncur;	/* its cursor moves: curs[cidx[cur .. cur + ncur)] */
};

/* filemap_set_wb_err: an error recorded in a mapping */
struct sc_set {
	uint64_t us;
	size_t line;
	uint32_t tid, tgid;	/* the task that ended the bio, often a kworker */
	char comm[16];
	uint32_t major, minor;
	uint64_t ino;
	uint32_t errseq;	/* the mapping's value before (errseq_set()'s return) */
	int err;		/* errno recorded, -1 unknown */
	int err_from;		/* enum below */
};
enum {
	SC_ERR_UNKNOWN,
	SC_ERR_TRACED,		/* errno= (kernel/patches/0004) */
	SC_ERR_DECODED,		/* stock kernel: the errno bits of the next value
				 * traced on that inode (a later set's errseq= or a
				 * cursor's new=), which is what this set left */
};

/* trace_marker lines "wb app <phase>": the runner's phases (armed, recovery...) */
struct sc_mark {
	uint64_t us;
	uint32_t tid;
	char text[64];		/* <phase>, the prefix dropped */
};

/* one sched_process_fork or sched_process_exec: who a pid is */
struct sc_proc {
	uint64_t us;
	uint32_t pid;		/* fork: the child (a thread too); exec: the task */
	uint32_t parent;	/* fork: the parent; exec: 0 */
	char comm[16];		/* fork: the child's; exec: the new one */
	char exe[96];		/* exec: the filename; fork: "" */
};

struct sc_log {
	struct sc_call *calls;		/* in entry order */
	struct sc_cursor *curs;		/* in trace order */
	struct sc_set *sets;
	struct sc_mark *marks;
	struct sc_proc *procs;
	size_t *cidx;			/* cursor indices grouped by call */
	size_t ncalls, ncurs, nsets, nmarks, nprocs;
	size_t cap_calls, cap_curs, cap_sets, cap_marks, cap_procs;
	size_t lines;			/* lines read */
	size_t skipped;			/* malformed lines skipped */
	uint64_t lost;			/* events the ring lost ("[LOST n EVENTS]") */
	int tgids;			/* some line had record-tgid's column */
};

/*
 * Parses the whole "trace" text into a zeroed @log.  Comments, other
 * events and malformed lines are skipped (counted in ->skipped when they
 * looked like ours or had no head), never fatal: one torn line must not
 * hide a run.  A write-family call that moved no cursor and returned >= 0
 * is not a sync call and is dropped; one that failed is kept.
 *
 * A call's cursor moves are those on its thread between its entry and
 * exit (a thread is in one syscall at a time).  io_uring has no such
 * window on one thread: its fsync and sync_file_range run in an io-wq
 * worker (a thread of the submitter, so the same tgid) or inline, so a
 * request claims the first cursor move between its submit and complete
 * that happened on a task outside any traced syscall, of the submitter's
 * tgid when tgids were recorded, and not claimed yet; when another pending
 * request's window also holds it, the call is flagged SC_AMBIGUOUS.
 * Returns 0, or -1 when out of memory.
 */
int sc_parse(const char *text, struct sc_log *log);
void sc_log_free(struct sc_log *log);

/* ---- 2. attribution --------------------------------------------------- */

/* one injected fault, as the caller programmed it */
struct sc_fault {
	unsigned int id;
	int err;			/* errno expected; 0 for a silent action (drop) */
	uint32_t major, minor;		/* st_dev of its files: what dev= prints */
	const uint64_t *inos;		/* the inodes it targets; none (a sector */
	size_t ninos;			/* range): any inode on the device, and the
					 * block device's own inode (metadata) */
	const struct wb_fault *log;	/* the fault-log entries its rule produced */
	size_t nlog;
};

enum sc_verdict { SC_NOT_FIRED, SC_SILENT, SC_LOST, SC_SEEN };
/* "not-fired", "silent", "lost", "seen" */
const char *sc_verdict_name(int verdict);

/* one call (or untraced path) that was told about a fault */
struct sc_seer {
	long call;		/* -1: a cursor move no traced call claimed */
	long cursor;		/* -1: syncfs without a cursor event (stock kernel) */
	long set;		/* the set it consumed; -1: through the super block */
	int match;		/* ret == -errno recorded: 1, 0, or -1 not known */
};

struct sc_fate {
	int verdict;
	size_t nfired;			/* fault-log entries: bios failed or dropped */
	uint64_t fired_us, last_us;	/* the first and last of them */
	size_t *sets;			/* indices in log->sets it led to */
	size_t nsets;
	struct sc_seer *seers;
	size_t nseers;
};

struct sc_attr {
	struct sc_fate *fates;		/* one per fault, in the caller's order */
	size_t nfates;
	long *set_fault;		/* per set: the fault index it is given to, -1 */
	size_t *unexplained;		/* calls that failed and no fault explains */
	size_t nunexplained;
	uint32_t self;			/* the caller's pid, whose calls are left out */
};

/*
 * Ties faults to what the program saw.  Rules, in order:
 *  - fired: the fault's log entries (first, last, how many);
 *  - a set is given to at most one fault: one targeting its inode whose
 *    first fire is not after it; among several, the one whose expected
 *    errno is the errno recorded, then a failing action over a drop, then
 *    the latest fire not after the set, then one naming the inode;
 *  - a cursor move saw a set when it consumed an error (old != new, an
 *    errno in new), on that inode, after the set, and its range of error
 *    instances (wb_errseq_level of old, of new] holds the set's instance;
 *  - syncfs that failed saw, through the super block, each fault with a
 *    set before the call returned whose errno it returned (mapping_set_error
 *    sets s_wb_err with the mapping), on its device when a sb cursor event
 *    says which (patch 0005);
 *  - verdict: seen (anyone saw it), else not-fired, else lost (a set, no
 *    one consumed it: e.g. the inode was evicted), else silent (nothing
 *    recorded: a drop, or a fault the file system swallowed).
 * Calls and cursor moves of @self (its tgid, or its tid where tgids were
 * not recorded) are left out.  0, or -1 when out of memory.
 */
int sc_attribute(const struct sc_log *log, uint32_t self, const struct sc_fault *faults,
		 size_t nfaults, struct sc_attr *attr);
void sc_attr_free(struct sc_attr *attr);
/* whether @call is the caller's own */
int sc_excluded(const struct sc_attr *attr, const struct sc_call *call);

/* ---- 3. rendering ----------------------------------------------------- */

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
	const struct sc_log *log;
	const struct sc_fault *faults;
	size_t nfaults;
	const struct sc_attr *attr;
	const struct sc_path *paths;
	size_t npaths;
};

/*
 * One line per event in time order, times in ms relative to the first
 * mark (else the first event): marks, faults fired, sets, sync calls
 * (pid, comm, fd, path, return, errno name, the fault it consumed), then
 * a verdict per fault and the unexplained errors.
 */
void sc_render_text(FILE *out, const struct sc_report *r);
/* the same as one JSON object: marks, calls, sets, faults, unexplained */
void sc_render_json(FILE *out, const struct sc_report *r);

#endif
