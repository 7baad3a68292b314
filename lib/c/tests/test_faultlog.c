// SPDX-License-Identifier: GPL-2.0
/* wb_faultlog: one line of dm-wberr's "log" response, and both texts of them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_faultlog.h"
#include "wb_trace.h"
#include "wb_test.h"

static void test_response(void)
{
	struct wb_faultlog fl = { 0 };
	const char *text =
		"3 1234567 1 write - 2048 128 timeout\n"
		"4 1234999 2 flush preflush 0 0 ioerr\n"
		"garbage\n"
		"6 1 1 write -\n"	/* short: must not borrow the next line's fields */
		"5 1235000 1 write fua 4096 8 resv_conflict";
	int i, ok_all = 1;

	is_int(3, wb_faultlog_add_response(&fl, text, 0), "response: three entries, bad lines skipped");
	is_int(3, (int)fl.n, "three in the vector");
	if (fl.n == 3) {
		ok(fl.v[0].seq == 3 && fl.v[1].seq == 4 && fl.v[2].seq == 5, "in order");
		is_int(0, (int)fl.v[2].epoch, "a response carries no epoch");
		is_int(4096, (int)fl.v[2].sector, "a last line without newline");
	}
	is_int(1, wb_faultlog_add_response(&fl, text, 5), "entries before from are dropped");
	/* growth past the first allocation keeps every entry */
	for (i = 0; i < 300; i++)
		wb_faultlog_add_response(&fl, "9 1 1 write - 8 8 nospc\n", 0);
	is_int(304, (int)fl.n, "the vector grows");
	for (i = 4; i < 304; i++)
		ok_all &= fl.v[i].err == ENOSPC && fl.v[i].seq == 9;
	ok(ok_all, "and keeps what it holds");
	ok(fl.cap >= fl.n, "capacity covers the entries");
	wb_faultlog_free(&fl);
	ok(!fl.v && !fl.n && !fl.cap, "freed and zeroed");
}

static void test_recorded(void)
{
	struct wb_faultlog fl = { 0 };
	const char *text =
		"event 100 table 0 2048 wberr /dev/vdb 0 4 log_size 65536 seed 1\n"
		"fault 0 0 500 1 write - 64 8 ioerr\n"
		"gap 0 1 4\n"
		"fault 0 4 600 1 write SYNC 72 8 timeout\n"
		"event 700 epoch 1\n"
		"fault 1 0 800 2 fua FUA 80 8 nexus\n"
		"fault 1 1 900 2 write - 88 8 bogus\n"
		"gap 1 1 3\n";
	char path[] = "/tmp/wb-faultlog-test.XXXXXX";
	FILE *f;
	int fd;

	is_int(3, wb_faultlog_add_recorded(&fl, text), "faults.txt: three fault lines parse");
	if (fl.n == 3) {
		is_int(0, (int)fl.v[0].epoch, "epoch of the first");
		is_int(4, (int)fl.v[1].seq, "seq after the prefix");
		is_int(ETIMEDOUT, fl.v[1].err, "status after the prefix");
		is_int(1, (int)fl.v[2].epoch, "a reload's epoch");
		is_int(EBADE, fl.v[2].err, "the alias");
	}
	is_int(5, (int)fl.gaps, "gaps summed over epochs (3 + 2)");
	wb_faultlog_free(&fl);

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	ok(f != NULL, "a scratch faults.txt");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	is_int(0, wb_faultlog_load(&fl, path), "loads from a file");
	ok(fl.n == 3 && fl.gaps == 5, "the same entries and gaps");
	wb_faultlog_free(&fl);
	unlink(path);
	is_int(-1, wb_faultlog_load(&fl, path), "a missing file is an error");
}

/* the writer's lines read back by the parser: the round trip faults.txt
 * makes from wberr-stress and wberr-run to their judges */
static void test_writer(void)
{
	const char *lines[] = { "3 1234567 1 write - 2048 128 timeout",
				"4 1234999 2 flush preflush 0 0 ioerr",
				"5 1235000 1 write fua 4096 8 nexus",
				"6 1235001 1 write - 64 8 ok" };
	struct wb_faultlog fl = { 0 };
	char *text = NULL, buf[256];
	size_t len = 0;
	struct wb_fault f;
	int same = 1;
	FILE *out = open_memstream(&text, &len);

	wb_faultlog_put_event(out, 100, "step %d", 0);
	for (int i = 0; i < 4; i++) {
		wb_fault_parse(lines[i], &f);
		if (i == 2)
			wb_faultlog_put_gap(out, 1, 4, 5);
		wb_faultlog_put_fault(out, i < 2 ? 0 : 1, &f);
		is_int((int)strlen(lines[i]), wb_fault_format(buf, sizeof(buf), &f),
		       "format %d: the length", i);
		is_str(lines[i], buf, "format %d: the line the target printed", i);
	}
	is_int(-1, wb_fault_format(buf, 8, &f), "a line that does not fit is refused");
	fclose(out);
	is_str("event 100 step 0\n"
	       "fault 0 3 1234567 1 write - 2048 128 timeout\n"
	       "fault 0 4 1234999 2 flush preflush 0 0 ioerr\n"
	       "gap 1 4 5\n"
	       "fault 1 5 1235000 1 write fua 4096 8 nexus\n"
	       "fault 1 6 1235001 1 write - 64 8 ok\n", text, "faults.txt as written");
	is_int(4, wb_faultlog_add_recorded(&fl, text), "and read back: four faults");
	for (size_t i = 0; i < fl.n; i++) {
		wb_fault_parse(lines[i], &f);
		f.epoch = i < 2 ? 0 : 1;
		same &= !memcmp(&f, &fl.v[i], sizeof(f));
	}
	ok(same, "each the same as the line it was written from");
	is_int(1, (int)fl.gaps, "the gap counted");
	wb_faultlog_free(&fl);
	free(text);
}

/* a real driver's failed completions as fault-log entries */
static void test_from_blk(void)
{
	struct wb_ev_blk k = { .major = 8, .rwbs = "WS", .sector = 2048, .nr = 128, .err = ENODATA };
	struct wb_fault f;

	is_int(0, wb_fault_from_blk(&k, 3, 77, &f), "a failed write");
	ok(f.seq == 3 && f.ns == 77 && f.sector == 2048 && f.nr == 128 && f.err == ENODATA && f.rule == 0,
	   "seq, time, sectors, errno");
	is_str("write", f.opclass, "op class write");
	is_str("sync", f.flags, "flags from the rwbs");
	is_str("medium", f.status, "the status ENODATA comes from");
	snprintf(k.rwbs, sizeof(k.rwbs), "WFS");
	wb_fault_from_blk(&k, 4, 0, &f);
	is_str("fua", f.opclass, "a write with FUA is fua");
	is_str("sync|fua", f.flags, "in the log's flag order");
	snprintf(k.rwbs, sizeof(k.rwbs), "FWS");
	k.nr = 0;
	k.err = EIO;
	wb_fault_from_blk(&k, 5, 0, &f);
	is_str("flush", f.opclass, "an empty preflush write is a flush");
	is_str("sync|preflush", f.flags, "its flags");
	is_str("ioerr", f.status, "EIO is ioerr");
	snprintf(k.rwbs, sizeof(k.rwbs), "F");
	wb_fault_from_blk(&k, 6, 0, &f);
	is_str("flush", f.opclass, "REQ_OP_FLUSH");
	snprintf(k.rwbs, sizeof(k.rwbs), "RA");
	k.nr = 8;
	wb_fault_from_blk(&k, 7, 0, &f);
	ok(!strcmp(f.opclass, "read") && !strcmp(f.flags, "rahead"), "a readahead read");
	k.err = 0;
	is_int(-1, wb_fault_from_blk(&k, 8, 0, &f), "a success is no fault");
	k.err = EPERM;
	is_int(-1, wb_fault_from_blk(&k, 8, 0, &f), "an errno no status has is refused");
}

int main(void)
{
	struct wb_fault f;

	test_from_blk();
	test_response();
	test_recorded();
	test_writer();

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
