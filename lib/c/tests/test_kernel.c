// SPDX-License-Identifier: GPL-2.0
/*
 * wb_kernel: releases, dm-wberr's "statuses" reply as 6.1 and 6.12 give
 * it, the reason a missing status is refused, and the per-kernel data
 * errno facts.
 */
#include <errno.h>

#include "wb_kernel.h"
#include "wb_names.h"
#include "wb_test.h"

/* the replies of dm-wberr built against each kernel (value order) */
static const char reply_612[] =
	"notsupp=1 timeout=2 nospc=3 transport=4 target=5 resv_conflict=6 medium=7 protection=8 "
	"resource=9 ioerr=10 again=12 dev_resource=13 zone_open_resource=14 zone_active_resource=15 "
	"offline=16 duration_limit=17 inval=19";
/* 6.1 with a status libwb does not know (ZONE_RESOURCE, gone by 6.12) */
static const char reply_61_unknown[] =
	"notsupp=1 timeout=2 nospc=3 transport=4 target=5 resv_conflict=6 medium=7 protection=8 "
	"resource=9 ioerr=10 again=12 dev_resource=13 zone_resource=14 zone_open_resource=15 "
	"zone_active_resource=16 offline=17\n";

int main(void)
{
	struct wb_kernel k;
	char err[256], why[256];
	const char *reason;

	wb_kernel_init(&k);
	is_int(-1, k.series, "nothing read: the series is unknown");
	ok(wb_kernel_has_status(&k, "inval", why, sizeof(why)), "statuses not read: every status is assumed");
	is_int((long long)wb_nr_statuses, wb_kernel_nr_statuses(&k), "statuses not read: libwb's count");

	is_int(0, wb_kernel_set_release(&k, "6.1.0-57-amd64"), "a Debian release parses");
	ok(k.major == 6 && k.minor == 1, "6.1.0-57-amd64 is 6.1");
	is_int(0, wb_kernel_set_release(&k, "6.12.118"), "our build's release parses");
	ok(k.major == 6 && k.minor == 12, "6.12.118 is 6.12");
	ok(wb_kernel_release_is(&k, "6.12") && !wb_kernel_release_is(&k, "6.1"), "6.12 is not 6.1");
	ok(wb_kernel_matches(&k, "6.12") && !wb_kernel_matches(&k, "patched"),
	   "a kernel of unknown series matches its release, not \"patched\"");
	k.series = 1;
	ok(wb_kernel_matches(&k, "patched") && wb_kernel_matches(&k, "6.12"),
	   "with kernel/patches it matches \"patched\" and its release");
	k.series = 0;
	ok(!wb_kernel_matches(&k, "patched"), "without kernel/patches it does not match \"patched\"");
	k.series = -1;
	is_int(-1, wb_kernel_set_release(&k, "vmlinux"), "a release without N.N is refused");

	/* 6.12 */
	wb_kernel_init(&k);
	wb_kernel_set_release(&k, "6.12.118");
	err[0] = 0;
	is_int(0, wb_kernel_parse_statuses(&k, reply_612, err, sizeof(err)), "6.12's reply parses %s", err);
	ok(wb_kernel_has_status(&k, "inval", why, sizeof(why)), "6.12 has inval");
	ok(wb_kernel_has_status(&k, "nexus", why, sizeof(why)), "the alias nexus is resv_conflict");

	/* 6.1: no duration_limit, no inval; statuses unknown to libwb refused */
	wb_kernel_init(&k);
	wb_kernel_set_release(&k, "6.1.0-57-amd64");
	is_int(-1, wb_kernel_parse_statuses(&k, reply_61_unknown, err, sizeof(err)),
	       "a status libwb does not name is refused (zone_resource, 6.1 only)");
	ok(strstr(err, "zone_resource") != NULL, "and named: %s", err);
	ok(!k.statuses_read, "a refused reply changes nothing");
	is_int(0, wb_kernel_parse_statuses(&k,
		"notsupp=1 timeout=2 nospc=3 transport=4 target=5 resv_conflict=6 medium=7 protection=8 "
		"resource=9 ioerr=10 again=12 dev_resource=13 zone_open_resource=15 zone_active_resource=16 "
		"offline=17\n", err, sizeof(err)), "6.1's reply as dm-wberr gives it parses %s", err);
	ok(wb_kernel_has_status(&k, "offline", why, sizeof(why)), "6.1 has offline");
	ok(!wb_kernel_has_status(&k, "inval", why, sizeof(why)), "6.1 has no inval");
	ok(strstr(why, "'inval' does not exist in 6.1.0-57-amd64") != NULL, "the reason names status and kernel: %s", why);
	ok(!wb_kernel_has_status(&k, "duration_limit", why, sizeof(why)), "6.1 has no duration_limit");
	is_int((long long)wb_nr_statuses - 2, wb_kernel_nr_statuses(&k), "6.1: two statuses fewer");
	is_int(-1, wb_kernel_parse_statuses(&k, "ioerr", err, sizeof(err)), "a pair without '=' is refused");
	is_int(-1, wb_kernel_parse_statuses(&k, "ioerr=10x", err, sizeof(err)), "a value with trailing junk is refused");
	is_int(-1, wb_kernel_parse_statuses(&k, " \n", err, sizeof(err)), "an empty reply is refused");

	/* data errno facts */
	k.series = 0;
	is_int(EIO, wb_kernel_data_errno(&k, "ext4", ETIMEDOUT, &reason), "6.1 ext4 records EIO for a timeout");
	ok(reason && strstr(reason, "page-io.c:121"), "with the 6.1 source line");
	is_int(EIO, wb_kernel_data_errno(&k, "ext2", ETIMEDOUT, &reason), "6.1 ext2 ends with EIO too (measured)");
	is_int(ETIMEDOUT, wb_kernel_data_errno(&k, "xfs", ETIMEDOUT, &reason), "6.1 xfs passes the errno through");
	ok(reason == NULL, "no reason where the errno passes");
	is_int(EIO, wb_kernel_data_errno(&k, "raw", ENOSPC, &reason), "stock raw: buffer heads record EIO");
	wb_kernel_set_release(&k, "6.12.118");
	is_int(ETIMEDOUT, wb_kernel_data_errno(&k, "ext4", ETIMEDOUT, NULL), "6.12 ext4 passes the errno through");
	is_int(ETIMEDOUT, wb_kernel_data_errno(&k, "ext2", ETIMEDOUT, NULL), "stock 6.12 ext2 too");
	is_int(EIO, wb_kernel_data_errno(&k, "raw", ETIMEDOUT, NULL), "stock 6.12 raw records EIO");
	k.series = 1;
	is_int(ETIMEDOUT, wb_kernel_data_errno(&k, "raw", ETIMEDOUT, NULL), "with kernel/patches/0003 raw keeps it");
	k.series = -1;
	is_int(EIO, wb_kernel_data_errno(&k, "raw", ETIMEDOUT, NULL), "series unknown: the stock fact");
	return tap_done();
}
