// SPDX-License-Identifier: GPL-2.0
#include "dm.h"
#include "names.h"
#include "sys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dm_parse_log_line(const char *line, struct log_entry *e)
{
	const struct blk_status *bs;

	memset(e, 0, sizeof(*e));
	if (sscanf(line, "%" SCNu64 " %" SCNu64 " %u %15s %31s %" SCNu64 " %" SCNu64 " %31s",
		   &e->seq, &e->ns, &e->rule, e->opclass, e->flags, &e->sector, &e->nr,
		   e->status) != 8)
		return -1;
	bs = blk_status_by_name(e->status);
	e->err = bs ? bs->err : 0;
	return 0;
}

int dm_parse_log(const char *text, uint64_t from, struct log_entry **v, int *n, int *cap)
{
	const char *p = text;
	int added = 0;

	while (p && *p) {
		struct log_entry e;
		const char *nl = strchr(p, '\n');

		if (!dm_parse_log_line(p, &e) && e.seq >= from) {
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

	wop_format(f->ops, ops, sizeof(ops));
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

int dm_message(const char *name, const char *msg, char *out, size_t outlen)
{
	return run_cmd(out, outlen, "dmsetup message %s 0 %s", name, msg) ? -1 : 0;
}
