// SPDX-License-Identifier: GPL-2.0
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(struct tr_event **v, int *n, int *cap, const struct tr_event *e)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = realloc(*v, (size_t)*cap * sizeof(**v));
	}
	(*v)[(*n)++] = *e;
}

/* "   fsynctest-68  [000] .N...  10.078827: file_check_and_advance_wb_err: file=... dev=253:0 ino=0xc old=0x0 new=0x1005" */
int trace_parse(const char *text, struct tr_event **v, int *n, int *cap)
{
	const char *p = text;
	int added = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		struct tr_event e;
		char *s, *dash;

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = 0;
		p = nl ? nl + 1 : NULL;
		if (line[0] == '#')
			continue;
		memset(&e, 0, sizeof(e));
		/* the pid is after the last '-' before the first '[' */
		s = strchr(line, '[');
		if (s) {
			*s = 0;
			dash = strrchr(line, '-');
			if (dash)
				e.pid = atoi(dash + 1);
			*s = '[';
		}
		if ((s = strstr(line, "wberr-mark:"))) {
			e.kind = TR_MARK;
			snprintf(e.mark, sizeof(e.mark), "%s", s + strlen("wberr-mark:"));
			e.mark[strcspn(e.mark, " \n")] = 0;
		} else if ((s = strstr(line, "filemap_set_wb_err: "))) {
			char *en = strstr(s, " errno=");

			/*
			 * Stock 6.12 traces errseq_set()'s return (the value
			 * before); with kernel/patches/0004 errseq= is the new
			 * value and errno= the error recorded.
			 */
			e.kind = TR_SET;
			e.err = -1;
			if (sscanf(s, "filemap_set_wb_err: dev=%u:%u ino=%lx errseq=%x",
				   &e.maj, &e.min, &e.ino, &e.a) != 4)
				continue;
			if (en && sscanf(en, " errno=%d", &e.err) == 1 && e.err < 0)
				e.err = -e.err;
		} else if ((s = strstr(line, "file_check_and_advance_wb_err: ")) ||
			   (s = strstr(line, "file_check_and_advance_sb_err: "))) {
			char *d = strstr(s, " dev=");

			e.kind = strstr(s, "_sb_err: ") ? TR_SB_ADVANCE : TR_ADVANCE;
			if (!d || sscanf(d, " dev=%u:%u ino=%lx old=%x new=%x",
					 &e.maj, &e.min, &e.ino, &e.a, &e.b) != 5)
				continue;
		} else {
			continue;
		}
		push(v, n, cap, &e);
		added++;
	}
	return added;
}
