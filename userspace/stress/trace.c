// SPDX-License-Identifier: GPL-2.0
#include "trace.h"
#include "util.h"
#include "wb_sys.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int parse_dev(const char *s, uint32_t *maj, uint32_t *min)
{
	const char *p = strstr(s, "dev=");

	return p && sscanf(p, "dev=%u:%u", maj, min) == 2 ? 0 : -1;
}

static int parse_hex(const char *s, const char *key, uint64_t *v)
{
	const char *p = strstr(s, key);

	return p && sscanf(p + strlen(key), "%" SCNx64, v) == 1 ? 0 : -1;
}

/* "<comm>-<pid> [cpu] flags <secs>.<usecs>: <event>: ..." */
static int parse_head(const char *line, const char *ev, uint64_t *us,
		      uint32_t *pid, uint32_t *cpu)
{
	const char *p = ev, *bracket, *dash;
	unsigned long long s, u;

	/* the timestamp is the token "<secs>.<usecs>:" just before <event> */
	while (p > line && p[-1] == ' ')
		p--;
	while (p > line && p[-1] != ' ')
		p--;
	if (sscanf(p, "%llu.%llu:", &s, &u) != 2)
		return -1;
	*us = s * 1000000ull + u;
	bracket = strstr(line, " [");
	if (!bracket || bracket > p)
		return -1;
	*cpu = (uint32_t)strtoul(bracket + 2, NULL, 10);
	dash = bracket;
	while (dash > line && dash[0] != '-')
		dash--;
	if (dash[0] != '-')
		return -1;
	*pid = (uint32_t)strtoul(dash + 1, NULL, 10);
	return 0;
}

static int parse_line(const char *line, struct wbs_tev *e)
{
	static const char set_ev[] = "filemap_set_wb_err: ";
	static const char adv_ev[] = "file_check_and_advance_wb_err: ";
	static const char sb_ev[] = "file_check_and_advance_sb_err: ";
	static const char mark_ev[] = "tracing_mark_write: wbs ";
	const char *ev;
	uint64_t ino, a, b;

	memset(e, 0, sizeof(*e));
	if ((ev = strstr(line, mark_ev))) {
		e->type = WBS_TEV_MARK;
		if (sscanf(ev + strlen(mark_ev), "%c %u %u %u", &e->mark, &e->proc,
			   &e->fdi, &e->seq) != 4 ||
		    (e->mark != 'B' && e->mark != 'E'))
			return -1;
		return parse_head(line, ev, &e->us, &e->pid, &e->cpu);
	}
	if ((ev = strstr(line, set_ev))) {
		e->type = WBS_TEV_SET;
		/* patched kernels print the old value as old=, errseq= new */
		if (parse_hex(ev, "ino=0x", &ino) ||
		    (parse_hex(ev, " old=0x", &a) && parse_hex(ev, "errseq=0x", &a)))
			return -1;
		e->old = (uint32_t)a;
	} else if ((ev = strstr(line, adv_ev)) || (ev = strstr(line, sb_ev))) {
		const char *f = strstr(ev, "file=");

		e->type = strncmp(ev, sb_ev, strlen(sb_ev)) ? WBS_TEV_ADVANCE :
			  WBS_TEV_SB_ADVANCE;
		if (parse_hex(ev, "ino=0x", &ino) || parse_hex(ev, "old=0x", &a) ||
		    parse_hex(ev, "new=0x", &b) || !f)
			return -1;
		e->old = (uint32_t)a;
		e->new = (uint32_t)b;
		sscanf(f, "file=%23s", e->file);
	} else {
		return -1;
	}
	e->ino = ino;
	if (parse_dev(ev, &e->major, &e->minor) ||
	    parse_head(line, ev, &e->us, &e->pid, &e->cpu))
		return -1;
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
			t->v = wbs_xrealloc(t->v, t->n + 1, sizeof(*t->v));
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
