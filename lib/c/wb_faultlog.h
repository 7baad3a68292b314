/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of dm-wberr's fault log, as "dmsetup message <dev> 0 log <from>"
 * prints it (dm-wberr/README.rst):
 *   <seq> <ns> <rule_id> <opclass> <flags> <sector> <nr_sectors> <status>
 */
#ifndef WB_FAULTLOG_H
#define WB_FAULTLOG_H

#include <stdint.h>

struct wb_fault {
	uint64_t seq;
	uint64_t ns;		/* ktime_get_ns() when dm-wberr decided */
	uint64_t sector;
	uint64_t nr;
	uint32_t epoch;		/* table instance, for callers that reload; 0 here */
	unsigned int rule;
	int err;		/* errno the status maps to; 0 for "ok" (drop) */
	char opclass[16];
	char status[24];
	char flags[64];
};

/* 0 on success; -1 for a malformed line or a status no table knows */
int wb_fault_parse(const char *line, struct wb_fault *f);

#endif
