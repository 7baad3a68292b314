// SPDX-License-Identifier: GPL-2.0
#include "tracefs.h"
#include "util.h"
#include "wb_sys.h"
#include "wb_tracefs.h"

#include <stdio.h>
#include <stdlib.h>

int wbs_tracefs_start(const char *tracefs, unsigned int buffer_kb)
{
	const char *what;

	if (wb_tracefs_start(tracefs, buffer_kb, &what) < 0) {
		wbs_warn(1, "tracefs %s: %s", tracefs, what);
		return -1;
	}
	return 0;
}

int wbs_tracefs_stop(const char *tracefs, const char *dir)
{
	char src[4096], dst[4096];
	size_t len;
	char *text;
	FILE *f;

	/* nothing more enters the buffer while it is copied */
	snprintf(src, sizeof(src), "%s/tracing_on", tracefs);
	wb_write_file(src, "0");
	wb_tracefs_events_off(tracefs);
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
