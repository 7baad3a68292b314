/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dm-wberr fault log as collected during a run (faults.txt): every
 * line of "dmsetup message <dev> 0 log <from>", prefixed with the table
 * epoch (a reload starts a new target instance, whose log restarts at 0):
 *   fault <epoch> <seq> <ns> <rule_id> <opclass> <flags> <sector> <nr> <status>
 *   gap <epoch> <wanted_seq> <got_seq>        entries lost (log overflowed)
 *   event <ns> <text...>                      suspend, resume, reload, ...
 * plus the status -> errno table (blk_status_to_errno in block/blk-core.c).
 */
#ifndef WBS_FAULTLOG_H
#define WBS_FAULTLOG_H

#include <stddef.h>
#include <stdint.h>

struct wbs_fault {
	uint64_t ns;		/* ktime_get_ns() when dm-wberr decided */
	uint64_t sector;
	uint32_t nr;
	uint32_t epoch;
	uint64_t seq;
	unsigned int rule;
	int err;		/* errno the status maps to; 0 for "ok" (drop) */
	char opclass[16];
	char status[24];
	char flags[64];
};

struct wbs_faultlog {
	struct wbs_fault *v;
	size_t n;
	size_t gaps;		/* entries known to be missing */
};

/* errno for a dm-wberr status name ("nexus" included), -1 if unknown. */
int wbs_status_errno(const char *status);
/* The status names dm-wberr accepts, excluding aliases. */
extern const char *const wbs_statuses[];
extern const unsigned int wbs_nr_statuses;

/* Parses one "dmsetup message ... log" output line; 0 on success. */
int wbs_fault_parse(const char *line, uint32_t epoch, struct wbs_fault *f);
int wbs_faultlog_load(struct wbs_faultlog *fl, const char *dir);
void wbs_faultlog_free(struct wbs_faultlog *fl);

#endif
