/* SPDX-License-Identifier: GPL-2.0 */
/* Name tables: errno names, BLK_STS_* names, open/msync/sync_file_range flags. */
#ifndef WBERR_NAMES_H
#define WBERR_NAMES_H

#include <stddef.h>

struct name_val {
	const char *name;
	int val;
};

/* errno <-> "EIO"; 0 <-> "0".  Returns -1 when unknown. */
int errno_by_name(const char *name);
const char *errno_name(int err);	/* never NULL: "0", "EIO", or "E#123" */

/* dm-wberr status names (the message grammar) and blk_status_to_errno(). */
struct blk_status {
	const char *name;	/* as the dm-wberr message grammar spells it */
	int blk_sts;		/* BLK_STS_* value in 6.12 */
	int err;		/* positive errno from blk_status_to_errno() */
};
extern const struct blk_status blk_statuses[];
extern const size_t n_blk_statuses;
const struct blk_status *blk_status_by_name(const char *name);	/* accepts "nexus" */

/* flag tables; lookup returns -1 when unknown */
extern const struct name_val open_flag_names[];
extern const struct name_val msync_flag_names[];
extern const struct name_val sfr_flag_names[];
extern const struct name_val falloc_flag_names[];
int name_lookup(const struct name_val *tab, const char *name);
/* "a, b, c" list of a table's names into buf */
void name_list(const struct name_val *tab, char *buf, size_t len);

/* dm-wberr op classes (bitmask) */
enum {
	WOP_READ = 1, WOP_WRITE = 2, WOP_FUA = 4, WOP_FLUSH = 8,
	WOP_DISCARD = 16, WOP_WRITE_ZEROES = 32, WOP_ALL = 63,
};
extern const struct name_val wop_names[];
/* "write,fua" */
void wop_format(unsigned mask, char *buf, size_t len);

#endif
