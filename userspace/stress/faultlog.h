/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dm-wberr fault log as collected during a run (faults.txt): every
 * line of "dmsetup message <dev> 0 log <from>", prefixed with the table
 * epoch (a reload starts a new target instance, whose log restarts at 0):
 *   fault <epoch> <seq> <ns> <rule_id> <opclass> <flags> <sector> <nr> <status>
 *   gap <epoch> <wanted_seq> <got_seq>        entries lost (log overflowed)
 *   event <ns> <text...>                      suspend, resume, reload, ...
 * Each fault line is parsed by lib/c's wb_fault_parse.
 */
#ifndef WBS_FAULTLOG_H
#define WBS_FAULTLOG_H

#include <stddef.h>

#include "wb_faultlog.h"

struct wbs_faultlog {
	struct wb_fault *v;
	size_t n;
	size_t gaps;		/* entries known to be missing */
};

int wbs_faultlog_load(struct wbs_faultlog *fl, const char *dir);
void wbs_faultlog_free(struct wbs_faultlog *fl);

#endif
