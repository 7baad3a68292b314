// SPDX-License-Identifier: GPL-2.0
/*
 * The op table (ops.h): scenarios/README.md's "step:" list names the same
 * keys, the sync column and the model hooks do what the runner relies on.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "ops.h"
#include "wb_sys.h"
#include "wb_test.h"

/* "{fd*: name, path*: "x, y", flags: [A, B]}" -> "*fd *path flags" (note: dropped) */
static void readme_keys(const char *s, char *out, size_t len)
{
	int depth = 0, quote = 0, at_key = 1;
	size_t o = 0;
	char key[64];
	size_t k = 0;

	out[0] = 0;
	for (s = strchr(s, '{'); s && *++s;) {
		char ch = *s;

		if (quote) {
			quote = ch != '"';
			continue;
		}
		if (ch == '"') {
			quote = 1;
			continue;
		}
		if (ch == '[' || ch == '{')
			depth++;
		if ((ch == ']' || ch == '}') && depth-- == 0)
			break;
		if (depth)
			continue;
		if (at_key && ch == ':') {
			int req = k && key[k - 1] == '*';

			key[req ? k - 1 : k] = 0;
			if (strcmp(key, "note") && o + strlen(key) + 3 < len)
				o += (size_t)snprintf(out + o, len - o, "%s%s%s", o ? " " : "", req ? "*" : "", key);
			at_key = 0;
			k = 0;
		} else if (at_key && ch != ' ' && k + 1 < sizeof(key)) {
			key[k++] = ch;
		} else if (ch == ',') {
			at_key = 1;
		}
	}
}

static void test_readme(void)
{
	const char *top = getenv("TOP");
	char path[512], *text, *p;
	int found = 0;

	snprintf(path, sizeof(path), "%s/scenarios/README.md", top ? top : TOP_DIR);
	text = wb_read_file(path, NULL);
	ok(text != NULL, "scenarios/README.md is readable (%s)", path);
	if (!text)
		return;
	p = strstr(text, "\nstep:\n");
	ok(p != NULL, "README has the step: list");
	for (int op = 0; p && op < OP__N; op++) {
		char want[16 + NAME_LEN], got[256], *line;

		snprintf(want, sizeof(want), "\n  %s:", op_names[op]);
		line = strstr(p, want);
		if (!line) {
			ok(0, "README lists op %s", op_names[op]);
			continue;
		}
		found++;
		readme_keys(line + strlen(want), got, sizeof(got));
		is_str(op_table[op].keys, got, "README's keys of %s are the table's", op_names[op]);
	}
	is_int(OP__N, found, "README lists every op");
	free(text);
}

static void test_columns(void)
{
	struct oracle o;
	struct step st;

	is_str("sync_file_range", op_names[OP_SYNC_FILE_RANGE], "names come from the table");
	ok(op_table[OP_FSYNC].who == OPW_AGENT && op_table[OP_FAULT].who == OPW_RUNNER &&
	   op_table[OP_UNLINK].who == OPW_RUNNER, "who runs fsync, fault and unlink");
	ok(op_table[OP_OPEN].flag_names && op_table[OP_OPEN].flags_at == offsetof(struct step, oflags),
	   "open's flags are open flags, into oflags");
	ok(!op_table[OP_FSYNC].flag_names, "fsync takes no flags");

	oracle_init(&o, FS_EXT4);
	memset(&st, 0, sizeof(st));
	snprintf(st.proc, sizeof(st.proc), "main");
	snprintf(st.fd, sizeof(st.fd), "a");
	snprintf(st.path, sizeof(st.path), "f");
	st.op = OP_OPEN;
	st.oflags = O_RDWR | O_CREAT;
	is_str("f", oracle_apply(&o, &st), "the open hook opens f");
	is_int(O_RDWR | O_CREAT, oracle_fd_oflags(&o, "main", "a"), "with its flags");
	st.op = OP_PWRITE;
	is_int(0, oracle_is_sync(&o, &st), "a plain pwrite is no sync call");
	st.op = OP_FSYNC;
	is_int(1, oracle_is_sync(&o, &st), "fsync is");
	st.op = OP_REOPEN;
	is_str("f", oracle_apply(&o, &st), "the reopen hook opens f again");
	st.op = OP_CLOSE;
	ok(oracle_apply(&o, &st) == NULL, "close opens nothing");
	is_int(-1, oracle_fd_oflags(&o, "main", "a"), "and the fd is gone");
	st.op = OP_OPEN;
	st.oflags = O_WRONLY | O_DSYNC;
	oracle_apply(&o, &st);
	st.op = OP_WRITE;
	is_int(1, oracle_is_sync(&o, &st), "a write on an O_DSYNC fd is a sync call");
	is_int(0, oracle_is_dio_write(&o, &st), "not an O_DIRECT one");
}

int main(void)
{
	test_readme();
	test_columns();
	return tap_done();
}
