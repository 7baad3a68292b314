// SPDX-License-Identifier: GPL-2.0
/* wb_faultlog: one line of dm-wberr's "log" response. */
#include <errno.h>

#include "wb_faultlog.h"
#include "wb_test.h"

int main(void)
{
	struct wb_fault f;

	is_int(0, wb_fault_parse("7 123456 3 write SYNC 2048 8 timeout", &f), "a line parses");
	ok(f.seq == 7 && f.ns == 123456 && f.rule == 3 && f.sector == 2048 && f.nr == 8,
	   "numbers in place");
	is_str("write", f.opclass, "op class");
	is_str("SYNC", f.flags, "flags");
	is_str("timeout", f.status, "status");
	is_int(ETIMEDOUT, f.err, "errno from the status");
	is_int(0, wb_fault_parse("8 1 1 fua FUA|SYNC 0 1 nexus", &f), "the alias parses");
	is_int(EBADE, f.err, "to EBADE");
	is_int(0, wb_fault_parse("9 1 1 write - 0 8 ok", &f), "a drop parses");
	is_int(0, f.err, "with errno 0");
	is_int(-1, wb_fault_parse("9 1 1 write - 0 8 bogus", &f), "an unknown status is refused");
	is_int(-1, wb_fault_parse("garbage", &f), "garbage is refused");
	is_int(-1, wb_fault_parse("1 2 3 write - 4", &f), "a short line is refused");
	return tap_done();
}
