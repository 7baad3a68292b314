/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names shared by every wberr program: dm-wberr's statuses and op classes
 * (generated from dm-wberr/dm-wberr-abi.h), errno names, and the flag
 * tables of the syscalls the scenarios call.
 */
#ifndef WB_NAMES_H
#define WB_NAMES_H

#include <stddef.h>

struct wb_name_val {
	const char *name;
	int val;
};

/*
 * errno <-> "EIO"; 0 <-> "0", both ways through glibc's strerrorname_np(),
 * so every name the C library knows is accepted and printed the same way.
 * wb_errno_by_name returns -1 when unknown.
 */
int wb_errno_by_name(const char *name);
/* never NULL: "0", "EIO", or "E#123" for a number no table knows */
const char *wb_errno_name(int err);

/* One dm-wberr status: its message-grammar name and blk_status_to_errno(). */
struct wb_status {
	const char *name;	/* as the dm-wberr message grammar spells it */
	const char *sfx;	/* BLK_STS_<sfx> */
	int blk_sts;		/* BLK_STS_* value in 6.12 */
	int err;		/* positive errno from blk_status_to_errno() */
};
/* in blk_status_t order */
extern const struct wb_status wb_statuses[];
extern const size_t wb_nr_statuses;
/* NULL when unknown; accepts the alias "nexus" */
const struct wb_status *wb_status_by_name(const char *name);
/* the status blk_status_to_errno() turns into @err (positive), NULL when
 * none (each status has an errno of its own in 6.12) */
const struct wb_status *wb_status_by_errno(int err);
/* errno of a status as the fault log prints it: "ok" (drop) is 0, unknown -1 */
int wb_status_errno(const char *name);
extern const char wb_status_alias[];		/* "nexus" */
extern const char wb_status_alias_of[];	/* "resv_conflict" */

/* dm-wberr op classes as a bitmask, in the header's bit order */
enum {
#define WBERR_ABI_OP(sfx, name) WB_OP_BIT_##sfx,
#include "dm-wberr-abi.h"
	WB_OP_NR_BITS
};
enum {
#define WBERR_ABI_OP(sfx, name) WB_OP_##sfx = 1 << WB_OP_BIT_##sfx,
#include "dm-wberr-abi.h"
	WB_OP_ALL = (1 << WB_OP_NR_BITS) - 1,
};
/* the classes a split=1 rule may have: the target refuses the others */
enum {
	WB_OP_SPLIT = 0
#define WBERR_ABI_SPLIT_OP(sfx) | WB_OP_##sfx
#include "dm-wberr-abi.h"
};
/* the six class names then "all" */
extern const struct wb_name_val wb_op_names[];
extern const size_t wb_nr_ops;		/* six: "all" excluded */
/* "write,fua", or "all" */
void wb_op_format(unsigned int mask, char *buf, size_t len);

/* the bio flags dm-wberr's log prints and flags= matches, NULL-terminated */
extern const char *const wb_bio_flag_names[];
extern const size_t wb_nr_bio_flags;

/* flag tables; wb_name_lookup returns -1 when unknown */
extern const struct wb_name_val wb_open_flag_names[];
extern const struct wb_name_val wb_msync_flag_names[];
extern const struct wb_name_val wb_sfr_flag_names[];
extern const struct wb_name_val wb_falloc_flag_names[];
int wb_name_lookup(const struct wb_name_val *tab, const char *name);
/* "a, b, c" list of a table's names into buf */
void wb_name_list(const struct wb_name_val *tab, char *buf, size_t len);

#endif
