// SPDX-License-Identifier: GPL-2.0
/* wb_tap: the exact bytes consumers parse (report.sh, run-guest's awk). */
#include <stdlib.h>

#include "wb_test.h"

int main(void)
{
	struct wb_tap t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	wb_tap_init(&t, f);
	wb_tap_header(&t, 3);
	wb_tap_point(&t, 1, 0, NULL, "first %d", 1);
	wb_tap_point(&t, 0, 0, "2 checked", "second");
	wb_tap_yaml_begin(&t);
	fprintf(f, "  message: x\n");
	wb_tap_yaml_end(&t);
	wb_tap_point(&t, 1, 7, "SKIP why", "numbered");
	wb_tap_diag(&t, "note %s", "n");
	is_int(1, wb_tap_done(&t), "a failed point makes the exit status 1");
	fclose(f);
	is_str("TAP version 14\n1..3\nok 1 - first 1\nnot ok 2 - second # 2 checked\n"
	       "  ---\n  message: x\n  ...\nok 7 - numbered # SKIP why\n# note n\n1..7\n",
	       buf, "header, points, directives, YAML, diagnostics, trailing plan");
	free(buf);
	wb_tap_init(&t, stdout);
	is_int(0, t.n + t.fail, "init resets the counts");
	return tap_done();
}
