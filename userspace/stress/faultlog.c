// SPDX-License-Identifier: GPL-2.0
#include "faultlog.h"
#include "util.h"
#include "wb_sys.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int wbs_faultlog_load(struct wbs_faultlog *fl, const char *dir)
{
	char path[4096], *text, *line, *save = NULL;

	memset(fl, 0, sizeof(*fl));
	snprintf(path, sizeof(path), "%s/faults.txt", dir);
	text = wb_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int epoch;
		uint64_t want, got;
		int off = 0;

		if (sscanf(line, "fault %u %n", &epoch, &off) == 1 && off) {
			fl->v = wbs_xrealloc(fl->v, fl->n + 1, sizeof(*fl->v));
			if (!wb_fault_parse(line + off, &fl->v[fl->n])) {
				fl->v[fl->n].epoch = epoch;
				fl->n++;
			}
		} else if (sscanf(line, "gap %u %" SCNu64 " %" SCNu64, &epoch,
				  &want, &got) == 3) {
			fl->gaps += got - want;
		}
	}
	free(text);
	return 0;
}

void wbs_faultlog_free(struct wbs_faultlog *fl)
{
	free(fl->v);
	memset(fl, 0, sizeof(*fl));
}
