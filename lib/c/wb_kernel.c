// SPDX-License-Identifier: GPL-2.0
#include "wb_kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "wb_dm.h"
#include "wb_fs.h"
#include "wb_names.h"

_Static_assert(WBERR_ABI_NR_STATUS <= WB_KERNEL_MAX_STATUSES,
	       "wb_kernel's status arrays hold every status the ABI header can name");

void wb_kernel_init(struct wb_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->series = -1;
}

int wb_kernel_set_release(struct wb_kernel *k, const char *release)
{
	int n = 0;

	snprintf(k->release, sizeof(k->release), "%s", release);
	k->major = k->minor = 0;
	if (sscanf(release, "%d.%d%n", &k->major, &k->minor, &n) != 2 || n == 0) {
		k->major = k->minor = 0;
		return -1;
	}
	return 0;
}

int wb_kernel_read(struct wb_kernel *k, const char *tracefs)
{
	struct utsname u;
	char path[512];

	if (uname(&u) || wb_kernel_set_release(k, u.release))
		return -1;
	/* patch 0005 adds the syncfs cursor event; no stock kernel has it */
	snprintf(path, sizeof(path), "%s/events/filemap/file_check_and_advance_sb_err",
		 tracefs ? tracefs : "/sys/kernel/tracing");
	k->series = access(path, F_OK) == 0;
	return 0;
}

static int status_index(const char *name)
{
	const struct wb_status *s = wb_status_by_name(name);

	return s ? (int)(s - wb_statuses) : -1;
}

int wb_kernel_parse_statuses(struct wb_kernel *k, const char *reply, char *err, size_t errlen)
{
	unsigned char has[WB_KERNEL_MAX_STATUSES] = { 0 };
	int value[WB_KERNEL_MAX_STATUSES] = { 0 };
	const char *p = reply;
	int n = 0;

	while (*p) {
		char name[64];
		int v, used = 0, i;

		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (sscanf(p, "%63[a-z_]=%d%n", name, &v, &used) != 2 || (p[used] && p[used] != ' ' &&
									p[used] != '\n')) {
			snprintf(err, errlen, "statuses reply: expected name=value at '%.32s'", p);
			return -1;
		}
		i = status_index(name);
		if (i < 0) {
			snprintf(err, errlen, "statuses reply: unknown status '%s'", name);
			return -1;
		}
		has[i] = 1;
		value[i] = v;
		n++;
		p += used;
	}
	if (!n) {
		snprintf(err, errlen, "statuses reply is empty");
		return -1;
	}
	memcpy(k->has, has, sizeof(has));
	memcpy(k->value, value, sizeof(value));
	k->statuses_read = 1;
	return 0;
}

int wb_kernel_read_statuses(struct wb_kernel *k, const char *dmname, char *err, size_t errlen)
{
	char reply[1024];
	int r = wb_dm_message(dmname, "statuses", reply, sizeof(reply));

	if (r) {
		snprintf(err, errlen, "dmsetup message %s 0 statuses: %s (%s)", dmname, strerror(-r),
			 wb_dm_error());
		return -1;
	}
	return wb_kernel_parse_statuses(k, reply, err, errlen);
}

int wb_kernel_has_status(const struct wb_kernel *k, const char *name, char *why, size_t whylen)
{
	int i = status_index(name);

	if (i < 0) {
		snprintf(why, whylen, "status '%s' is not one dm-wberr names", name);
		return 0;
	}
	if (!k->statuses_read || k->has[i])
		return 1;
	snprintf(why, whylen, "status '%s' does not exist in %s (dm-wberr's \"statuses\" reply leaves it out)",
		 wb_statuses[i].name, k->release[0] ? k->release : "this kernel");
	return 0;
}

int wb_kernel_release_is(const struct wb_kernel *k, const char *mm)
{
	char rel[24];

	if (!k || !k->major)
		return 0;
	snprintf(rel, sizeof(rel), "%d.%d", k->major, k->minor);
	return !strcmp(rel, mm);
}

int wb_kernel_matches(const struct wb_kernel *k, const char *key)
{
	if (!strcmp(key, "patched"))
		return k && k->series == 1;
	return wb_kernel_release_is(k, key);
}

int wb_kernel_nr_statuses(const struct wb_kernel *k)
{
	int n = 0;

	if (!k->statuses_read)
		return (int)wb_nr_statuses;
	for (size_t i = 0; i < wb_nr_statuses; i++)
		n += k->has[i];
	return n;
}

const char *wb_kernel_describe(const struct wb_kernel *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", k->release[0] ? k->release : "unknown kernel",
		 k->series == 1 ? ", with kernel/patches" : k->series == 0 ? ", no kernel/patches" : "");
	return buf;
}

/*
 * Where a kernel records something other than blk_status_to_errno() of
 * the failed bio.  @release "M.m" matches that major.minor only (these
 * are the kernels measured, not a guessed range); NULL matches every
 * kernel.  A fact with @stock holds only without kernel/patches.
 */
static const struct data_errno_fact {
	int fs;			/* WB_FS_* */
	const char *release;
	int stock;
	int err;
	const char *why;
} data_errno_facts[] = {
	{ WB_FS_RAW, NULL, 1, EIO,
	  "block device writeback goes through buffer heads: end_buffer_async_write() -> "
	  "mark_buffer_write_io_error() -> mapping_set_error(mapping, -EIO) (fs/buffer.c); "
	  "kernel/patches/0003 keeps the status's errno" },
	{ WB_FS_EXT4, "6.1", 0, EIO,
	  "6.1's ext4_finish_bio() calls mapping_set_error(page->mapping, -EIO) whatever "
	  "bi_status (6.1 fs/ext4/page-io.c:121; 6.12 passes blk_status_to_errno(), "
	  "page-io.c:119-120)" },
	{ WB_FS_EXT2, "6.1", 0, EIO,
	  "6.1's ext2 writeback sets the status's errno and then EIO on the mapping for the "
	  "failed pages (measured: the filemap_set_wb_err trace alternates, EIO last), so errseq "
	  "keeps EIO; one -EIO setter is the buffer-head completion, 6.1 fs/buffer.c "
	  "mark_buffer_write_io_error(); stock 6.12 keeps the status's errno (make compare)" },
};

int wb_kernel_data_errno(const struct wb_kernel *k, const char *fs, int blk_errno,
			 const char **why)
{
	static const struct wb_kernel unknown = { .series = -1 };
	int fsi = wb_fs_by_name(fs);

	if (!k)
		k = &unknown;
	for (size_t i = 0; i < sizeof(data_errno_facts) / sizeof(data_errno_facts[0]); i++) {
		const struct data_errno_fact *f = &data_errno_facts[i];

		if (f->fs != fsi || (f->release && !wb_kernel_release_is(k, f->release)) ||
		    (f->stock && k->series == 1))
			continue;
		if (why)
			*why = f->why;
		return f->err;
	}
	if (why)
		*why = NULL;
	return blk_errno;
}
