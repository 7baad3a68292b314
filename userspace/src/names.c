// SPDX-License-Identifier: GPL-2.0
#include "names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/falloc.h>

#define E(x) { #x, x }
static const struct name_val errno_names[] = {
	{ "0", 0 },
	E(EPERM), E(ENOENT), E(EINTR), E(EIO), E(ENXIO), E(EBADF), E(EAGAIN),
	E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST), E(ENODEV),
	E(EINVAL), E(ENOSPC), E(ESPIPE), E(EROFS), E(ENOSYS), E(ENODATA),
	E(ETIME), E(ENOLINK), E(EBADE), E(EILSEQ), E(EOPNOTSUPP),
	E(ETIMEDOUT), E(EREMOTEIO), E(ETOOMANYREFS), E(EOVERFLOW), E(EREMCHG),
	E(EUCLEAN), E(EFBIG), E(EDQUOT), E(ESTALE), E(ENOTBLK), E(EXDEV),
	{ NULL, 0 }
};
#undef E

int errno_by_name(const char *name)
{
	for (const struct name_val *n = errno_names; n->name; n++)
		if (!strcmp(n->name, name))
			return n->val;
	return -1;
}

const char *errno_name(int err)
{
	static __thread char buf[16];

	if (err < 0)
		err = -err;
	for (const struct name_val *n = errno_names; n->name; n++)
		if (n->val == err)
			return n->name;
	snprintf(buf, sizeof(buf), "E#%d", err);
	return buf;
}

/* include/linux/blk_types.h and block/blk-core.c blk_errors[] in 6.12 */
const struct blk_status blk_statuses[] = {
	{ "notsupp", 1, EOPNOTSUPP },
	{ "timeout", 2, ETIMEDOUT },
	{ "nospc", 3, ENOSPC },
	{ "transport", 4, ENOLINK },
	{ "target", 5, EREMOTEIO },
	{ "resv_conflict", 6, EBADE },
	{ "medium", 7, ENODATA },
	{ "protection", 8, EILSEQ },
	{ "resource", 9, ENOMEM },
	{ "ioerr", 10, EIO },
	{ "again", 12, EAGAIN },
	{ "dev_resource", 13, EBUSY },
	{ "zone_open_resource", 14, ETOOMANYREFS },
	{ "zone_active_resource", 15, EOVERFLOW },
	{ "offline", 16, ENODEV },
	{ "duration_limit", 17, ETIME },
	{ "inval", 19, EINVAL },
};
const size_t n_blk_statuses = sizeof(blk_statuses) / sizeof(blk_statuses[0]);

const struct blk_status *blk_status_by_name(const char *name)
{
	if (!strcmp(name, "nexus"))
		name = "resv_conflict";
	for (size_t i = 0; i < n_blk_statuses; i++)
		if (!strcmp(blk_statuses[i].name, name))
			return &blk_statuses[i];
	return NULL;
}

#define F(x) { #x, x }
const struct name_val open_flag_names[] = {
	F(O_RDONLY), F(O_WRONLY), F(O_RDWR), F(O_CREAT), F(O_EXCL), F(O_TRUNC),
	F(O_APPEND), F(O_SYNC), F(O_DSYNC), F(O_DIRECT), F(O_NOATIME),
	F(O_CLOEXEC), F(O_NONBLOCK),
	{ NULL, 0 }
};
const struct name_val msync_flag_names[] = {
	F(MS_SYNC), F(MS_ASYNC), F(MS_INVALIDATE), { NULL, 0 }
};
const struct name_val sfr_flag_names[] = {
	{ "WAIT_BEFORE", SYNC_FILE_RANGE_WAIT_BEFORE },
	{ "WRITE", SYNC_FILE_RANGE_WRITE },
	{ "WAIT_AFTER", SYNC_FILE_RANGE_WAIT_AFTER },
	{ NULL, 0 }
};
const struct name_val falloc_flag_names[] = {
	F(FALLOC_FL_KEEP_SIZE), F(FALLOC_FL_PUNCH_HOLE), F(FALLOC_FL_ZERO_RANGE),
	F(FALLOC_FL_COLLAPSE_RANGE), F(FALLOC_FL_INSERT_RANGE),
	{ NULL, 0 }
};
#undef F

const struct name_val wop_names[] = {
	{ "read", WOP_READ }, { "write", WOP_WRITE }, { "fua", WOP_FUA },
	{ "flush", WOP_FLUSH }, { "discard", WOP_DISCARD },
	{ "write_zeroes", WOP_WRITE_ZEROES }, { "all", WOP_ALL },
	{ NULL, 0 }
};

int name_lookup(const struct name_val *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab->val;
	return -1;
}

void name_list(const struct name_val *tab, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (; tab->name && off < len; tab++)
		off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", tab->name);
}

void wop_format(unsigned mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	if ((mask & WOP_ALL) == WOP_ALL) {
		snprintf(buf, len, "all");
		return;
	}
	for (const struct name_val *n = wop_names; n->name && off < len; n++)
		if (n->val != WOP_ALL && (mask & (unsigned)n->val))
			off += snprintf(buf + off, len - off, "%s%s", off ? "," : "", n->name);
}
