// SPDX-License-Identifier: GPL-2.0
/* The one trace parser; wb_trace.h gives every line form it reads. */
#include "wb_trace.h"
#include "wb_errseq.h"
#include "wb_sys.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const call_kind_names[WB_CALL_NR] = {
	[WB_CALL_FSYNC] = "fsync",
	[WB_CALL_FDATASYNC] = "fdatasync",
	[WB_CALL_MSYNC] = "msync",
	[WB_CALL_SYNC_FILE_RANGE] = "sync_file_range",
	[WB_CALL_SYNCFS] = "syncfs",
	[WB_CALL_SYNC] = "sync",
	[WB_CALL_O_SYNC_WRITE] = "o_sync_write",
	[WB_CALL_URING_FSYNC] = "uring_fsync",
	[WB_CALL_URING_SYNC_FILE_RANGE] = "uring_sync_file_range",
	[WB_CALL_OTHER] = "other",
};

const char *wb_call_kind_name(int kind)
{
	return kind >= 0 && kind < WB_CALL_NR ? call_kind_names[kind] : "?";
}

const struct wb_syscall wb_syscalls[] = {
	{ "fsync", WB_CALL_FSYNC, 0 },
	{ "fdatasync", WB_CALL_FDATASYNC, 0 },
	{ "msync", WB_CALL_MSYNC, 0 },
	{ "sync_file_range", WB_CALL_SYNC_FILE_RANGE, 0 },
	{ "syncfs", WB_CALL_SYNCFS, 0 },
	{ "sync", WB_CALL_SYNC, 0 },
	{ "write", WB_CALL_O_SYNC_WRITE, 1 },
	{ "pwrite64", WB_CALL_O_SYNC_WRITE, 1 },
	{ "writev", WB_CALL_O_SYNC_WRITE, 1 },
	{ "pwritev", WB_CALL_O_SYNC_WRITE, 1 },
	{ "pwritev2", WB_CALL_O_SYNC_WRITE, 1 },
};
const size_t wb_nr_syscalls = ARRAY_SIZE(wb_syscalls);

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* the text from @from up to @to, cut to fit @dst */
static void between(char *dst, size_t len, const char *from, const char *to)
{
	size_t n = (size_t)(to - from);

	if (n >= len)
		n = len - 1;
	memcpy(dst, from, n);
	dst[n] = 0;
}

/* the rest of @body after the prefix @ev, NULL when it does not start so */
static const char *after(const char *body, const char *ev)
{
	size_t n = strlen(ev);

	return strncmp(body, ev, n) ? NULL : body + n;
}

/* ---- the head ---------------------------------------------------------- */

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

/* "%16s-%-7d " before @end (the tgid's or cpu's column): pid and comm */
static int head_task(const char *line, const char *end, struct wb_thead *h)
{
	const char *p, *comm;
	size_t len;

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

int wb_trace_head(const char *line, struct wb_thead *h)
{
	const char *b, *end, *p, *colon, *ts;
	unsigned long long s, u;
	int n = 0;

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
	return head_task(line, end, h);
}

/* ---- the errseq events and markers ------------------------------------- */

static int parse_hex(const char *s, const char *key, uint64_t *v)
{
	const char *p = strstr(s, key);

	return p && sscanf(p + strlen(key), "%" SCNx64, v) == 1 ? 0 : -1;
}

static int parse_dev(const char *s, struct wb_ev_errseq *es)
{
	const char *p = strstr(s, "dev=");

	return p && sscanf(p, "dev=%u:%u", &es->major, &es->minor) == 2 ? 0 : -1;
}

static int parse_set(const char *ev, struct wb_ev_errseq *es)
{
	uint64_t ino, a, b;
	const char *p;
	int err;

	es->err = -1;
	if (parse_hex(ev, "ino=0x", &ino) || parse_hex(ev, "errseq=0x", &a))
		return -1;
	es->ino = ino;
	es->errseq = (uint32_t)a;
	if (parse_hex(ev, " old=0x", &b)) {
		es->old = es->errseq;
	} else {
		es->old = (uint32_t)b;
		es->new = es->errseq;
	}
	p = strstr(ev, " errno=");
	if (p && sscanf(p, " errno=%d", &err) == 1)
		es->err = err < 0 ? -err : err;
	return parse_dev(ev, es);
}

static int parse_advance(const char *ev, struct wb_ev_errseq *es)
{
	const char *f = strstr(ev, "file=");
	uint64_t ino, a, b;

	if (parse_hex(ev, "ino=0x", &ino) || parse_hex(ev, "old=0x", &a) ||
	    parse_hex(ev, "new=0x", &b) || !f)
		return -1;
	es->ino = ino;
	es->old = (uint32_t)a;
	es->new = (uint32_t)b;
	es->err = es->old != es->new ? wb_errseq_errno(es->new) : 0;
	sscanf(f, "file=%23s", es->file);
	return parse_dev(ev, es);
}

static int parse_mark(const char *text, struct wb_ev_mark *m)
{
	copy(m->text, sizeof(m->text), text);
	m->text[strcspn(m->text, "\n")] = 0;
	m->is_call = !wb_call_mark_parse(m->text, &m->call);
	return 0;
}

/* ---- syscalls, io_uring, sched ----------------------------------------- */

/* "key: hex" among a syscall's printed arguments */
static int sys_arg(const char *args, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	const char *p;

	for (p = strstr(args, key); p; p = strstr(p + 1, key))
		if ((p[-1] == '(' || p[-1] == ' ') && p[n] == ':' && p[n + 1] == ' ')
			return sscanf(p + n + 2, "%" SCNx64, v) == 1 ? 0 : -1;
	return -1;
}

static void sys_args(const char *args, struct wb_ev_sys *s)
{
	int kind = wb_syscalls[s->sys].kind;
	uint64_t v;

	s->fd = -1;
	if (kind != WB_CALL_SYNC && kind != WB_CALL_MSYNC && !sys_arg(args, "fd", &v))
		s->fd = (int)(int64_t)v;
	if (!sys_arg(args, "start", &v) || !sys_arg(args, "offset", &v) || !sys_arg(args, "pos", &v) ||
	    !sys_arg(args, "pos_l", &v))
		s->off = v;
	if (!sys_arg(args, "len", &v) || !sys_arg(args, "nbytes", &v) || !sys_arg(args, "count", &v))
		s->len = v;
	if (!sys_arg(args, "flags", &v))
		s->flags = (unsigned int)v;
}

/* "sys_<name>(<args>)" or "sys_<name> -> 0x<ret>": 0, 1 none of ours, -1 malformed */
static int parse_syscall(const char *body, struct wb_ev *e)
{
	const char *name = body + 4;
	size_t n = strcspn(name, "( "), i;
	uint64_t ret;

	for (i = 0; i < wb_nr_syscalls; i++)
		if (strlen(wb_syscalls[i].name) == n && !strncmp(name, wb_syscalls[i].name, n))
			break;
	if (i == wb_nr_syscalls)
		return 1;
	e->sys.sys = (unsigned int)i;
	if (name[n] == '(') {
		e->kind = WB_EV_SYS_ENTER;
		sys_args(name + n, &e->sys);
		return 0;
	}
	if (sscanf(name + n, " -> 0x%" SCNx64, &ret) != 1)
		return -1;
	e->kind = WB_EV_SYS_EXIT;
	e->sys.ret = (long long)(int64_t)ret;
	return 0;
}

/* "ring %p, req %p, user_data 0x%llx, " */
static int uring_key(const char *s, struct wb_ev_uring *u, int *end)
{
	*end = 0;
	return sscanf(s, "ring %23[^,], req %23[^,], user_data 0x%llx, %n", u->ring, u->req,
		      &u->user_data, end) == 3 && *end ? 0 : -1;
}

static int parse_uring(const char *body, struct wb_ev *e)
{
	struct wb_ev_uring *u = &e->ur;
	const char *s;
	int end;

	/* 6.1 names the event io_uring_submit_sqe; its fields match up to opcode */
	if ((s = after(body, "io_uring_submit_req: ")) || (s = after(body, "io_uring_submit_sqe: "))) {
		e->kind = WB_EV_URING_SUBMIT;
		return uring_key(s, u, &end) || sscanf(s + end, "opcode %19[^,]", u->op) != 1 ? -1 : 0;
	}
	if ((s = after(body, "io_uring_file_get: "))) {
		e->kind = WB_EV_URING_FILE;
		return uring_key(s, u, &end) || sscanf(s + end, "fd %d", &u->val) != 1 ? -1 : 0;
	}
	if ((s = after(body, "io_uring_complete: "))) {
		e->kind = WB_EV_URING_COMPLETE;
		return uring_key(s, u, &end) || sscanf(s + end, "result %d", &u->val) != 1 ? -1 : 0;
	}
	return 1;
}

static int parse_fork(const char *s, struct wb_ev_proc *pr)
{
	const char *a, *b, *c;

	/* a comm may hold spaces: each field ends where the next key starts */
	if (!(c = strstr(s, " child_pid=")) || !(b = strstr(s, " child_comm=")) || b > c ||
	    !(a = strstr(s, " pid=")) || a > b || sscanf(a, " pid=%u", &pr->parent) != 1 ||
	    sscanf(c, " child_pid=%u", &pr->pid) != 1)
		return -1;
	between(pr->comm, sizeof(pr->comm), b + strlen(" child_comm="), c);
	return 0;
}

static int parse_exec(const char *s, const char *comm, struct wb_ev_proc *pr)
{
	const char *a, *b, *c;

	/* the filename may hold spaces: the last " old_pid=" and the " pid=" before it */
	for (b = NULL, a = strstr(s, " old_pid="); a; a = strstr(a + 1, " old_pid="))
		b = a;
	for (a = NULL, c = strstr(s, " pid="); c && c < b; c = strstr(c + 1, " pid="))
		a = c;
	if (!b || !a || sscanf(a, " pid=%u", &pr->pid) != 1)
		return -1;
	copy(pr->comm, sizeof(pr->comm), comm);
	between(pr->exe, sizeof(pr->exe), s, a);
	return 0;
}

/* ---- block completions ------------------------------------------------- */

/* "%d,%d %s [(%s) ]%llu + %u ... [%d]": the cmd in parentheses only for requests */
static int parse_blk(const char *s, int bio, struct wb_ev_blk *k)
{
	unsigned long long sector;
	const char *p, *br;
	int n = 0, err;

	k->bio = bio;
	if (sscanf(s, "%u,%u %7s %n", &k->major, &k->minor, k->rwbs, &n) != 3 || !n)
		return -1;
	p = s + n;
	if (!bio) {
		if (*p != '(' || !(p = strchr(p, ')')))
			return -1;
		p++;
	}
	if (sscanf(p, " %llu + %u", &sector, &k->nr) != 2)
		return -1;
	k->sector = sector;
	for (br = NULL, p = strchr(p, '['); p; p = strchr(p + 1, '['))
		br = p;
	if (!br || sscanf(br, "[%d]", &err) != 1)
		return -1;
	k->err = err < 0 ? -err : err;
	return 0;
}

/* ---- one line ---------------------------------------------------------- */

/* the event after the head: 0, 1 when it is none of ours, -1 malformed */
static int parse_body(const struct wb_thead *h, struct wb_ev *e)
{
	const char *b = h->body, *s;

	if ((s = after(b, "tracing_mark_write: "))) {
		e->kind = WB_EV_MARK;
		return parse_mark(s, &e->mark);
	}
	if ((s = after(b, "filemap_set_wb_err: "))) {
		e->kind = WB_EV_SET;
		return parse_set(s, &e->es);
	}
	if ((s = after(b, "file_check_and_advance_wb_err: "))) {
		e->kind = WB_EV_ADVANCE;
		return parse_advance(s, &e->es);
	}
	if ((s = after(b, "file_check_and_advance_sb_err: "))) {
		e->kind = WB_EV_SB_ADVANCE;
		return parse_advance(s, &e->es);
	}
	if (!strncmp(b, "sys_", 4))
		return parse_syscall(b, e);
	if (!strncmp(b, "io_uring_", 9))
		return parse_uring(b, e);
	if ((s = after(b, "sched_process_fork: comm="))) {
		e->kind = WB_EV_FORK;
		return parse_fork(s, &e->proc);
	}
	if ((s = after(b, "sched_process_exec: filename="))) {
		e->kind = WB_EV_EXEC;
		return parse_exec(s, h->comm, &e->proc);
	}
	if ((s = after(b, "block_rq_complete: ")) || (s = after(b, "block_rq_error: ")) ||
	    (s = after(b, "block_bio_complete: "))) {
		e->kind = WB_EV_BLK;
		return parse_blk(s, b[6] == 'b', &e->blk);
	}
	return 1;
}

/* 0 an event, 1 none of ours, -1 malformed, -2 no head */
static int parse_line(const char *line, struct wb_ev *e)
{
	struct wb_thead h;

	memset(e, 0, sizeof(*e));
	if (wb_trace_head(line, &h))
		return -2;
	e->us = h.us;
	e->cpu = h.cpu;
	e->pid = h.pid;
	e->tgid = h.tgid;
	memcpy(e->comm, h.comm, sizeof(e->comm));
	return parse_body(&h, e);
}

int wb_ev_parse(const char *line, struct wb_ev *e)
{
	return parse_line(line, e) ? -1 : 0;
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

/* ---- the whole trace --------------------------------------------------- */

/* a comment or a line without a head: what it says of lost entries */
static void parse_aside(struct wb_trace *t, const char *line)
{
	unsigned long long in, written, lost;
	const char *h;

	if (line[0] == '#') {
		h = strstr(line, "entries-in-buffer/entries-written:");
		if (h && sscanf(h, "entries-in-buffer/entries-written: %llu/%llu", &in, &written) == 2) {
			t->header_seen = 1;
			t->lost += written > in ? written - in : 0;
		}
	} else if ((h = strstr(line, "[LOST ")) && sscanf(h, "[LOST %llu EVENTS]", &lost) == 1) {
		t->lost += lost;
	} else if (line[0]) {
		t->skipped++;
	}
}

static int push(struct wb_trace *t, const struct wb_ev *e)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct wb_ev *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = *e;
	return 0;
}

/* @text appended to t->text, newline-terminated: where it starts, or -1 */
static long keep_text(struct wb_trace *t, const char *text)
{
	size_t n = strlen(text), at = t->len;
	char *s = realloc(t->text, at + n + 2);

	if (!s)
		return -1;
	memcpy(s + at, text, n);
	if (n && s[at + n - 1] != '\n')
		s[at + n++] = '\n';
	s[at + n] = 0;
	t->text = s;
	t->len = at + n;
	return (long)at;
}

int wb_trace_parse(struct wb_trace *t, const char *text)
{
	long at = keep_text(t, text);
	char *line, *nl;
	struct wb_ev e;
	int r;

	if (at < 0)
		return -1;
	for (line = t->text + at; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = 0;
		t->lines++;
		r = parse_line(line, &e);
		if (r == -2)
			parse_aside(t, line);
		else if (r == -1)
			t->skipped++;
		if (!r) {
			t->tgids |= e.tgid != 0;
			e.line = (uint32_t)t->lines;
			e.off = (size_t)(line - t->text);
			if (push(t, &e))
				return -1;
		}
		*nl = '\n';
	}
	return 0;
}

int wb_trace_load(struct wb_trace *t, const char *path)
{
	char *text = wb_read_file(path, NULL);
	int rc;

	if (!text)
		return -1;
	rc = wb_trace_parse(t, text);
	free(text);
	return rc;
}

const char *wb_trace_line(const struct wb_trace *t, const struct wb_ev *e, char *buf, size_t len)
{
	const char *s = t->text + e->off;

	between(buf, len, s, s + strcspn(s, "\n"));
	return buf;
}

static int by_time(const void *a, const void *b)
{
	const struct wb_ev *x = a, *y = b;

	if (x->us != y->us)
		return x->us < y->us ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

void wb_trace_sort(struct wb_trace *t)
{
	qsort(t->v, t->n, sizeof(*t->v), by_time);
}

void wb_trace_free(struct wb_trace *t)
{
	free(t->v);
	free(t->text);
	memset(t, 0, sizeof(*t));
}
