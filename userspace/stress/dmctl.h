/* SPDX-License-Identifier: GPL-2.0 */
/* Runs the dmsetup binary (the real user interface of dm-wberr) and
 * captures what it prints. */
#ifndef WBS_DMCTL_H
#define WBS_DMCTL_H

#include "util.h"

/* argv[0] is "dmsetup"-relative: {"message", dev, "0", "list", NULL}.
 * Returns dmsetup's exit status (-1 if it could not run); stdout goes to
 * @out when non-NULL (appended), stderr to ours. */
int wbs_dmsetup(struct wbs_buf *out, const char *const argv[]);
/* "dmsetup message <dev> 0 <words...>" with a printf-formatted text split
 * on spaces. */
int wbs_dm_message(struct wbs_buf *out, const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
