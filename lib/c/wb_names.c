// SPDX-License-Identifier: GPL-2.0
#include "wb_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/falloc.h>

#include "dm-wberr-abi.h"

/* the largest errno glibc's table may name (errseq's MAX_ERRNO) */
#define WB_MAX_ERRNO 4095

int wb_errno_by_name(const char *name)
{
	if (!strcmp(name, "0"))
		return 0;
	/* the two names glibc prints for shared numbers only one way */
	if (!strcmp(name, "EWOULDBLOCK"))
		return EWOULDBLOCK;
	if (!strcmp(name, "ENOTSUP"))
		return ENOTSUP;
	for (int err = 1; err <= WB_MAX_ERRNO; err++) {
		const char *n = strerrorname_np(err);

		if (n && !strcmp(n, name))
			return err;
	}
	return -1;
}

const char *wb_errno_name(int err)
{
	static __thread char buf[16];
	const char *name;

	if (err < 0)
		err = -err;
	if (!err)
		return "0";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E#%d", err);
	return buf;
}

const struct wb_status wb_statuses[] = {
#define WBERR_ABI_STATUS(nr, name, sfx, err) { #name, #sfx, nr, err },
#include "dm-wberr-abi.h"
};
const size_t wb_nr_statuses = sizeof(wb_statuses) / sizeof(wb_statuses[0]);
const char wb_status_alias[] = WBERR_ABI_STATUS_ALIAS;
const char wb_status_alias_of[] = WBERR_ABI_STATUS_ALIAS_OF;

const struct wb_status *wb_status_by_name(const char *name)
{
	if (!strcmp(name, wb_status_alias))
		name = wb_status_alias_of;
	for (size_t i = 0; i < wb_nr_statuses; i++)
		if (!strcmp(wb_statuses[i].name, name))
			return &wb_statuses[i];
	return NULL;
}

const struct wb_status *wb_status_by_errno(int err)
{
	for (size_t i = 0; i < wb_nr_statuses; i++)
		if (wb_statuses[i].err == err)
			return &wb_statuses[i];
	return NULL;
}

int wb_status_errno(const char *name)
{
	const struct wb_status *s = wb_status_by_name(name);

	if (s)
		return s->err;
	return strcmp(name, "ok") ? -1 : 0;
}

const struct wb_name_val wb_op_names[] = {
#define WBERR_ABI_OP(sfx, name) { #name, WB_OP_##sfx },
#include "dm-wberr-abi.h"
	{ "all", WB_OP_ALL },
	{ NULL, 0 }
};
const size_t wb_nr_ops = sizeof(wb_op_names) / sizeof(wb_op_names[0]) - 2;

const char *const wb_bio_flag_names[] = {
#define WBERR_ABI_FLAG(sfx, name) #name,
#include "dm-wberr-abi.h"
	NULL
};
const size_t wb_nr_bio_flags = sizeof(wb_bio_flag_names) / sizeof(wb_bio_flag_names[0]) - 1;

void wb_op_format(unsigned int mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	if ((mask & WB_OP_ALL) == WB_OP_ALL) {
		snprintf(buf, len, "all");
		return;
	}
	for (size_t i = 0; i < wb_nr_ops && off < len; i++)
		if (mask & (unsigned int)wb_op_names[i].val)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						wb_op_names[i].name);
}

#define F(x) { #x, x }
const struct wb_name_val wb_open_flag_names[] = {
	F(O_RDONLY), F(O_WRONLY), F(O_RDWR), F(O_CREAT), F(O_EXCL), F(O_TRUNC),
	F(O_APPEND), F(O_SYNC), F(O_DSYNC), F(O_DIRECT), F(O_NOATIME),
	F(O_CLOEXEC), F(O_NONBLOCK),
	{ NULL, 0 }
};
const struct wb_name_val wb_msync_flag_names[] = {
	F(MS_SYNC), F(MS_ASYNC), F(MS_INVALIDATE), { NULL, 0 }
};
const struct wb_name_val wb_sfr_flag_names[] = {
	{ "WAIT_BEFORE", SYNC_FILE_RANGE_WAIT_BEFORE },
	{ "WRITE", SYNC_FILE_RANGE_WRITE },
	{ "WAIT_AFTER", SYNC_FILE_RANGE_WAIT_AFTER },
	{ NULL, 0 }
};
const struct wb_name_val wb_falloc_flag_names[] = {
	F(FALLOC_FL_KEEP_SIZE), F(FALLOC_FL_PUNCH_HOLE), F(FALLOC_FL_ZERO_RANGE),
	F(FALLOC_FL_COLLAPSE_RANGE), F(FALLOC_FL_INSERT_RANGE),
	{ NULL, 0 }
};
#undef F

int wb_name_lookup(const struct wb_name_val *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab->val;
	return -1;
}

void wb_name_list(const struct wb_name_val *tab, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (; tab->name && off < len; tab++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", tab->name);
}
