// SPDX-License-Identifier: GPL-2.0
/* wb_names: the tables generated from dm-wberr-abi.h, and errno names. */
#include <errno.h>

#include "wb_names.h"
#include "wb_test.h"

static void statuses(void)
{
	const struct wb_status *s;

	is_int(17, wb_nr_statuses, "17 statuses (6.12 blk_errors[] minus ok, dm_requeue and slot 18)");
	s = wb_status_by_name("timeout");
	ok(s && s->blk_sts == 2 && s->err == ETIMEDOUT && !strcmp(s->sfx, "TIMEOUT"),
	   "timeout is BLK_STS_TIMEOUT, 2, ETIMEDOUT");
	ok(wb_status_by_name("nexus") == wb_status_by_name("resv_conflict") && wb_status_by_name("nexus"),
	   "nexus is an alias of resv_conflict");
	ok(!wb_status_by_name("ok") && !wb_status_by_name("IOERR"), "ok and IOERR are no statuses");
	is_int(0, wb_status_errno("ok"), "the fault log's ok (drop) maps to 0");
	is_int(-1, wb_status_errno("bogus"), "an unknown status maps to -1");
	is_int(EIO, wb_status_errno("ioerr"), "ioerr maps to EIO");
	for (size_t i = 1; i < wb_nr_statuses; i++)
		if (wb_statuses[i].blk_sts <= wb_statuses[i - 1].blk_sts)
			ok(0, "statuses in blk_status_t order at %zu", i);
}

static void errnos(void)
{
	is_str("EBADE", wb_errno_name(EBADE), "EBADE by number");
	is_str("EIO", wb_errno_name(-EIO), "negative errnos too");
	is_str("0", wb_errno_name(0), "0 is \"0\"");
	is_str("E#4000", wb_errno_name(4000), "a number no table knows");
	is_int(ETOOMANYREFS, wb_errno_by_name("ETOOMANYREFS"), "by name");
	is_int(-1, wb_errno_by_name("EWHAT"), "an unknown name is -1");
	is_str("EOPNOTSUPP", wb_errno_name(EOPNOTSUPP), "ENOTSUP's number prints as EOPNOTSUPP");
	is_str("EAGAIN", wb_errno_name(EWOULDBLOCK), "EWOULDBLOCK's number prints as EAGAIN");
	is_int(EOPNOTSUPP, wb_errno_by_name("ENOTSUP"), "ENOTSUP is accepted");
	is_int(EAGAIN, wb_errno_by_name("EWOULDBLOCK"), "EWOULDBLOCK is accepted");
	{
		int bad = 0, named = 0;

		for (int e = 1; e < 200; e++) {
			const char *n = wb_errno_name(e);

			if (n[0] == 'E' && n[1] == '#')
				continue;
			named++;
			if (wb_errno_by_name(n) != e && !bad++)
				ok(0, "errno %d (%s) round-trips", e, n);
		}
		ok(!bad && named > 120, "every errno glibc names round-trips (%d named)", named);
	}
	for (size_t i = 0; i < wb_nr_statuses; i++)
		if (wb_errno_by_name(wb_errno_name(wb_statuses[i].err)) != wb_statuses[i].err)
			ok(0, "errno of %s round-trips", wb_statuses[i].name);
}

static void ops(void)
{
	char buf[64];

	is_int(6, wb_nr_ops, "six op classes");
	is_str("read", wb_op_names[0].name, "read is bit 0");
	is_str("write_zeroes", wb_op_names[5].name, "write_zeroes is bit 5");
	wb_op_format(WB_OP_WRITE | WB_OP_FUA, buf, sizeof(buf));
	is_str("write,fua", buf, "a mask formats in bit order");
	wb_op_format(WB_OP_ALL, buf, sizeof(buf));
	is_str("all", buf, "every class is all");
	is_int(WB_OP_ALL, wb_name_lookup(wb_op_names, "all"), "all parses");
	wb_name_list(wb_msync_flag_names, buf, sizeof(buf));
	is_str("MS_SYNC, MS_ASYNC, MS_INVALIDATE", buf, "a flag table lists its names");
}

int main(void)
{
	statuses();
	errnos();
	ops();
	return tap_done();
}
