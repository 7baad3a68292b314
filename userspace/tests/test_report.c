// SPDX-License-Identifier: GPL-2.0
/* TAP, JUnit, summary and errno-fidelity output from fake results. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "report.h"
#include "tap.h"

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

int main(void)
{
	struct step steps[2] = { { .op = OP_FSYNC, .fd = "a" }, { .op = OP_FSYNC, .fd = "b", .label = "buffered-fsync" } };
	struct scenario sc = { .name = "s", .guarantee = "exactly once", .file = "x.yaml", .line = 3,
			       .fidelity = 1, .nsteps = 2, .steps = steps };
	struct instance in[2] = { { .sc = &sc, .fs = FS_EXT4, .status = "timeout", .id = "ext4/s[timeout]" },
				  { .sc = &sc, .fs = FS_XFS, .status = "timeout", .id = "xfs/s[timeout]" } };
	struct step_result sr0[2] = { { .ran = 1, .pass = 1, .err = ETIMEDOUT }, { .ran = 1, .pass = 1, .err = ETIMEDOUT } };
	struct step_result sr1[2] = { { .ran = 1, .pass = 0, .err = EIO, .msg = "returned \"EIO\"" },
				      { .ran = 1, .pass = 1, .err = EIO } };
	struct inst_result r[2] = { { .inst = &in[0], .verdict = R_PASS, .nsteps = 2, .steps = sr0 },
				    { .inst = &in[1], .verdict = R_FAIL, .nsteps = 2, .steps = sr1,
				      .reason = "step 1 <fsync> & co" } };
	char q[256], dir[] = "/tmp/wberr-report-XXXXXX", path[512], *s;
	FILE *f;

	yaml_quote("a \"b\" \\ c", q, sizeof(q));
	is_str("\"a \\\"b\\\" \\\\ c\"", q, "YAML double-quoted scalar escapes");
	xml_escape("<a & \"b\">", q, sizeof(q));
	is_str("&lt;a &amp; &quot;b&quot;&gt;", q, "XML escapes");

	f = tmpfile();
	report_tap_begin(f, 2);
	report_tap_result(f, 1, &r[0]);
	report_tap_result(f, 2, &r[1]);
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

	f = tmpfile();
	report_summary(f, "# ", r, 2);
	rewind(f);
	s = calloc(1, 8192);
	if (fread(s, 1, 8191, f) == 0)
		s[0] = 0;
	fclose(f);
	ok(strstr(s, "# ext4:\n#   [holds] exactly once (1/1)") != NULL, "summary: ext4 holds");
	ok(strstr(s, "# xfs:\n#   [FAILS] exactly once (0/1)") != NULL, "summary: xfs fails");
	ok(strstr(s, "# 1 passed, 1 failed, 0 skipped") != NULL, "totals");
	free(s);

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/junit.xml", dir);
	is_int(0, report_junit(path, r, 2), "JUnit written");
	s = slurp(path);
	ok(strstr(s, "<testsuite name=\"wberr-run\" tests=\"2\" failures=\"1\" skipped=\"0\"") != NULL, "suite counts");
	ok(strstr(s, "<testcase classname=\"wberr.xfs\" name=\"s[timeout]\"") != NULL, "testcase per instance");
	ok(strstr(s, "<failure message=\"step 1 &lt;fsync&gt; &amp; co\">") != NULL, "failure message escaped");
	free(s);
	unlink(path);

	is_int(1, report_fidelity(dir, r, 2), "fidelity tables written");
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
	rmdir(dir);
	return tap_done();
}
