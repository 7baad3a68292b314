// SPDX-License-Identifier: GPL-2.0
#include "tracefs.h"
#include "util.h"
#include "wb_sys.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int put(const char *tracefs, const char *file, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	if (wb_write_file(path, text)) {
		wbs_warn(1, "write '%s' to %s", text, path);
		return -1;
	}
	return 0;
}

static const char *const events[] = {
	"events/filemap/filemap_set_wb_err/enable",
	"events/filemap/file_check_and_advance_wb_err/enable",
};

static const char sb_event[] =
	"events/filemap/file_check_and_advance_sb_err/enable";

static int access_event(const char *tracefs, const char *file)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	return access(path, W_OK);
}

int wbs_tracefs_start(const char *tracefs, unsigned int buffer_kb)
{
	char kb[32];
	size_t i;

	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	if (put(tracefs, "tracing_on", "0") ||
	    put(tracefs, "trace_clock", "mono") ||
	    put(tracefs, "buffer_size_kb", kb) ||
	    put(tracefs, "trace", ""))
		return -1;
	for (i = 0; i < WBS_ARRAY_SIZE(events); i++)
		if (put(tracefs, events[i], "1"))
			return -1;
	/* only with kernel/patches 0004: syncfs cursor moves */
	if (!access_event(tracefs, sb_event))
		put(tracefs, sb_event, "1");
	return put(tracefs, "tracing_on", "1");
}

int wbs_tracefs_stop(const char *tracefs, const char *dir)
{
	char src[4096], dst[4096];
	size_t len;
	char *text;
	FILE *f;
	size_t i;

	put(tracefs, "tracing_on", "0");
	for (i = 0; i < WBS_ARRAY_SIZE(events); i++)
		put(tracefs, events[i], "0");
	if (!access_event(tracefs, sb_event))
		put(tracefs, sb_event, "0");
	snprintf(src, sizeof(src), "%s/trace", tracefs);
	text = wb_read_file(src, &len);
	if (!text) {
		wbs_warn(1, "read %s", src);
		return -1;
	}
	snprintf(dst, sizeof(dst), "%s/trace.txt", dir);
	f = fopen(dst, "we");
	if (!f || fwrite(text, 1, len, f) != len) {
		wbs_warn(1, "write %s", dst);
		if (f)
			fclose(f);
		free(text);
		return -1;
	}
	free(text);
	return fclose(f);
}
