// SPDX-License-Identifier: GPL-2.0
/*
 * wb_backend: the backend table and the real drivers' statuses, what a
 * backend refuses, scsi_debug's error lines, and the two documents that
 * list them (scenarios/README.md's backends, docs/real-drivers.md's
 * status rows) against the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_backend.h"
#include "wb_names.h"
#include "wb_sys.h"
#include "wb_test.h"

static void test_table(void)
{
	char buf[128];

	is_int(WB_BK_NVME, wb_backend_by_name("nvme"), "by name");
	is_int(-1, wb_backend_by_name("loop"), "an unknown backend");
	wb_backend_list(buf, sizeof(buf), "or");
	is_str("dm-wberr, scsi_debug, nvme or thin", buf, "listed");
	for (size_t i = 0; i < wb_nr_natives; i++) {
		const struct wb_native *n = &wb_natives[i];
		const struct wb_native *c = wb_native_for_status(n->backend, n->blk);

		ok(wb_status_by_name(n->blk) != NULL, "%s/%s: its blk status %s is one of dm-wberr's",
		   wb_backends[n->backend].name, n->name, n->blk);
		ok(wb_backends[n->backend].natives, "%s/%s: its backend has statuses of its own",
		   wb_backends[n->backend].name, n->name);
		ok(n->attempts >= 1 && n->source[0], "%s/%s: attempts and source given", wb_backends[n->backend].name,
		   n->name);
		ok(wb_native_by_name(n->backend, n->name) == n, "%s/%s: its name is its own",
		   wb_backends[n->backend].name, n->name);
		ok(c && (!n->canonical || c == n), "%s/%s: BLK_STS for %s has one canonical row",
		   wb_backends[n->backend].name, n->name, n->blk);
	}
	ok(wb_native_for_status(WB_BK_SCSI_DEBUG, "medium") == wb_native_by_name(WB_BK_SCSI_DEBUG, "medium-unrecovered"),
	   "scsi_debug: medium is the sense the midlayer maps to MEDIUM");
	ok(wb_native_for_status(WB_BK_NVME, "ioerr") == wb_native_by_name(WB_BK_NVME, "internal"),
	   "nvme: ioerr is Internal Error");
	ok(!wb_native_for_status(WB_BK_SCSI_DEBUG, "offline"), "scsi_debug: nothing gives offline");
	is_int(61, wb_native_errno(wb_native_by_name(WB_BK_NVME, "write-fault")), "write-fault: ENODATA");
}

static int refused(int bk, const char *rule_text, int file, const char *why_has)
{
	struct wb_rule r;
	char err[256], why[512] = "";

	if (wb_rule_parse(&r, rule_text, err, sizeof(err)))
		return 0;
	if (!wb_backend_check_rule(bk, &r, file, why, sizeof(why)))
		return 0;
	if (why_has && !strstr(why, why_has)) {
		printf("# refusal: %s\n", why);
		return 0;
	}
	return 1;
}

static int taken(int bk, const char *rule_text, int file)
{
	struct wb_rule r;
	char err[256], why[512];

	return !wb_rule_parse(&r, rule_text, err, sizeof(err)) && !wb_backend_check_rule(bk, &r, file, why, sizeof(why));
}

static void test_refusals(void)
{
	ok(taken(WB_BK_DM_WBERR, "write ioerr sectors=8-15 skip=2 prob=500", 1), "dm-wberr takes any rule");
	ok(taken(WB_BK_SCSI_DEBUG, "write,fua medium count=1", 0), "scsi_debug: write, a count, a status");
	ok(taken(WB_BK_SCSI_DEBUG, "write hardware", 0), "scsi_debug: a status of its own");
	ok(refused(WB_BK_SCSI_DEBUG, "write ioerr", 1, "cannot aim a fault at a file"), "scsi_debug: no file");
	ok(refused(WB_BK_SCSI_DEBUG, "write ioerr sectors=0-7", 0, "by opcode"), "scsi_debug: no sectors");
	ok(refused(WB_BK_SCSI_DEBUG, "discard ioerr", 0, "cannot fail discard"), "scsi_debug: no discard");
	ok(refused(WB_BK_SCSI_DEBUG, "write ioerr skip=1", 0, "no way to say skip="), "scsi_debug: no skip");
	ok(refused(WB_BK_SCSI_DEBUG, "write ioerr action=drop", 0, "action="), "scsi_debug: no drop");
	ok(refused(WB_BK_SCSI_DEBUG, "write offline", 0, "BLK_STS_OFFLINE"), "scsi_debug: no offline");
	ok(refused(WB_BK_NVME, "write write-fault-x", 0, "no status"), "nvme: an unknown status");
	ok(taken(WB_BK_NVME, "write write-fault skip=3 every=2 prob=500000 count=2", 0), "nvme: the fault_attr keys");
	ok(refused(WB_BK_NVME, "write ioerr prob=5", 0, "whole percent"), "nvme: whole percent only");
	ok(refused(WB_BK_NVME, "write ioerr action=delay:5:pass", 0, "without a delay"), "nvme: no delay");
	ok(refused(WB_BK_NVME, "write ioerr action=drop", 0, "executed"), "nvme: no drop");
	ok(taken(WB_BK_NVME, "write medium action=pass_then_fail count=1", 0), "nvme: pass_then_fail is what it does");
	ok(refused(WB_BK_SCSI_DEBUG, "write medium action=pass_then_fail", 0, "action="),
	   "scsi_debug: no pass_then_fail (ERR_FAIL_CMD never executes the command)");
	ok(refused(WB_BK_THIN, "write nospc", 0, "takes no fault step"), "thin: no fault step at all");
}

static void test_sd_line(void)
{
	char buf[96];

	ok(wb_native_sd_line(wb_native_by_name(WB_BK_SCSI_DEBUG, "medium-write"), 0x2a, 1, buf, sizeof(buf)) > 0,
	   "a line");
	is_str("2 -1 0x2a 0x00 0x00 0x02 0x3 0x0c 0x00", buf, "ERR_FAIL_CMD, once, WRITE(10), CHECK CONDITION, sense");
	wb_native_sd_line(wb_native_by_name(WB_BK_SCSI_DEBUG, "transport-failfast"), 0x8a, 0, buf, sizeof(buf));
	is_str("2 -1073741824 0x8a 0x0f 0x00 0x00 0x0 0x00 0x00", buf, "until removed: a count never reached");
	wb_native_sd_line(wb_native_by_name(WB_BK_SCSI_DEBUG, "timeout"), 0x35, 2, buf, sizeof(buf));
	is_str("0 -2 0x35", buf, "a timeout: type 0, no status");
	is_int(-1, wb_native_sd_line(wb_native_by_name(WB_BK_SCSI_DEBUG, "aborted"), 0x2a, 1, buf, 8), "too short");
}

/* docs/real-drivers.md: a row "| `name` | ... | BLK_STS_X | attempts | ..." per status */
static void test_doc(void)
{
	char path[512], want[128];
	char *doc;

	snprintf(path, sizeof(path), "%s/docs/real-drivers.md", TOP_DIR);
	doc = wb_read_file(path, NULL);
	ok(doc != NULL, "docs/real-drivers.md is readable");
	for (size_t i = 0; doc && i < wb_nr_natives; i++) {
		const struct wb_native *n = &wb_natives[i];
		char *row, *end;

		snprintf(want, sizeof(want), "\n| %s | `%s` |", wb_backends[n->backend].name, n->name);
		row = strstr(doc, want);
		end = row ? strchr(row + 1, '\n') : NULL;
		if (end)
			*end = 0;
		snprintf(want, sizeof(want), "| BLK_STS_%s | %d |", wb_status_by_name(n->blk)->sfx, n->attempts);
		ok(row && strstr(row, want), "real-drivers.md: %s/%s's row says %s", wb_backends[n->backend].name,
		   n->name, want);
		if (end)
			*end = '\n';
	}
	free(doc);
	snprintf(path, sizeof(path), "%s/scenarios/README.md", TOP_DIR);
	doc = wb_read_file(path, NULL);
	for (int b = 0; doc && b < WB_BK__N; b++) {
		snprintf(want, sizeof(want), "\n| `%s` |", wb_backends[b].name);
		ok(strstr(doc, want) != NULL, "scenarios/README.md's backend table has %s", wb_backends[b].name);
	}
	free(doc);
}

int main(void)
{
	test_table();
	test_refusals();
	test_sd_line();
	test_doc();
	return tap_done();
}
