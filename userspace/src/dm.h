/* SPDX-License-Identifier: GPL-2.0 */
/* Driving dm-wberr through the dmsetup binary, and parsing what it says. */
#ifndef WBERR_DM_H
#define WBERR_DM_H

#include <stddef.h>
#include <stdint.h>
#include "scenario.h"
#include "wb_faultlog.h"

/* append every parsable line (wb_fault_parse) of a "log" response with seq >= from */
int dm_parse_log(const char *text, uint64_t from, struct wb_fault **v, int *n, int *cap);
/* the "add ..." message for a rule (sectors override for file-targeted rules) */
int dm_format_add(const struct fault_spec *f, const char *status, int has_range,
		  uint64_t first, uint64_t last, char *buf, size_t len);

int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen);
int dm_remove(const char *name);
/* "dmsetup message NAME 0 MSG"; the response (if any) into @out */
int dm_message(const char *name, const char *msg, char *out, size_t outlen);

#endif
