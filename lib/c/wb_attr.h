/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one attributor: which call each traced cursor move belongs to, which
 * file each errseq set and each logged fault is on, which fault each set
 * came from, and which cursor moves consumed each set.  Every judge reads
 * its answer and asks only its own question of it: wberr-run its step
 * model (tools/wberr-run/crosscheck.c), wberr-stress its lost, twice and
 * without-cause checks (tools/wberr-stress/oracle.c), program mode its
 * seen, lost, silent and not-fired verdicts (tools/wberr-run/synctrace.c);
 * all three then apply wb_invariants.h.
 *
 * Calls.  A call is a window of the trace: its cursor moves are the
 * file_check_and_advance_{wb,sb}_err events inside it.  Three kinds of
 * window, one per way a tool can know where a call starts and ends:
 *   WB_WIN_SYSCALLS    program mode: an unmodified program's syscalls,
 *                      entry to exit on one thread (a thread is in one
 *                      syscall at a time), and its io_uring requests,
 *                      submit to complete;
 *   WB_WIN_MARKS_TASK  wberr-stress: each worker writes "wb B ..." before
 *                      and "wb E ..." after its own call, so a move is the
 *                      call's when its task's latest marker is the call's B;
 *   WB_WIN_MARKS_ALL   wberr-run: the runner marks B and E around one call
 *                      at a time, made by another process (an agent), so
 *                      every move between the two markers is the call's.
 *
 * Set errnos.  Patch 0005 traces the errno a set records; a stock kernel
 * traces only the value before errseq_set(), so the errno is decoded from
 * the next value traced on the inode (a later set's errseq=, or a cursor's
 * new=), which is the one this set left, SEEN or not.
 *
 * Faults.  One fault is one fault-log entry (a bio dm-wberr failed,
 * dropped or delayed, with its sectors and time).  A fault hits a file
 * when its sectors overlap the file's known data (struct wb_files).  A set
 * came from the latest failing fault that reaches its inode, fired no
 * later than the set (within the trace clock's step): one that hit that
 * file's data, or, when no known file's data holds a fault's sectors
 * (metadata, free space, blocks allocated and freed while nobody looked),
 * any inode on the fault's device; among equals the one whose errno is the
 * errno the set recorded (patch 0005, or decoded on a stock kernel), then
 * one that hit the file's data.
 *
 * Consumers.  A cursor move consumed a set when it is on the set's inode,
 * after it, moved to an error, and the range of error instances it crossed
 * (wb_errseq_level of old, of new] holds the instance the set made.
 */
#ifndef WB_ATTR_H
#define WB_ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "wb_faultlog.h"
#include "wb_files.h"
#include "wb_trace.h"

enum wb_window { WB_WIN_SYSCALLS, WB_WIN_MARKS_TASK, WB_WIN_MARKS_ALL };

/* wb_call.state bits: what the trace did not show */
enum {
	WB_CALL_NO_ENTER = 1,	/* the exit only (tracing started mid-call) */
	WB_CALL_NO_EXIT = 2,	/* the entry only (the trace ended or lost the exit): ret unknown, 0 */
	WB_CALL_AMBIGUOUS = 4,	/* io_uring: another request's window held its cursor move too */
};

struct wb_call {
	int kind;		/* enum wb_call_kind; marked calls: WB_CALL_OTHER */
	char sys[20];		/* the syscall ("pwrite64") or io_uring opcode ("FSYNC"); "" */
	uint32_t tid, tgid;	/* io_uring: the submitter; marked calls: the marker's writer */
	char comm[16];
	int fd;			/* syscalls: -1 when none or not traced; marked calls: the marker's */
	uint32_t proc, seq;	/* marked calls: the marker's */
	uint64_t off, len;	/* syscalls: wb_ev_sys's */
	unsigned int flags;
	long enter, exit;	/* event indices of its first and last line; -1 when not traced */
	uint64_t enter_us, exit_us;
	long long ret;		/* syscalls: 0 or -errno, write family: bytes, io_uring: res;
				 * marked calls: 0 (the tool's records have the result) */
	unsigned int state;
	size_t adv, nadv;	/* its cursor moves: the events attr->adv[adv .. adv + nadv) */
};

struct wb_attr_cfg {
	enum wb_window windows;
	uint64_t gran_ns;	/* the trace clock's step; 0: 1000 (microseconds) */
};

struct wb_attr {
	const struct wb_trace *trace;
	struct wb_attr_cfg cfg;
	struct wb_call *calls;	/* in entry order */
	size_t ncalls, cap_calls;
	long *call_of;		/* [trace->n] a cursor move's call, -1 none */
	size_t *adv;		/* cursor moves grouped by call (wb_call.adv) */
	/* wb_attr_faults() */
	const struct wb_fault *faults;
	size_t nfaults;
	const struct wb_files *files;
	unsigned char *hit;	/* [nfaults * files->nfiles]: fault i hit file f's data */
	unsigned char *known;	/* [nfaults]: some known file's data holds its sectors */
	long *file_of;		/* [trace->n] an errseq event's file (by inode), -1 */
	long *set_fault;	/* [trace->n] a set's fault, -1 */
	int *set_err;		/* [trace->n] a set's errno: traced (patch 0005), else
				 * decoded, else -1 */
	unsigned char *set_decoded;	/* [trace->n] set_err was decoded: */
	uint32_t major, minor;	/* the device the faults are on (st_dev of its fs) */
};

/*
 * The calls of @t and each cursor move's call.  @t must not change while
 * @a lives.  0, or -1 when out of memory (@a is freed).
 */
int wb_attr_calls(struct wb_attr *a, const struct wb_trace *t, const struct wb_attr_cfg *cfg);

/*
 * The faults @f[n] (times in ktime_get_ns(), trace_clock mono's clock) on
 * the device @major:@minor against the files @files: which files each hit,
 * each errseq event's file, each set's fault.  @f and @files must outlive
 * @a.  0, or -1 when out of memory.
 */
int wb_attr_faults(struct wb_attr *a, const struct wb_fault *f, size_t n, const struct wb_files *files,
		   uint32_t major, uint32_t minor);

/* the trace clock's step in ns */
static inline uint64_t wb_attr_gran(const struct wb_attr *a)
{
	return a->cfg.gran_ns ? a->cfg.gran_ns : 1000;
}
/* the latest time an event may have happened, in ns */
static inline uint64_t wb_attr_hi_ns(const struct wb_attr *a, const struct wb_ev *e)
{
	return e->us * 1000 + wb_attr_gran(a) - 1;
}

/* whether fault @i hit file @f's data */
static inline int wb_attr_hit(const struct wb_attr *a, size_t i, unsigned int f)
{
	return a->hit[i * a->files->nfiles + f];
}
/* whether fault @i can have caused an errseq set on (@major:@minor, @ino) */
int wb_attr_reaches(const struct wb_attr *a, size_t i, uint32_t major, uint32_t minor, uint64_t ino);
/* the latest failing fault at or before @ns that hit file @f's data (any
 * fault when @f < 0), -1 */
long wb_attr_fault_before(const struct wb_attr *a, long f, uint64_t ns);
/* whether the cursor move @adv (an event index) consumed the set @set */
int wb_attr_consumed(const struct wb_attr *a, size_t adv, size_t set);

void wb_attr_free(struct wb_attr *a);

#endif
