// SPDX-License-Identifier: GPL-2.0
/*
 * wb_tracefs on a fake tracefs (a directory of plain files): what start
 * writes where, the syncfs event only when the kernel has it, take and
 * mark.  The real one is exercised by every guest scenario and stress run.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "wb_sys.h"
#include "wb_tracefs.h"
#include "wb_test.h"

static char root[] = "/tmp/wb-tracefs-test.XXXXXX";

static void touch(const char *rel, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *cat(const char *rel)
{
	static char buf[256];
	char path[4096], *t;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	t = wb_read_file(path, NULL);
	snprintf(buf, sizeof(buf), "%s", t ? t : "(missing)");
	free(t);
	return buf;
}

static const char *const sys_names[] = {
	"fsync", "fdatasync", "msync", "sync_file_range", "syncfs", "sync",
	"write", "pwrite64", "writev", "pwritev", "pwritev2",
};

static void make_event(const char *rel)
{
	char cmd[512], path[256];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s", root, rel);
	if (system(cmd))
		return;
	snprintf(path, sizeof(path), "%s/enable", rel);
	touch(path, "0");
}

/* program mode: a kernel without syscall events is an error that says so */
static void test_program(void)
{
	const char *what = NULL;
	char rel[256];
	size_t i;
	int bits;

	errno = 0;
	is_int(-1, wb_tracefs_program(root, &what), "program mode: no events/syscalls is an error");
	ok(errno == ENOENT && what && strstr(what, "CONFIG_FTRACE_SYSCALLS"), "ENOENT, and it names the config option");
	for (i = 0; i < sizeof(sys_names) / sizeof(sys_names[0]) - 1; i++) {
		snprintf(rel, sizeof(rel), "events/syscalls/sys_enter_%s", sys_names[i]);
		make_event(rel);
		snprintf(rel, sizeof(rel), "events/syscalls/sys_exit_%s", sys_names[i]);
		make_event(rel);
	}
	is_int(-1, wb_tracefs_program(root, &what), "program mode: one syscall event missing");
	is_str("events/syscalls/sys_enter_pwritev2/enable", what, "what names it");
	make_event("events/syscalls/sys_enter_pwritev2");
	make_event("events/syscalls/sys_exit_pwritev2");
	bits = wb_tracefs_program(root, &what);
	is_int(WB_TRACEFS_SYSCALLS, bits, "every syscall event, nothing optional on this kernel");
	is_str("1", cat("events/syscalls/sys_exit_pwrite64/enable"), "sys_exit_pwrite64 on");
	make_event("events/io_uring/io_uring_complete");
	make_event("events/io_uring/io_uring_submit_sqe");
	ok(wb_tracefs_program(root, &what) & WB_TRACEFS_URING, "6.1's io_uring_submit_sqe stands in for io_uring_submit_req");
	ok(!strcmp(cat("events/io_uring/io_uring_submit_sqe/enable"), "1"), "and is turned on");
	make_event("events/io_uring/io_uring_submit_req");
	make_event("events/sched/sched_process_fork");
	make_event("events/sched/sched_process_exec");
	make_event("options");
	touch("options/record-tgid", "0");
	bits = wb_tracefs_program(root, &what);
	is_int(WB_TRACEFS_SYSCALLS | WB_TRACEFS_URING | WB_TRACEFS_SCHED | WB_TRACEFS_TGID, bits,
	       "io_uring without io_uring_file_get, sched, record-tgid");
	ok(!strcmp(cat("options/record-tgid"), "1") && !strcmp(cat("events/io_uring/io_uring_complete/enable"), "1") &&
	   !strcmp(cat("events/sched/sched_process_exec/enable"), "1"), "record-tgid, io_uring and sched on");
	make_event("events/io_uring/io_uring_file_get");
	ok(wb_tracefs_program(root, &what) & WB_TRACEFS_URING_FD, "io_uring_file_get when the kernel has it");
	wb_tracefs_program_off(root);
	ok(!strcmp(cat("options/record-tgid"), "0") && !strcmp(cat("events/syscalls/sys_enter_fsync/enable"), "0") &&
	   !strcmp(cat("events/io_uring/io_uring_file_get/enable"), "0") &&
	   !strcmp(cat("events/io_uring/io_uring_submit_sqe/enable"), "0"), "program mode off");
}

int main(void)
{
	static const char *const files[] = {
		"trace_marker", "tracing_on", "trace_clock", "buffer_size_kb", "events/enable",
		"trace", "trace_pipe", "events/filemap/filemap_set_wb_err/enable",
		"events/filemap/file_check_and_advance_wb_err/enable",
	};
	char path[4096];
	const char *what = NULL;
	char *text;

	if (!mkdtemp(root))
		return 1;
	snprintf(path, sizeof(path), "mkdir -p %s/events/filemap/filemap_set_wb_err "
		 "%s/events/filemap/file_check_and_advance_wb_err "
		 "%s/events/filemap/file_check_and_advance_sb_err", root, root, root);
	ok(!system(path), "a fake tracefs");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		touch(files[i], "x");
	touch("trace", "old lines\n");
	touch("trace_pipe", "old lines\n");
	touch("trace_clock", "[local] global mono\n");
	touch("buffer_size_kb", "7 (expanded: 1408)\n");
	is_int(0, wb_tracefs_start(root, 4096, &what), "started; no syncfs event on this kernel");
	is_str("1", cat("tracing_on"), "tracing on");
	is_str("mono", cat("trace_clock"), "clock mono");
	is_str("4096", cat("buffer_size_kb"), "buffer size");
	is_str("0", cat("events/enable"), "other events off");
	is_str("old lines\n", cat("trace"), "the buffer emptied by reading trace_pipe, not by a clear");
	/* what is already so is not written again (each write costs RCU
	 * grace periods): a fake file keeps its text */
	touch("trace_clock", "local global [mono]\n");
	touch("buffer_size_kb", "4096\n");
	is_int(0, wb_tracefs_start(root, 4096, &what), "started again");
	is_str("local global [mono]\n", cat("trace_clock"), "the clock already mono: not set");
	is_str("4096\n", cat("buffer_size_kb"), "the size already 4096: not set");
	is_int(0, wb_tracefs_start(root, 8192, &what), "another size");
	is_str("8192", cat("buffer_size_kb"), "a different size is set");
	is_str("1", cat("events/filemap/filemap_set_wb_err/enable"), "set event on");
	is_str("1", cat("events/filemap/file_check_and_advance_wb_err/enable"), "advance event on");
	touch("events/filemap/file_check_and_advance_sb_err/enable", "0");
	is_int(1, wb_tracefs_start(root, 4096, &what), "with patch 0005's syncfs event: 1");
	is_str("1", cat("events/filemap/file_check_and_advance_sb_err/enable"), "and it is on");
	wb_tracefs_events_off(root);
	ok(!strcmp(cat("events/filemap/file_check_and_advance_sb_err/enable"), "0") &&
	   !strcmp(cat("events/filemap/filemap_set_wb_err/enable"), "0"), "events off");
	test_program();
	is_int(0, wb_tracefs_mark(root, "wberr-mark:B%d", 3), "mark");
	is_str("wberr-mark:B3", cat("trace_marker"), "into trace_marker");
	touch("trace", "old\n");
	touch("trace_pipe", "a line\n");
	text = wb_tracefs_take(root);
	is_str("a line\n", text, "take returns what trace_pipe holds");
	free(text);
	is_str("old\n", cat("trace"), "and leaves trace alone (the read consumed it)");
	snprintf(path, sizeof(path), "rm -rf %s", root);
	if (system(path))
		return 1;
	return tap_done();
}
