// SPDX-License-Identifier: GPL-2.0
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(struct wb_tev **v, int *n, int *cap, const struct wb_tev *e)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = realloc(*v, (size_t)*cap * sizeof(**v));
	}
	(*v)[(*n)++] = *e;
}

int trace_parse(const char *text, struct wb_tev **v, int *n, int *cap)
{
	const char *p = text;
	int added = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		struct wb_tev e;
		struct wb_call_mark m;

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = 0;
		p = nl ? nl + 1 : NULL;
		if (wb_tev_parse(line, &e))
			continue;
		if (e.kind == WB_TEV_MARK && wb_call_mark_parse(e.mark, &m))
			continue;
		push(v, n, cap, &e);
		added++;
	}
	return added;
}
