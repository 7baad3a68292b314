// SPDX-License-Identifier: GPL-2.0
/*
 * meta.txt's one table (wb_meta.h): docs/architecture.md lists exactly its
 * keys, with the same writers; the writer refuses a key outside it and
 * the reader gives back what was written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_meta.h"
#include "wb_sys.h"
#include "wb_test.h"

/* the table's key of a doc row "| `key` | writers | what |", or -1 */
static int row_key(const char *line, char *writers, size_t len)
{
	char key[64];
	int n = 0;

	if (sscanf(line, "| `%63[^`]` | %n", key, &n) != 1 || !n)
		return -1;
	snprintf(writers, len, "%.*s", (int)strcspn(line + n, "|"), line + n);
	for (size_t i = strlen(writers); i > 0 && writers[i - 1] == ' '; i--)
		writers[i - 1] = 0;
	for (unsigned int i = 0; i < wb_nr_meta_keys; i++)
		if (!strcmp(wb_meta_keys[i].key, key))
			return (int)i;
	return -1;
}

static void test_doc(void)
{
	char *doc = wb_read_file(TOP_DIR "/docs/architecture.md", NULL), *line, *save = NULL;
	unsigned int rows = 0, same = 0, in = 0;

	ok(doc != NULL, "docs/architecture.md is readable");
	for (line = doc ? strtok_r(doc, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char writers[128];
		int k;

		if (!strcmp(line, "| key | written by | what it says |")) {
			in = 1;
			continue;
		}
		if (!in || !strncmp(line, "|---", 4))
			continue;
		if (line[0] != '|')
			break;
		rows++;
		k = row_key(line, writers, sizeof(writers));
		if (k >= 0 && !strcmp(writers, wb_meta_keys[k].writers))
			same++;
		else
			printf("# not the table's: %s\n", line);
	}
	ok(in, "the doc has the meta.txt key table");
	is_int(wb_nr_meta_keys, rows, "it lists as many keys as wb_meta.h's table has");
	is_int(wb_nr_meta_keys, same, "each a key of the table, with the table's writers");
	free(doc);
}

static void test_round_trip(void)
{
	char dir[] = "/tmp/wb-meta.XXXXXX", path[64];
	struct wb_meta m;
	FILE *f;

	if (!mkdtemp(dir))
		return;
	f = wb_fopen_in(dir, "meta.txt", "w");
	is_int(0, wb_meta_put(f, "tool", "program"), "a key of the table is written");
	is_int(0, wb_meta_put(f, "dev", "%u:%u", 253u, 4u), "with a format");
	is_int(0, wb_meta_put(f, "fio_rc.1", "%d", 3), "an indexed key");
	is_int(-1, wb_meta_put(f, "colour", "blue"), "a key outside the table is refused");
	fclose(f);
	is_int(0, wb_meta_load(&m, dir), "read back");
	is_str("program", wb_meta_get(&m, "tool", "?"), "tool");
	is_str("253:4", wb_meta_get(&m, "dev", "?"), "dev");
	is_int(3, (int)wb_meta_u64(&m, "fio_rc.1", 0), "fio_rc.1");
	is_str("none", wb_meta_get(&m, "colour", "none"), "the refused key was not written");
	is_int(7, (int)wb_meta_u64(&m, "cpus", 7), "a missing key's default");
	wb_meta_free(&m);
	snprintf(path, sizeof(path), "%s/meta.txt", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_doc();
	test_round_trip();
	return tap_done();
}
