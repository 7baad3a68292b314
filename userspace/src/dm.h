/* SPDX-License-Identifier: GPL-2.0 */
/* wberr-run's calls into dm-wberr (dm.c, on lib/c wb_dm), and its log. */
#ifndef WBERR_DM_H
#define WBERR_DM_H

#include <stddef.h>
#include <stdint.h>
#include "scenario.h"
#include "wb_faultlog.h"

/*
 * Appends every parsable line of a "log" response with seq >= from to
 * exec.c's vector; the parser is lib/c's wb_faultlog_add_response().
 */
static inline int dm_parse_log(const char *text, uint64_t from, struct wb_fault **v,
			       int *n, int *cap)
{
	struct wb_faultlog fl = { .v = *v, .n = (size_t)*n, .cap = (size_t)*cap };
	int added = wb_faultlog_add_response(&fl, text, from);

	*v = fl.v;
	*n = (int)fl.n;
	*cap = (int)fl.cap;
	return added;
}
/* the "add ..." message for a rule (sectors override for file-targeted rules) */
int dm_format_add(const struct fault_spec *f, const char *status, int has_range,
		  uint64_t first, uint64_t last, char *buf, size_t len);

/* dm-wberr's table over @dev (wb_dm_wberr_table); libdevmapper's error into @err */
int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen);
/* remove --retry */
int dm_remove(const char *name);
/* "message NAME 0 MSG": 0 and the response (if any) in @out, or -1 and
 * libdevmapper's error text in @out */
int dm_message(const char *name, const char *msg, char *out, size_t outlen);

#endif
