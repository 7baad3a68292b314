// SPDX-License-Identifier: GPL-2.0
#include "wb_trace.h"

#include <inttypes.h>
#include <stdio.h>
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
static int parse_head(const char *line, const char *ev, struct wb_tev *e)
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
	e->us = s * 1000000ull + u;
	bracket = strstr(line, " [");
	if (!bracket || bracket > p)
		return -1;
	e->cpu = (uint32_t)strtoul(bracket + 2, NULL, 10);
	/* the comm may contain dashes: the pid follows the last one */
	dash = bracket;
	while (dash > line && dash[0] != '-')
		dash--;
	if (dash[0] != '-')
		return -1;
	e->pid = (uint32_t)strtoul(dash + 1, NULL, 10);
	return 0;
}

int wb_tev_parse(const char *line, struct wb_tev *e)
{
	static const char set_ev[] = "filemap_set_wb_err: ";
	static const char adv_ev[] = "file_check_and_advance_wb_err: ";
	static const char sb_ev[] = "file_check_and_advance_sb_err: ";
	static const char mark_ev[] = "tracing_mark_write: ";
	const char *ev, *p;
	uint64_t ino, a, b;
	int err;

	memset(e, 0, sizeof(*e));
	e->err = -1;
	if (line[0] == '#')
		return -1;
	if ((ev = strstr(line, mark_ev))) {
		e->kind = WB_TEV_MARK;
		snprintf(e->mark, sizeof(e->mark), "%s", ev + strlen(mark_ev));
		e->mark[strcspn(e->mark, "\n")] = 0;
		return parse_head(line, ev, e);
	}
	if ((ev = strstr(line, set_ev))) {
		e->kind = WB_TEV_SET;
		if (parse_hex(ev, "ino=0x", &ino) || parse_hex(ev, "errseq=0x", &a))
			return -1;
		e->errseq = (uint32_t)a;
		if (parse_hex(ev, " old=0x", &b)) {
			e->old = e->errseq;
		} else {
			e->old = (uint32_t)b;
			e->new = e->errseq;
		}
		p = strstr(ev, " errno=");
		if (p && sscanf(p, " errno=%d", &err) == 1)
			e->err = err < 0 ? -err : err;
	} else if ((ev = strstr(line, adv_ev)) || (ev = strstr(line, sb_ev))) {
		const char *f = strstr(ev, "file=");

		e->kind = strncmp(ev, sb_ev, strlen(sb_ev)) ? WB_TEV_ADVANCE : WB_TEV_SB_ADVANCE;
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
	if (parse_dev(ev, &e->major, &e->minor) || parse_head(line, ev, e))
		return -1;
	return 0;
}

int wb_call_mark_format(char *buf, size_t len, const struct wb_call_mark *m)
{
	int n = snprintf(buf, len, "wb %c %u %u %u\n", m->what, m->proc, m->fd, m->seq);

	return n < 0 || (size_t)n >= len ? -1 : n;
}

int wb_call_mark_parse(const char *text, struct wb_call_mark *m)
{
	int end = 0;

	if (sscanf(text, "wb %c %u %u %u%n", &m->what, &m->proc, &m->fd, &m->seq, &end) != 4 ||
	    (m->what != 'B' && m->what != 'E') || (text[end] && text[end] != ' ' && text[end] != '\n'))
		return -1;
	return 0;
}
