// SPDX-License-Identifier: GPL-2.0
/*
 * wb_tracefs on a fake tracefs (a directory of plain files): what start
 * writes where, the syncfs event only when the kernel has it, take and
 * mark.  The real one is exercised by every guest scenario and stress run.
 */
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

int main(void)
{
	static const char *const files[] = {
		"trace_marker", "tracing_on", "trace_clock", "buffer_size_kb", "events/enable",
		"trace", "events/filemap/filemap_set_wb_err/enable",
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
	is_int(0, wb_tracefs_start(root, 4096, &what), "started; no syncfs event on this kernel");
	is_str("1", cat("tracing_on"), "tracing on");
	is_str("mono", cat("trace_clock"), "clock mono");
	is_str("4096", cat("buffer_size_kb"), "buffer size");
	is_str("0", cat("events/enable"), "other events off");
	is_str("", cat("trace"), "buffer cleared");
	is_str("1", cat("events/filemap/filemap_set_wb_err/enable"), "set event on");
	is_str("1", cat("events/filemap/file_check_and_advance_wb_err/enable"), "advance event on");
	touch("events/filemap/file_check_and_advance_sb_err/enable", "0");
	is_int(1, wb_tracefs_start(root, 4096, &what), "with patch 0004's syncfs event: 1");
	is_str("1", cat("events/filemap/file_check_and_advance_sb_err/enable"), "and it is on");
	wb_tracefs_events_off(root);
	ok(!strcmp(cat("events/filemap/file_check_and_advance_sb_err/enable"), "0") &&
	   !strcmp(cat("events/filemap/filemap_set_wb_err/enable"), "0"), "events off");
	is_int(0, wb_tracefs_mark(root, "wberr-mark:B%d", 3), "mark");
	is_str("wberr-mark:B3", cat("trace_marker"), "into trace_marker");
	touch("trace", "a line\n");
	text = wb_tracefs_take(root);
	is_str("a line\n", text, "take returns the buffer");
	free(text);
	is_str("", cat("trace"), "and clears it");
	snprintf(path, sizeof(path), "rm -rf %s", root);
	if (system(path))
		return 1;
	return tap_done();
}
