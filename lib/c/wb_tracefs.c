// SPDX-License-Identifier: GPL-2.0
#include "wb_tracefs.h"
#include "wb_sys.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

static const char *const events[] = {
	"events/filemap/filemap_set_wb_err/enable",
	"events/filemap/file_check_and_advance_wb_err/enable",
};
/* only with kernel/patches/0004: syncfs's cursor moves */
static const char sb_event[] = "events/filemap/file_check_and_advance_sb_err/enable";

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
	*what = "tracing_on 0, trace_clock mono, buffer_size_kb, events/enable 0, clear trace";
	if (put(root, "tracing_on", "0") || put(root, "trace_clock", "mono") ||
	    put(root, "buffer_size_kb", kb) || put(root, "events/enable", "0") ||
	    put(root, "trace", ""))
		return -1;
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
	char path[4096], *text;

	snprintf(path, sizeof(path), "%s/trace", root);
	text = wb_read_file(path, NULL);
	if (text)
		put(root, "trace", "");
	return text;
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
