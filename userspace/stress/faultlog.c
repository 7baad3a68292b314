// SPDX-License-Identifier: GPL-2.0
#include "faultlog.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int err;
} status_map[] = {
	{ "notsupp", EOPNOTSUPP },
	{ "timeout", ETIMEDOUT },
	{ "nospc", ENOSPC },
	{ "transport", ENOLINK },
	{ "target", EREMOTEIO },
	{ "resv_conflict", EBADE },
	{ "medium", ENODATA },
	{ "protection", EILSEQ },
	{ "resource", ENOMEM },
	{ "dev_resource", EBUSY },
	{ "again", EAGAIN },
	{ "offline", ENODEV },
	{ "zone_open_resource", ETOOMANYREFS },
	{ "zone_active_resource", EOVERFLOW },
	{ "duration_limit", ETIME },
	{ "inval", EINVAL },
	{ "ioerr", EIO },
	{ "nexus", EBADE },	/* alias of resv_conflict */
	{ "ok", 0 },		/* action=drop */
};

const char *const wbs_statuses[] = {
	"ioerr", "timeout", "resv_conflict", "nospc", "medium", "transport",
	"target", "protection", "resource", "notsupp", "again",
	"dev_resource", "offline", "duration_limit", "inval",
	"zone_open_resource", "zone_active_resource",
};
const unsigned int wbs_nr_statuses = WBS_ARRAY_SIZE(wbs_statuses);

int wbs_status_errno(const char *status)
{
	size_t i;

	for (i = 0; i < WBS_ARRAY_SIZE(status_map); i++)
		if (!strcmp(status_map[i].name, status))
			return status_map[i].err;
	return -1;
}

int wbs_fault_parse(const char *line, uint32_t epoch, struct wbs_fault *f)
{
	memset(f, 0, sizeof(*f));
	if (sscanf(line, "%" SCNu64 " %" SCNu64 " %u %15s %63s %" SCNu64 " %u %23s",
		   &f->seq, &f->ns, &f->rule, f->opclass, f->flags, &f->sector,
		   &f->nr, f->status) != 8)
		return -1;
	f->epoch = epoch;
	f->err = wbs_status_errno(f->status);
	return f->err < 0 ? -1 : 0;
}

int wbs_faultlog_load(struct wbs_faultlog *fl, const char *dir)
{
	char path[4096], *text, *line, *save = NULL;

	memset(fl, 0, sizeof(*fl));
	snprintf(path, sizeof(path), "%s/faults.txt", dir);
	text = wbs_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int epoch;
		uint64_t want, got;
		int off = 0;

		if (sscanf(line, "fault %u %n", &epoch, &off) == 1 && off) {
			fl->v = wbs_xrealloc(fl->v, fl->n + 1, sizeof(*fl->v));
			if (!wbs_fault_parse(line + off, epoch, &fl->v[fl->n]))
				fl->n++;
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
