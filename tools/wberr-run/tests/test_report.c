// SPDX-License-Identifier: GPL-2.0
/* TAP, JUnit, summary and errno-fidelity output from fake results. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "wb_names.h"
#include "report.h"
#include "wb_test.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b = calloc(1, 65536);

	if (f) {
		if (fread(b, 1, 65535, f) == 0)
			b[0] = 0;
		fclose(f);
	}
	return b;
}

static char *summary_of(const char *prefix, const struct run_info *ri, const struct inst_result *rs, int n)
{
	FILE *f = tmpfile();
	char *s = calloc(1, 16384);

	report_summary(f, prefix, ri, rs, n);
	rewind(f);
	if (fread(s, 1, 16383, f) == 0)
		s[0] = 0;
	fclose(f);
	return s;
}

/*
 * The header's fixture: instances of a matrix scenario (timeout passed,
 * nospc failed) and of a plain one (passed on ext4, skipped on btrfs),
 * filled in place as its pointers point into it.
 */
struct header_fixture {
	struct step sm[2], sl[3];
	struct scenario scm, scl;
	struct instance in[4];
	struct step_result s0[2], s1[2], s2[3];
	struct inst_result r[4];
	const char *paths[1], *filters[2];
	struct run_info ri;
};

static void header_fixture(struct header_fixture *x)
{
	*x = (struct header_fixture){
		.sm = { { .op = OP_FAULT, .fault = { .rule = { .status = "$status" } } }, { .op = OP_FSYNC, .fd = "a" } },
		.sl = { { .op = OP_FAULT, .fault = { .rule = { .status = "ioerr" } } }, { .op = OP_FSYNC, .fd = "a" },
			{ .op = OP_FAULT, .fault = { .rule = { .status = "medium" } } } },
		.s0 = { { .ran = 1, .pass = 1 }, { .ran = 1, .pass = 1, .err = ETIMEDOUT } },
		.s1 = { { .ran = 1, .pass = 1 }, { .ran = 1, .pass = 0 } },
		/* the "medium" fault never ran: not a status that was tried */
		.s2 = { { .ran = 1, .pass = 1 }, { .ran = 1, .pass = 1, .err = EIO }, { 0 } },
		.paths = { "scenarios/core" },
		.filters = { "ext4/*", "xfs/*" },
	};
	x->scm = (struct scenario){ .name = "m", .file = "m.yaml", .matrix_status = 1, .nsteps = 2, .steps = x->sm };
	x->scl = (struct scenario){ .name = "l", .guarantee = "once", .file = "l.yaml", .nsteps = 3, .steps = x->sl };
	x->in[0] = (struct instance){ .sc = &x->scm, .fs = FS_EXT4, .status = "timeout", .id = "ext4/m[timeout]" };
	x->in[1] = (struct instance){ .sc = &x->scm, .fs = FS_XFS, .status = "nospc", .id = "xfs/m[nospc]" };
	x->in[2] = (struct instance){ .sc = &x->scl, .fs = FS_EXT4, .id = "ext4/l" };
	x->in[3] = (struct instance){ .sc = &x->scl, .fs = FS_BTRFS, .id = "btrfs/l" };
	x->r[0] = (struct inst_result){ .inst = &x->in[0], .verdict = R_PASS, .nsteps = 2, .steps = x->s0, .nchecked = 2,
					.nreported = 1, .nfaults = 3, .phase = { 1, 2, 0.5, 3, 1, 0.5, 0 } };
	x->r[1] = (struct inst_result){ .inst = &x->in[1], .verdict = R_FAIL, .nsteps = 2, .steps = x->s1, .nchecked = 1,
					.nfaults = 1, .reason = "step 2 fsync a (m.yaml:9): returned 0\nexpected ENOSPC" };
	x->r[2] = (struct inst_result){ .inst = &x->in[2], .verdict = R_PASS, .nsteps = 3, .steps = x->s2, .nchecked = 3,
					.nreported = 2, .nfaults = 2 };
	/* skipped: counted as such, its numbers and filesystem not */
	x->r[3] = (struct inst_result){ .inst = &x->in[3], .verdict = R_SKIP, .nchecked = 9, .nreported = 9, .nfaults = 9,
					.reason = "no mkfs.btrfs" };
	x->ri = (struct run_info){ .kernel = "6.12.118-test", .paths = x->paths, .npaths = 1,
				   .filters = x->filters, .nfilters = 2 };
}

/*
 * The header make run ends with: statuses come from fault steps that ran
 * ('$status' is the instance's matrix status), counts from instances that
 * were not skipped, and every failed instance is named on one line.
 */
static void test_header_lines(struct header_fixture *x)
{
	char want[2048], *s;

	snprintf(want, sizeof(want),
		 "Kernel:        6.12.118-test\n"
		 "Scenarios:     scenarios/core (filter ext4/* xfs/*)\n"
		 "Instances:     4: 2 passed, 1 failed, 1 skipped\n"
		 "File systems:  ext4 (2), xfs (1)\n"
		 "blk_status_t:  timeout, nospc, ioerr (3 of %zu)\n"
		 "Sync results:  6 fd results checked against the model, 3 of them returned an error\n"
		 "Faults:        6 injected (dm-wberr fault log entries)\n"
		 "Time:          8.0 s in instances: device 1.0, mkfs 2.0, mount 0.5, steps 3.0, check 1.0, "
		 "teardown 0.5, other 0.0\n"
		 "Violations:    1 failed instance\n"
		 "  xfs/m[nospc]: step 2 fsync a (m.yaml:9): returned 0 expected ENOSPC\n"
		 "\n"
		 "Summary: which guarantees hold on this kernel, per filesystem\n", wb_nr_statuses);
	s = summary_of("", &x->ri, x->r, 4);
	s[strnlen(s, strlen(want))] = 0;	/* the header and the section's title */
	is_str(want, s, "header: kernel, scenarios, instances, file systems, statuses, counts, time per phase, violation");
	free(s);
	s = summary_of("", &x->ri, x->r, 4);
	ok(strstr(s, "\next4:\n  [holds] m (1/1)\n  [holds] once (1/1)\n") != NULL, "per-filesystem section kept");
	ok(strstr(s, "\nbtrfs:\n  [skipped] once (0/0)\n") != NULL, "a skipped instance still has its line");
	free(s);
}

/* nothing failed, nothing injected */
static void test_header_none(struct header_fixture *x)
{
	char *s;

	x->r[1].verdict = R_PASS;
	s = summary_of("", &x->ri, x->r + 2, 1);
	ok(strstr(s, "\nViolations:    none\n") != NULL, "no violation: none");
	free(s);
	s = summary_of("", &x->ri, x->r + 3, 1);
	ok(strstr(s, "\nFile systems:  none ran\nblk_status_t:  none injected\n") != NULL, "only skipped: none ran");
	free(s);
}

/* the statuses tried, in the table's order; every one (the whole library): one word */
static void test_header_statuses(const struct header_fixture *x)
{
	struct inst_result many[12], every[32];
	struct instance all[32];
	char want[128], *s;

	for (size_t k = 0; k < wb_nr_statuses && k < 12; k++) {
		many[k] = x->r[0];
		many[k].inst = &all[k];
		all[k] = x->in[0];
		all[k].status = wb_statuses[k].name;
	}
	s = summary_of("", &x->ri, many, 12);
	ok(strstr(s, "\nblk_status_t:  notsupp, timeout, nospc, transport, target, resv_conflict, medium, "
		  "protection, resource, ioerr, again, dev_resource (12 of") != NULL, "statuses in the table's order");
	free(s);
	for (size_t k = 0; k < wb_nr_statuses && k < 32; k++) {
		all[k] = x->in[0];
		all[k].status = wb_statuses[k].name;
		every[k] = x->r[0];
		every[k].inst = &all[k];
	}
	s = summary_of("", &x->ri, every, (int)wb_nr_statuses);
	snprintf(want, sizeof(want), "\nblk_status_t:  all %zu that dm-wberr can return\n", wb_nr_statuses);
	ok(wb_nr_statuses <= 32 && strstr(s, want) != NULL, "every status tried: said in one word");
	free(s);
}

/* many failures: ten named, one line each, the rest counted */
static void test_header_many_failures(const struct header_fixture *x)
{
	struct inst_result many[12];
	char want[2048], *s, *line;
	int bad = 0;

	for (int i = 0; i < 12; i++) {
		many[i] = x->r[2];
		many[i].verdict = R_FAIL;
		memset(many[i].reason, 'x', 300);
		many[i].reason[300] = 0;
	}
	s = summary_of("# ", &x->ri, many, 12);
	ok(strstr(s, "# Violations:    12 failed instances\n") != NULL, "failures counted");
	ok(strstr(s, "#   ... and 2 more (the TAP file has each one's steps)\n") != NULL, "ten named, the rest counted");
	strcpy(want, "\n#   ext4/l: ");
	memset(want + 13, 'x', 200);
	strcpy(want + 213, "...\n");
	ok(strstr(s, want) != NULL, "a long reason is cut at 200 characters");
	for (line = s; *line; line = strchr(line, '\n') + 1) {
		bad += strncmp(line, "# ", 2) != 0;
		if (!strchr(line, '\n'))
			break;
	}
	is_int(0, bad, "every line carries the prefix");
	free(s);
}

static void test_header(void)
{
	struct header_fixture x;

	header_fixture(&x);
	test_header_lines(&x);
	test_header_none(&x);
	test_header_statuses(&x);
	test_header_many_failures(&x);
}

/* content-after-failure: a row per instance, a column per label, the
 * errno of a failed read, (x) for a failed expect_content */
static void test_content(const char *dir)
{
	struct step st[2] = {
		{ .op = OP_PREAD, .fd = "a", .label = "right-after", .has_content = 1, .content_new = 0x22, .content_old = 0x11 },
		{ .op = OP_PREAD, .fd = "a", .label = "remount", .has_content = 1, .content_new = 0x22, .content_old = 0x11 },
	};
	struct scenario sc = { .name = "c", .nsteps = 2, .steps = st };
	struct instance in[2] = { { .sc = &sc, .fs = FS_EXT4, .data_mode = DM_JOURNAL }, { .sc = &sc, .fs = FS_XFS } };
	struct step_result s0[2] = { { .ran = 1, .pass = 1, .content = CONTENT_NEW },
				     { .ran = 1, .pass = 0, .content = CONTENT_NEW } };
	struct step_result s1[2] = { { .ran = 1, .pass = 1, .err = EIO },
				     { .ran = 1, .pass = 1, .content = CONTENT_OLD } };
	struct inst_result r[2] = { { .inst = &in[0], .nsteps = 2, .steps = s0 },
				    { .inst = &in[1], .nsteps = 2, .steps = s1 } };
	char path[512];
	char *s;

	is_int(1, report_content(dir, r, 2), "content tables written");
	snprintf(path, sizeof(path), "%s/content-after-failure.csv", dir);
	s = slurp(path);
	is_str("scenario,fs,right-after,remount\nc,ext4 data=journal,new,new (x)\nc,xfs,EIO,old\n", s,
	       "CSV: a row per instance (with its data mode), the read's errno, (x) on a failed expectation");
	free(s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/content-after-failure.md", dir);
	s = slurp(path);
	ok(strstr(s, "| c | xfs | EIO | old |") != NULL, "markdown row");
	free(s);
	unlink(path);
}

/* with DAX instances, each guarantee has a page-cache and a DAX cell */
/* results.json says which instances ran on DAX, for the results page's columns */
static void results_json_dax(const struct inst_result *r, int n)
{
	char dir[] = "/tmp/test_report_dax.XXXXXX", path[64];
	char *s;

	if (!mkdtemp(dir)) {
		ok(0, "results.json: a temporary directory");
		return;
	}
	is_int(0, report_json(dir, NULL, NULL, r, n), "results.json written with DAX instances");
	snprintf(path, sizeof(path), "%s/results.json", dir);
	s = slurp(path);
	ok(s && strstr(s, "{\"id\": \"ext4/p\", \"scenario\": \"p\", \"file\": \"p.yaml\", "
			  "\"guarantee\": \"no error is lost\", \"fs\": \"ext4\", \"status\": null, \"dax\": false,") &&
	   strstr(s, "{\"id\": \"ext4/d\", \"scenario\": \"d\", \"file\": \"d.yaml\", "
		     "\"guarantee\": \"no error is lost\", \"fs\": \"ext4\", \"status\": null, \"dax\": true,"),
	   "results.json: each instance says whether it ran on DAX");
	free(s);
	unlink(path);
	rmdir(dir);
}

static void test_dax_column(void)
{
	struct step st[1] = { { .op = OP_FSYNC, .fd = "a" } };
	struct scenario pc = { .name = "p", .guarantee = "no error is lost", .file = "p.yaml", .nsteps = 1, .steps = st };
	struct scenario dx = { .name = "d", .guarantee = "no error is lost", .file = "d.yaml", .dax = 1,
			       .nsteps = 1, .steps = st };
	struct scenario dm = { .name = "m", .guarantee = "media errors show at access", .file = "m.yaml", .dax = 1,
			       .nsteps = 1, .steps = st };
	struct instance in[4] = { { .sc = &pc, .fs = FS_EXT4, .id = "ext4/p" },
				  { .sc = &dx, .fs = FS_EXT4, .id = "ext4/d" },
				  { .sc = &dm, .fs = FS_EXT4, .id = "ext4/m" },
				  { .sc = &dm, .fs = FS_XFS, .id = "xfs/m" } };
	struct step_result sr[1] = { { .ran = 1, .pass = 1 } };
	struct inst_result r[4] = { { .inst = &in[0], .verdict = R_PASS, .nsteps = 1, .steps = sr },
				    { .inst = &in[1], .verdict = R_FAIL, .nsteps = 1, .steps = sr },
				    { .inst = &in[2], .verdict = R_PASS, .nsteps = 1, .steps = sr },
				    { .inst = &in[3], .verdict = R_SKIP, .nsteps = 1, .steps = sr } };
	struct run_info ri = { .kernel = "6.12.118-test" };
	char *s = summary_of("", &ri, r, 4);

	ok(strstr(s, "per filesystem (page cache | DAX)\n") != NULL, "the title names the two columns");
	ok(strstr(s, "\next4:                          page cache         DAX\n"
		     "  no error is lost             [holds] (1/1)      [FAILS] (0/1)\n"
		     "  media errors show at access  -                  [holds] (1/1)\n") != NULL,
	   "ext4: one line per guarantee, a cell per column, '-' where none ran");
	ok(strstr(s, "\nxfs:                           page cache         DAX\n"
		     "  media errors show at access  -                  [skipped] (0/0)\n") != NULL,
	   "xfs: a skipped DAX instance keeps its cell");
	free(s);
	results_json_dax(r, 4);
}

/*
 * A program-mode instance (issue 34): it has no fault steps, so the
 * statuses come from what its plan told the device (result_told_status,
 * as program.c calls it per armed fault), and its time from the phases
 * program.c measures; make run printed "none injected" and "0.0 s in
 * instances" for a run of programs that injected faults for seconds.
 */
static void test_program_instance(const char *dir)
{
	struct program pg = { .nfaults = 2, .expect_program = EXIT_ZERO, .expect_check = EXIT_NONZERO,
			      .why = "the retry loses it", .promise = "src/x.c retry(): retries" };
	struct scenario sc = { .name = "p", .file = "p.yaml", .prog = &pg };
	struct instance in = { .sc = &sc, .fs = FS_XFS, .status = "timeout", .id = "xfs/p[timeout]" };
	struct step_result checks[2] = { { .ran = 1, .pass = 1, .what = "arm" },
					 { .ran = 1, .pass = 1, .what = "fault f0", .msg = "seen: 1 bio(s) failed" } };
	struct inst_result r = { .inst = &in, .verdict = R_PASS, .nsteps = 2, .steps = checks,
				 .nchecked = 14, .nreported = 1, .nfaults = 2,
				 .phase = { 0.5, 1.0, 0.5, 6.0, 3.0, 0.5 } };
	char want[256], path[512], *s;

	result_told_status(&r, "$status", in.status);
	result_told_status(&r, "ioerr", in.status);
	result_told_status(&r, "no-such-status", in.status);
	result_set_secs(&r, 12.5);
	is_int(1, r.phase[PH_OTHER] > 0.99 && r.phase[PH_OTHER] < 1.01, "program: other is what the phases leave (%.2f)",
	       r.phase[PH_OTHER]);
	s = summary_of("", NULL, &r, 1);
	snprintf(want, sizeof(want), "blk_status_t:  timeout, ioerr (2 of %zu)\n", wb_nr_statuses);
	ok(strstr(s, want) != NULL, "program: the statuses its plan told the device, not 'none injected'");
	ok(strstr(s, "Time:          12.5 s in instances: device 0.5, mkfs 1.0, mount 0.5, steps 6.0, "
		  "check 3.0, teardown 0.5, other 1.0\n") != NULL, "program: the time its phases took");
	ok(strstr(s, "Faults:        2 injected") != NULL, "program: the faults its log holds");
	free(s);

	is_int(0, report_json(dir, NULL, NULL, &r, 1), "program: results.json written");
	snprintf(path, sizeof(path), "%s/results.json", dir);
	s = slurp(path);
	ok(strstr(s, "\"secs\": 12.5") != NULL && strstr(s, "\"steps\": 6.000") != NULL,
	   "program: results.json has its time and phases");
	ok(strstr(s, "\"sync_results\": 14, \"errors_reported\": 1, \"faults_injected\": 2, "
		  "\"statuses\": [\"timeout\", \"ioerr\"]") != NULL, "program: results.json has its counts and statuses");
	ok(strstr(s, "\"promise\": \"src/x.c retry(): retries\", \"why\": \"the retry loses it\", "
		  "\"expect\": {\"program\": \"zero\", \"check\": \"fail\", \"errors\": \"seen\"}") != NULL,
	   "program: results.json has its promise, its finding's why and what it expects");
	ok(strstr(s, "{\"what\": \"fault f0\", \"pass\": true, \"msg\": \"seen: 1 bio(s) failed\"}") != NULL,
	   "program: results.json has each check");
	free(s);
	unlink(path);
}

/* the TAP, summary and fidelity fixture: one scenario passed on ext4, failed on xfs */
struct tap_fixture {
	struct step steps[2];
	struct scenario sc;
	struct instance in[2];
	struct step_result sr0[2], sr1[2];
	struct inst_result r[2];
};

static void tap_fixture(struct tap_fixture *x)
{
	*x = (struct tap_fixture){
		.steps = { { .op = OP_FSYNC, .fd = "a" }, { .op = OP_FSYNC, .fd = "b", .label = "buffered-fsync" } },
		.sr0 = { { .ran = 1, .pass = 1, .err = ETIMEDOUT }, { .ran = 1, .pass = 1, .err = ETIMEDOUT } },
		.sr1 = { { .ran = 1, .pass = 0, .err = EIO, .msg = "returned \"EIO\"" },
			 { .ran = 1, .pass = 1, .err = EIO } },
	};
	x->sc = (struct scenario){ .name = "s", .guarantee = "exactly once", .file = "x.yaml", .line = 3,
				   .fidelity = 1, .nsteps = 2, .steps = x->steps };
	x->in[0] = (struct instance){ .sc = &x->sc, .fs = FS_EXT4, .status = "timeout", .id = "ext4/s[timeout]" };
	x->in[1] = (struct instance){ .sc = &x->sc, .fs = FS_XFS, .status = "timeout", .id = "xfs/s[timeout]" };
	x->r[0] = (struct inst_result){ .inst = &x->in[0], .verdict = R_PASS, .nsteps = 2, .steps = x->sr0 };
	x->r[1] = (struct inst_result){ .inst = &x->in[1], .verdict = R_FAIL, .nsteps = 2, .steps = x->sr1,
					.reason = "step 1 <fsync> & co" };
}

static void test_yaml_quote(void)
{
	char q[256];

	yaml_quote("a \"b\" \\ c", q, sizeof(q));
	is_str("\"a \\\"b\\\" \\\\ c\"", q, "YAML double-quoted scalar escapes");
}

static void test_tap(const struct tap_fixture *x)
{
	FILE *f = tmpfile();
	char *s;

	report_tap_begin(f, 2);
	report_tap_result(f, 1, &x->r[0]);
	report_tap_result(f, 2, &x->r[1]);
	rewind(f);
	s = calloc(1, 8192);
	if (fread(s, 1, 8191, f) == 0)
		s[0] = 0;
	fclose(f);
	ok(!strncmp(s, "TAP version 14\n1..2\nok 1 - ext4/s[timeout]", 38), "TAP header, plan and first result");
	ok(strstr(s, "not ok 2 - xfs/s[timeout]") != NULL, "failure line");
	ok(strstr(s, "  ---\n  message: \"step 1 <fsync> & co\"") != NULL, "YAML diagnostic block");
	ok(strstr(s, "    - \"FAIL 1 fsync a -> EIO: returned \\\"EIO\\\"\"") != NULL, "per-step lines");
	ok(strstr(s, "  ...\n") != NULL, "block closed");
	free(s);
}

static void test_summary(const struct tap_fixture *x)
{
	FILE *f = tmpfile();
	char *s;

	report_summary(f, "# ", NULL, x->r, 2);
	rewind(f);
	s = calloc(1, 8192);
	if (fread(s, 1, 8191, f) == 0)
		s[0] = 0;
	fclose(f);
	ok(strstr(s, "# ext4:\n#   [holds] exactly once (1/1)") != NULL, "summary: ext4 holds");
	ok(strstr(s, "# xfs:\n#   [FAILS] exactly once (0/1)") != NULL, "summary: xfs fails");
	ok(strstr(s, "# 1 passed, 1 failed, 0 skipped") != NULL, "totals");
	ok(!strncmp(s, "# Kernel:        unknown\n", 25), "summary starts with the header, kernel unknown without run info");
	ok(strstr(s, "# Violations:    1 failed instance\n#   xfs/s[timeout]: step 1 <fsync> & co\n") != NULL,
	   "the failed instance is named with its reason");
	free(s);
}

static void test_fidelity(const char *dir, const struct tap_fixture *x)
{
	char path[512], *s;

	is_int(1, report_fidelity(dir, NULL, x->r, 2), "fidelity tables written");
	snprintf(path, sizeof(path), "%s/errno-fidelity.csv", dir);
	s = slurp(path);
	is_str("status,blk_sts,blk_errno,ext4 buffered-fsync,xfs buffered-fsync\ntimeout,2,ETIMEDOUT,ETIMEDOUT =,EIO\n",
	       s, "CSV: one row per status, one column per fs and label");
	free(s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/errno-fidelity.md", dir);
	s = slurp(path);
	ok(strstr(s, "| timeout | 2 | ETIMEDOUT | ETIMEDOUT = | EIO |") != NULL, "markdown row");
	free(s);
	unlink(path);
}

/* a 6.1 kernel (its own numbering) and the fixture's results with a third, skipped, for a status it lacks */
struct kernel_6_1_fixture {
	struct wb_kernel k;
	struct instance in2;
	struct inst_result r2[3];
};

static void kernel_6_1_fixture(struct kernel_6_1_fixture *x, const struct tap_fixture *t)
{
	char err[128] = "";	/* written only on a refusal */

	wb_kernel_init(&x->k);
	wb_kernel_set_release(&x->k, "6.1.0-57-amd64");
	x->k.series = 0;
	is_int(0, wb_kernel_parse_statuses(&x->k, "timeout=2 ioerr=10 offline=17", err, sizeof(err)),
	       "a 6.1-like statuses reply %s", err);
	x->in2 = *t->r[0].inst;
	x->r2[0] = t->r[0];
	x->r2[1] = t->r[1];
	x->r2[2] = t->r[1];
	x->in2.status = "inval";
	x->r2[2].inst = &x->in2;
	x->r2[2].verdict = R_SKIP;
	x->r2[2].nsteps = 0;
	x->r2[2].steps = NULL;	/* as exec_instance leaves a skipped instance */
}

/* a 6.1 kernel's fidelity table: inval shown as absent */
static void test_fidelity_6_1(const char *dir, const struct kernel_6_1_fixture *x)
{
	char path[512], *s;

	is_int(1, report_fidelity(dir, &x->k, x->r2, 3), "fidelity tables written for 6.1");
	snprintf(path, sizeof(path), "%s/errno-fidelity.csv", dir);
	s = slurp(path);
	ok(strstr(s, "\ninval,,EINVAL,absent,absent\n") != NULL, "a status the kernel lacks: a row of 'absent' (%s)", s);
	free(s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/errno-fidelity.md", dir);
	unlink(path);
}

static void test_results_json_6_1(const char *dir, const struct kernel_6_1_fixture *x)
{
	char path[512], *s;

	is_int(0, report_json(dir, NULL, &x->k, x->r2, 3), "results.json written");
	snprintf(path, sizeof(path), "%s/results.json", dir);
	s = slurp(path);
	ok(strstr(s, "\"kernel\": {\"release\": \"6.1.0-57-amd64\", \"series\": false, "
		  "\"statuses\": {\"timeout\": 2, \"ioerr\": 10, \"offline\": 17}}") != NULL,
	   "results.json: the kernel and its statuses");
	ok(strstr(s, "{\"id\": \"ext4/s[timeout]\", \"scenario\": \"s\"") != NULL, "results.json: an instance by id");
	ok(strstr(s, "\"verdict\": \"fail\"") != NULL && strstr(s, "\"verdict\": \"skip\"") != NULL,
	   "results.json: verdicts");
	ok(strstr(s, "\"op\": \"fsync\"") != NULL && strstr(s, "\"errno\": \"EIO\"") != NULL,
	   "results.json: a step with what it returned");
	free(s);
	unlink(path);
}

/*
 * A skipped instance of a scenario that reads content (no step results,
 * as exec_instance leaves it) beside one that ran: the tables are written
 * and the skipped instance has no row.
 */
static void test_content_skipped(const char *dir)
{
	struct step st[1] = { { .op = OP_PREAD, .fd = "a", .label = "after", .has_content = 1,
				.content_new = 0x22, .content_old = 0x11 } };
	struct scenario sc = { .name = "k", .nsteps = 1, .steps = st };
	struct instance in[2] = { { .sc = &sc, .fs = FS_EXT4 }, { .sc = &sc, .fs = FS_XFS } };
	struct step_result sr[1] = { { .ran = 1, .pass = 1, .content = CONTENT_NEW } };
	struct inst_result r[2] = { { .inst = &in[0], .verdict = R_PASS, .nsteps = 1, .steps = sr },
				    { .inst = &in[1], .verdict = R_SKIP, .nsteps = 0, .steps = NULL } };
	char csv[512], md[512], *s;
	int rc;

	rc = report_content(dir, r, 2);
	snprintf(csv, sizeof(csv), "%s/content-after-failure.csv", dir);
	snprintf(md, sizeof(md), "%s/content-after-failure.md", dir);
	s = slurp(csv);
	ok(rc == 1 && !access(csv, R_OK) && !access(md, R_OK) && !strcmp(s, "scenario,fs,after\nk,ext4,new\n"),
	   "the content table takes a skipped instance (no step results)");
	if (rc != 1)
		printf("# report_content returned %d\n", rc);
	free(s);
	unlink(md);
	unlink(csv);
}

int main(void)
{
	struct tap_fixture x;
	struct kernel_6_1_fixture k61;
	char dir[] = "/tmp/wberr-report-XXXXXX";

	test_dax_column();
	tap_fixture(&x);
	test_yaml_quote();
	test_tap(&x);
	test_summary(&x);
	test_header();
	if (!mkdtemp(dir))
		return 1;
	test_fidelity(dir, &x);
	kernel_6_1_fixture(&k61, &x);
	test_fidelity_6_1(dir, &k61);
	test_results_json_6_1(dir, &k61);
	test_content_skipped(dir);
	test_content(dir);
	test_program_instance(dir);
	rmdir(dir);
	return tap_done();
}
