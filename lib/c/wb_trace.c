// SPDX-License-Identifier: GPL-2.0
#include "wb_trace.h"

#include <ctype.h>
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

/* the cpu field, "[%03d] ": the first " [<digits>] " of the line */
static const char *find_cpu(const char *line, uint32_t *cpu)
{
	const char *b, *p;

	for (b = strstr(line, " ["); b; b = strstr(b + 1, " [")) {
		for (p = b + 2; isdigit((unsigned char)*p); p++)
			;
		if (p > b + 2 && p[0] == ']' && p[1] == ' ') {
			*cpu = (uint32_t)strtoul(b + 2, NULL, 10);
			return b;
		}
	}
	return NULL;
}

int wb_trace_head(const char *line, struct wb_thead *h)
{
	const char *b, *end, *p, *colon, *ts, *comm;
	unsigned long long s, u;
	int n = 0;
	size_t len;

	memset(h, 0, sizeof(*h));
	if (line[0] == '#' || !(b = find_cpu(line, &h->cpu)))
		return -1;
	/* "<secs>.<usecs>: " ends the head; the flags before it have no ':' */
	colon = strstr(b, ": ");
	if (!colon)
		return -1;
	for (ts = colon; ts > b && ts[-1] != ' '; ts--)
		;
	if (sscanf(ts, "%llu.%llu%n", &s, &u, &n) != 2 || ts + n != colon)
		return -1;
	h->us = s * 1000000ull + u;
	h->body = colon + 2;
	/* "(%7d) " or "(-------) " with record-tgid */
	end = b;
	if (end > line && end[-1] == ')') {
		for (p = end - 1; p > line && *p != '('; p--)
			;
		if (*p != '(')
			return -1;
		h->tgid = (uint32_t)strtoul(p + 1, NULL, 10);
		end = p;
	}
	/* "%16s-%-7d ": the pid's digits, then the dash after the comm */
	while (end > line && end[-1] == ' ')
		end--;
	for (p = end; p > line && isdigit((unsigned char)p[-1]); p--)
		;
	if (p == end || p == line || p[-1] != '-')
		return -1;
	h->pid = (uint32_t)strtoul(p, NULL, 10);
	for (comm = line; *comm == ' '; comm++)
		;
	len = comm < p - 1 ? (size_t)(p - 1 - comm) : 0;
	if (len >= sizeof(h->comm))
		len = sizeof(h->comm) - 1;
	memcpy(h->comm, comm, len);
	h->comm[len] = 0;
	return 0;
}

static const char *after(const char *body, const char *ev)
{
	size_t n = strlen(ev);

	return strncmp(body, ev, n) ? NULL : body + n;
}

int wb_tev_parse(const char *line, struct wb_tev *e)
{
	struct wb_thead h;
	const char *ev, *p;
	uint64_t ino, a, b;
	int err;

	memset(e, 0, sizeof(*e));
	e->err = -1;
	if (wb_trace_head(line, &h))
		return -1;
	e->us = h.us;
	e->cpu = h.cpu;
	e->pid = h.pid;
	e->tgid = h.tgid;
	if ((ev = after(h.body, "tracing_mark_write: "))) {
		e->kind = WB_TEV_MARK;
		snprintf(e->mark, sizeof(e->mark), "%s", ev);
		e->mark[strcspn(e->mark, "\n")] = 0;
		return 0;
	}
	if ((ev = after(h.body, "filemap_set_wb_err: "))) {
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
	} else if ((ev = after(h.body, "file_check_and_advance_wb_err: ")) ||
		   (ev = after(h.body, "file_check_and_advance_sb_err: "))) {
		const char *f = strstr(ev, "file=");

		e->kind = after(h.body, "file_check_and_advance_sb_err: ") ? WB_TEV_SB_ADVANCE
									    : WB_TEV_ADVANCE;
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
	return parse_dev(ev, &e->major, &e->minor);
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
