// SPDX-License-Identifier: GPL-2.0
#include "wb_tracefs.h"
#include "wb_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static const char *const events[] = {
	"events/filemap/filemap_set_wb_err/enable",
	"events/filemap/file_check_and_advance_wb_err/enable",
};
/* only with kernel/patches/0005: syncfs's cursor moves */
static const char sb_event[] = "events/filemap/file_check_and_advance_sb_err/enable";

#define SYSCALL_EVENTS(name)						\
	"events/syscalls/sys_enter_" name "/enable",			\
	"events/syscalls/sys_exit_" name "/enable"
/* program mode: the sync family, and the writes that may sync (O_SYNC, O_DSYNC) */
static const char *const sys_events[] = {
	SYSCALL_EVENTS("fsync"), SYSCALL_EVENTS("fdatasync"), SYSCALL_EVENTS("msync"),
	SYSCALL_EVENTS("sync_file_range"), SYSCALL_EVENTS("syncfs"), SYSCALL_EVENTS("sync"),
	SYSCALL_EVENTS("write"), SYSCALL_EVENTS("pwrite64"), SYSCALL_EVENTS("writev"),
	SYSCALL_EVENTS("pwritev"), SYSCALL_EVENTS("pwritev2"),
};
static const char no_syscalls[] =
	"events/syscalls (missing: a kernel without CONFIG_FTRACE_SYSCALLS has no syscall events)";
/*
 * optional program-mode events, with the bit each one sets and the name
 * an older kernel gives the same event (6.1 calls io_uring_submit_req
 * io_uring_submit_sqe, with the same fields up to opcode)
 */
static const struct {
	const char *path;
	int bit;
	const char *alt;
} opt_events[] = {
	{ "events/io_uring/io_uring_submit_req/enable", WB_TRACEFS_URING,
	  "events/io_uring/io_uring_submit_sqe/enable" },
	{ "events/io_uring/io_uring_complete/enable", WB_TRACEFS_URING, NULL },
	{ "events/io_uring/io_uring_file_get/enable", WB_TRACEFS_URING_FD, NULL },
	{ "events/sched/sched_process_fork/enable", WB_TRACEFS_SCHED, NULL },
	{ "events/sched/sched_process_exec/enable", WB_TRACEFS_SCHED, NULL },
};
static const char tgid_opt[] = "options/record-tgid";

static int put(const char *root, const char *rel, const char *val)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return wb_write_file(path, val);
}

static int exists(const char *root, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return !access(path, F_OK);
}

/*
 * Setting the clock resets the buffer and a buffer_size_kb write resizes it,
 * the same value or not: two and one RCU grace periods, 24 and 12 ms under
 * TCG (measured), paid by every instance.  The kernel shows the clock in
 * use in brackets ("local [mono] ...") and the size as a number.
 */
static int clock_is(const char *root, const char *clock)
{
	char path[4096], want[64], *text;
	int yes;

	snprintf(path, sizeof(path), "%s/trace_clock", root);
	snprintf(want, sizeof(want), "[%s]", clock);
	text = wb_read_file(path, NULL);
	yes = text && strstr(text, want);
	free(text);
	return yes;
}

static int buffer_kb_is(const char *root, unsigned int kb)
{
	char path[4096], *text, *end;
	unsigned long v;
	int yes;

	snprintf(path, sizeof(path), "%s/buffer_size_kb", root);
	text = wb_read_file(path, NULL);
	if (!text)
		return 0;
	v = strtoul(text, &end, 10);
	yes = end != text && (*end == '\n' || !*end) && v == kb;
	free(text);
	return yes;
}

int wb_tracefs_start(const char *root, unsigned int buffer_kb, const char **what)
{
	const char *dummy;
	char kb[32];
	size_t i;
	int sb;

	if (!what)
		what = &dummy;
	*what = "mount tracefs";
	if (!exists(root, "trace_marker") &&
	    (mount("nodev", root, "tracefs", 0, NULL) || !exists(root, "trace_marker")))
		return -1;
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	*what = "tracing_on 0, trace_clock mono, buffer_size_kb, events/enable 0, drain trace_pipe";
	if (put(root, "tracing_on", "0") ||
	    (!clock_is(root, "mono") && put(root, "trace_clock", "mono")) ||
	    (!buffer_kb_is(root, buffer_kb) && put(root, "buffer_size_kb", kb)) ||
	    put(root, "events/enable", "0"))
		return -1;
	/* emptied by reading it (wb_tracefs_take), not by a clear */
	free(wb_tracefs_take(root));
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		*what = events[i];
		if (put(root, events[i], "1"))
			return -1;
	}
	/* a kernel without the syncfs event still traces the others */
	sb = exists(root, sb_event) && !put(root, sb_event, "1");
	*what = "tracing_on 1";
	return put(root, "tracing_on", "1") ? -1 : sb;
}

int wb_tracefs_program(const char *root, const char **what)
{
	const char *dummy;
	int bits = WB_TRACEFS_SYSCALLS;
	size_t i;

	if (!what)
		what = &dummy;
	/* first, so that the events from here on carry the tgid */
	*what = tgid_opt;
	if (exists(root, tgid_opt) && !put(root, tgid_opt, "1"))
		bits |= WB_TRACEFS_TGID;
	*what = no_syscalls;
	if (!exists(root, "events/syscalls")) {
		errno = ENOENT;
		return -1;
	}
	for (i = 0; i < sizeof(sys_events) / sizeof(sys_events[0]); i++) {
		*what = sys_events[i];
		if (!exists(root, sys_events[i])) {
			errno = ENOENT;
			return -1;
		}
		if (put(root, sys_events[i], "1"))
			return -1;
	}
	/* a bit stays set when every event that sets it is on */
	bits |= WB_TRACEFS_URING | WB_TRACEFS_URING_FD | WB_TRACEFS_SCHED;
	for (i = 0; i < sizeof(opt_events) / sizeof(opt_events[0]); i++) {
		const char *path = opt_events[i].path;

		if (!exists(root, path) && opt_events[i].alt)
			path = opt_events[i].alt;
		*what = path;
		if (!exists(root, path) || put(root, path, "1"))
			bits &= ~opt_events[i].bit;
	}
	*what = "program-mode events on";
	return bits;
}

void wb_tracefs_program_off(const char *root)
{
	size_t i;

	for (i = 0; i < sizeof(sys_events) / sizeof(sys_events[0]); i++)
		if (exists(root, sys_events[i]))
			put(root, sys_events[i], "0");
	for (i = 0; i < sizeof(opt_events) / sizeof(opt_events[0]); i++) {
		if (exists(root, opt_events[i].path))
			put(root, opt_events[i].path, "0");
		if (opt_events[i].alt && exists(root, opt_events[i].alt))
			put(root, opt_events[i].alt, "0");
	}
	if (exists(root, tgid_opt))
		put(root, tgid_opt, "0");
}

/* the block layer's completions, failed ones only (wb_trace's WB_EV_BLK) */
static const char *const blk_events[] = {
	"events/block/block_rq_complete",
	"events/block/block_bio_complete",
};

int wb_tracefs_blk(const char *root, int on)
{
	char rel[128];

	for (size_t i = 0; i < sizeof(blk_events) / sizeof(blk_events[0]); i++) {
		snprintf(rel, sizeof(rel), "%s/filter", blk_events[i]);
		if (on && put(root, rel, "error != 0"))
			return -1;
		snprintf(rel, sizeof(rel), "%s/enable", blk_events[i]);
		if (put(root, rel, on ? "1" : "0") && on)
			return -1;
	}
	return 0;
}

void wb_tracefs_events_off(const char *root)
{
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		put(root, events[i], "0");
	if (exists(root, sb_event))
		put(root, sb_event, "0");
}

char *wb_tracefs_take(const char *root)
{
	char path[4096];

	/*
	 * trace_pipe consumes what it returns, so nothing is cleared: a
	 * write to `trace` costs two RCU grace periods
	 * (tracing_reset_online_cpus() and ring_buffer_reset_online_cpus()),
	 * 25 ms a step under TCG, and loses what arrives between the read
	 * and the clear.
	 */
	snprintf(path, sizeof(path), "%s/trace_pipe", root);
	return wb_drain_file(path, NULL);
}

int wb_tracefs_mark(const char *root, const char *fmt, ...)
{
	char path[4096], msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/trace_marker", root);
	return wb_write_file(path, msg);
}
