// SPDX-License-Identifier: GPL-2.0
#include "dm.h"
#include "wb_faultlog.h"
#include "wb_names.h"
#include "sys.h"

#include <inttypes.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dm_parse_log(const char *text, uint64_t from, struct wb_fault **v, int *n, int *cap)
{
	const char *p = text;
	int added = 0;

	while (p && *p) {
		struct wb_fault e;
		const char *nl = strchr(p, '\n');

		if (!wb_fault_parse(p, &e) && e.seq >= from) {
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 256;
				*v = realloc(*v, (size_t)*cap * sizeof(**v));
			}
			(*v)[(*n)++] = e;
			added++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return added;
}

int dm_format_add(const struct fault_spec *f, const char *status, int has_range,
		  uint64_t first, uint64_t last, char *buf, size_t len)
{
	char ops[64];
	size_t off;

	wb_op_format(f->ops, ops, sizeof(ops));
	off = (size_t)snprintf(buf, len, "add %s %s", ops, status);
	if (has_range)
		off += (size_t)snprintf(buf + off, len - off, " sectors=%" PRIu64 "-%" PRIu64, first, last);
	else if (f->has_sectors)
		off += (size_t)snprintf(buf + off, len - off, " sectors=%" PRIu64 "-%" PRIu64,
					f->first, f->last);
	if (f->skip)
		off += (size_t)snprintf(buf + off, len - off, " skip=%" PRIu64, f->skip);
	if (f->count)
		off += (size_t)snprintf(buf + off, len - off, " count=%" PRIu64, f->count);
	if (f->every)
		off += (size_t)snprintf(buf + off, len - off, " every=%" PRIu64, f->every);
	if (f->prob)
		off += (size_t)snprintf(buf + off, len - off, " prob=%u", f->prob);
	if (f->action == ACT_DROP)
		off += (size_t)snprintf(buf + off, len - off, " action=drop");
	else if (f->action == ACT_DELAY)
		off += (size_t)snprintf(buf + off, len - off, " action=delay:%u", f->delay_ms);
	return off < len ? 0 : -1;
}

int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen)
{
	int rc = run_cmd(err, errlen, "dmsetup create %s --table '0 %" PRIu64 " wberr %s 0 4 log_size 65536 seed %" PRIu64 "'",
			 name, sectors, dev, seed);

	return rc ? -1 : 0;
}

int dm_remove(const char *name)
{
	char out[1024];

	return run_cmd(out, sizeof(out), "dmsetup remove --retry %s", name) ? -1 : 0;
}

/* libdevmapper errors (a refused message) go here instead of stderr */
static char dm_last_error[512];

static void wberr_dm_log(int level, const char *file, int line, int dm_errno_or_class,
		      const char *f, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno_or_class;
	if (level > 3)	/* _LOG_ERR */
		return;
	va_start(ap, f);
	vsnprintf(dm_last_error, sizeof(dm_last_error), f, ap);
	va_end(ap);
}

/*
 * Through libdevmapper rather than fork+exec of dmsetup: the runner sends
 * one "log" message per step, and under TCG an exec costs ~0.1 s.
 */
int dm_message(const char *name, const char *msg, char *out, size_t outlen)
{
	static int inited;
	struct dm_task *dmt;
	const char *resp;
	int ok;

	if (!inited) {
		dm_log_with_errno_init(wberr_dm_log);
		inited = 1;
	}
	if (out && outlen)
		out[0] = 0;
	if (sys_verbose)
		fprintf(stderr, "+ message %s 0 %s\n", name, msg);
	dm_last_error[0] = 0;
	dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	if (!dmt)
		return -1;
	ok = dm_task_set_name(dmt, name) && dm_task_set_sector(dmt, 0) &&
	     dm_task_set_message(dmt, msg) && dm_task_run(dmt);
	if (ok) {
		resp = dm_task_get_message_response(dmt);
		if (resp && out && outlen)
			snprintf(out, outlen, "%s", resp);
	} else if (out && outlen) {
		snprintf(out, outlen, "%s", dm_last_error);
	}
	dm_task_destroy(dmt);
	return ok ? 0 : -1;
}
