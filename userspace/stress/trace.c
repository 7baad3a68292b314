// SPDX-License-Identifier: GPL-2.0
#include "trace.h"
#include "util.h"
#include "wb_sys.h"
#include "wb_trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* lib/c's wb_tev_parse, and the workers' call markers (wb_call_mark_parse) */
static int parse_line(const char *line, struct wbs_tev *e)
{
	static const char types[] = {
		[WB_TEV_SET] = WBS_TEV_SET, [WB_TEV_ADVANCE] = WBS_TEV_ADVANCE,
		[WB_TEV_SB_ADVANCE] = WBS_TEV_SB_ADVANCE, [WB_TEV_MARK] = WBS_TEV_MARK,
	};
	struct wb_tev t;
	struct wb_call_mark m;

	memset(e, 0, sizeof(*e));
	if (wb_tev_parse(line, &t))
		return -1;
	if (t.kind == WB_TEV_MARK) {
		if (wb_call_mark_parse(t.mark, &m))
			return -1;
		e->mark = m.what;
		e->proc = m.proc;
		e->fdi = m.fd;
		e->seq = m.seq;
	}
	e->type = (uint8_t)types[t.kind];
	e->us = t.us;
	e->cpu = t.cpu;
	e->pid = t.pid;
	if (t.kind == WB_TEV_MARK)
		return 0;
	e->ino = t.ino;
	e->major = t.major;
	e->minor = t.minor;
	e->old = t.old;
	if (t.kind != WB_TEV_SET)
		e->new = t.new;
	memcpy(e->file, t.file, sizeof(e->file));
	return 0;
}

static int cmp_tev(const void *a, const void *b)
{
	const struct wbs_tev *x = a, *y = b;

	if (x->us != y->us)
		return x->us < y->us ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

int wbs_trace_parse(struct wbs_trace *t, const char *text)
{
	const char *p = text;

	memset(t, 0, sizeof(*t));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = wbs_xcalloc(len + 1, 1);
		unsigned long long in, written;
		const char *h;
		struct wbs_tev e;

		memcpy(line, p, len);
		if (line[0] == '#') {
			h = strstr(line, "entries-in-buffer/entries-written:");
			if (h && sscanf(h, "entries-in-buffer/entries-written: %llu/%llu",
					&in, &written) == 2) {
				t->header_seen = 1;
				t->lost += written > in ? written - in : 0;
			}
			free(line);
		} else if (!parse_line(line, &e)) {
			e.line = line;
			e.ord = (uint32_t)t->n;
			/* doubling: a realloc per event was an mremap each,
			 * a fifth of a check's time */
			if (t->n == t->cap) {
				t->cap = t->cap ? 2 * t->cap : 1024;
				t->v = wbs_xrealloc(t->v, t->cap, sizeof(*t->v));
			}
			t->v[t->n++] = e;
		} else {
			free(line);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	qsort(t->v, t->n, sizeof(*t->v), cmp_tev);
	return 0;
}

int wbs_trace_load(struct wbs_trace *t, const char *dir)
{
	char path[4096], *text;
	int rc;

	snprintf(path, sizeof(path), "%s/trace.txt", dir);
	text = wb_read_file(path, NULL);
	if (!text) {
		memset(t, 0, sizeof(*t));
		return -1;
	}
	rc = wbs_trace_parse(t, text);
	free(text);
	return rc;
}

void wbs_trace_free(struct wbs_trace *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].line);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
