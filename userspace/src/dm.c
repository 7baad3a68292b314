// SPDX-License-Identifier: GPL-2.0
/* wberr-run's side of dm-wberr: its rules as "add" messages, and the
 * calls exec.c makes, on lib/c wb_dm (libdevmapper, no exec). */
#include "dm.h"
#include "wb_dm.h"
#include "wb_names.h"
#include "sys.h"

#include <inttypes.h>
#include <stdio.h>

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
	if (f->delay_ms)
		off += (size_t)snprintf(buf + off, len - off, " action=delay:%u%s", f->delay_ms,
					f->action == ACT_DROP ? ":drop" : f->action == ACT_PASS ? ":pass" : "");
	else if (f->action == ACT_DROP)
		off += (size_t)snprintf(buf + off, len - off, " action=drop");
	if (f->bio_flags[0])
		off += (size_t)snprintf(buf + off, len - off, " flags=%s", f->bio_flags);
	if (f->split)
		off += (size_t)snprintf(buf + off, len - off, " split=1");
	return off < len ? 0 : -1;
}

int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen)
{
	char table[512];

	wb_dm_verbose = sys_verbose;
	if (wb_dm_wberr_table(table, sizeof(table), sectors, dev, seed)) {
		snprintf(err, errlen, "device path too long: %s", dev);
		return -1;
	}
	if (wb_dm_create(name, table)) {
		snprintf(err, errlen, "%s", wb_dm_error());
		return -1;
	}
	return 0;
}

int dm_remove(const char *name)
{
	wb_dm_verbose = sys_verbose;
	return wb_dm_remove(name, 1) ? -1 : 0;
}

int dm_message(const char *name, const char *msg, char *out, size_t outlen)
{
	wb_dm_verbose = sys_verbose;
	return wb_dm_message(name, msg, out, outlen) ? -1 : 0;
}
