/* SPDX-License-Identifier: GPL-2.0 */
/* Driving dm-wberr through the dmsetup binary, and parsing what it says. */
#ifndef WBERR_DM_H
#define WBERR_DM_H

#include <stddef.h>
#include <stdint.h>
#include "scenario.h"

struct log_entry {
	uint64_t seq, ns;
	unsigned rule;
	char opclass[16];
	char flags[32];
	uint64_t sector, nr;
	char status[NAME_LEN];
	int err;		/* blk_status_to_errno(status), positive */
};

/* "<seq> <ns> <rule_id> <opclass> <flags> <sector> <nr_sectors> <status>" */
int dm_parse_log_line(const char *line, struct log_entry *e);
/* append every parsable line of a "log" response with seq >= from */
int dm_parse_log(const char *text, uint64_t from, struct log_entry **v, int *n, int *cap);
/* the "add ..." message for a rule (sectors override for file-targeted rules) */
int dm_format_add(const struct fault_spec *f, const char *status, int has_range,
		  uint64_t first, uint64_t last, char *buf, size_t len);

int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen);
int dm_remove(const char *name);
/* "dmsetup message NAME 0 MSG"; the response (if any) into @out */
int dm_message(const char *name, const char *msg, char *out, size_t outlen);

#endif
