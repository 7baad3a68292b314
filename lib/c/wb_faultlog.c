// SPDX-License-Identifier: GPL-2.0
#include "wb_faultlog.h"
#include "wb_names.h"
#include "wb_sys.h"
#include "wb_trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wb_fault_parse(const char *line, struct wb_fault *f)
{
	memset(f, 0, sizeof(*f));
	if (sscanf(line, "%" SCNu64 " %" SCNu64 " %u %15s %63s %" SCNu64 " %" SCNu64 " %23s",
		   &f->seq, &f->ns, &f->rule, f->opclass, f->flags, &f->sector,
		   &f->nr, f->status) != 8)
		return -1;
	f->err = wb_status_errno(f->status);
	return f->err < 0 ? -1 : 0;
}

int wb_fault_format(char *buf, size_t len, const struct wb_fault *f)
{
	int n = snprintf(buf, len, "%" PRIu64 " %" PRIu64 " %u %s %s %" PRIu64 " %" PRIu64 " %s",
			 f->seq, f->ns, f->rule, f->opclass, f->flags, f->sector, f->nr, f->status);

	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* the op class of blk_fill_rwbs()'s text, and the flags in the log's order */
static void blk_class(const char *rwbs, uint32_t nr, struct wb_fault *f)
{
	static const struct { char c; const char *name; } tail[] = {
		{ 'S', "sync" }, { 'M', "meta" }, { 'F', "fua" },
	};
	int preflush = rwbs[0] == 'F' && rwbs[1], i = preflush;
	const char *op = rwbs[i] == 'W' ? (nr ? "write" : "flush") : rwbs[i] == 'R' ? "read" :
			 rwbs[i] == 'D' ? "discard" : rwbs[i] == 'F' ? "flush" : "write_zeroes";
	size_t n = 0;

	if (rwbs[i] == 'W' && nr && strchr(rwbs + i + 1, 'F'))
		op = "fua";
	snprintf(f->opclass, sizeof(f->opclass), "%s", op);
	for (size_t t = 0; t < sizeof(tail) / sizeof(tail[0]); t++)
		if (strchr(rwbs + i + 1, tail[t].c))
			n += (size_t)snprintf(f->flags + n, sizeof(f->flags) - n, "%s%s", n ? "|" : "", tail[t].name);
	if (preflush)
		n += (size_t)snprintf(f->flags + n, sizeof(f->flags) - n, "%spreflush", n ? "|" : "");
	if (strchr(rwbs + i + 1, 'A'))
		n += (size_t)snprintf(f->flags + n, sizeof(f->flags) - n, "%srahead", n ? "|" : "");
	if (!n)
		snprintf(f->flags, sizeof(f->flags), "-");
}

int wb_fault_from_blk(const struct wb_ev_blk *k, uint64_t seq, uint64_t ns, struct wb_fault *f)
{
	const struct wb_status *s = k->err ? wb_status_by_errno(k->err) : NULL;

	memset(f, 0, sizeof(*f));
	if (!s)
		return -1;
	f->seq = seq;
	f->ns = ns;
	f->sector = k->sector;
	f->nr = k->nr;
	f->err = s->err;
	snprintf(f->status, sizeof(f->status), "%s", s->name);
	blk_class(k->rwbs, k->nr, f);
	return 0;
}

void wb_faultlog_put_fault(FILE *out, unsigned int epoch, const struct wb_fault *f)
{
	char line[256];

	if (wb_fault_format(line, sizeof(line), f) > 0)
		fprintf(out, "fault %u %s\n", epoch, line);
}

void wb_faultlog_put_gap(FILE *out, unsigned int epoch, uint64_t want, uint64_t got)
{
	fprintf(out, "gap %u %" PRIu64 " %" PRIu64 "\n", epoch, want, got);
}

void wb_faultlog_vput_event(FILE *out, uint64_t ns, const char *fmt, va_list ap)
{
	fprintf(out, "event %" PRIu64 " ", ns);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	fflush(out);
}

void wb_faultlog_put_event(FILE *out, uint64_t ns, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wb_faultlog_vput_event(out, ns, fmt, ap);
	va_end(ap);
}

static int append(struct wb_faultlog *fl, const struct wb_fault *f)
{
	if (fl->n == fl->cap) {
		size_t cap = fl->cap ? fl->cap * 2 : 256;
		struct wb_fault *v = realloc(fl->v, cap * sizeof(*v));

		if (!v)
			return -1;
		fl->v = v;
		fl->cap = cap;
	}
	fl->v[fl->n++] = *f;
	return 0;
}

/* The one walk over both texts: @recorded selects the faults.txt form. */
static int parse(struct wb_faultlog *fl, const char *text, uint64_t from, int recorded)
{
	const char *p = text;
	int added = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		unsigned int epoch = 0;
		char buf[512], *line = buf;
		uint64_t want, got;
		struct wb_fault f;
		int off = 0;

		/* one line at a time: sscanf must not read a short line's
		 * missing fields from the next one (a log line is < 200 bytes) */
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), p);
		p = nl ? nl + 1 : NULL;
		if (recorded) {
			if (sscanf(line, "gap %u %" SCNu64 " %" SCNu64, &epoch, &want, &got) == 3) {
				fl->gaps += got - want;
				continue;
			}
			if (sscanf(line, "fault %u %n", &epoch, &off) != 1 || !off)
				continue;
			line += off;
		}
		if (wb_fault_parse(line, &f) || f.seq < from)
			continue;
		f.epoch = epoch;
		if (append(fl, &f))
			return -1;
		added++;
	}
	return added;
}

int wb_faultlog_add_response(struct wb_faultlog *fl, const char *text, uint64_t from)
{
	return parse(fl, text, from, 0);
}

int wb_faultlog_add_recorded(struct wb_faultlog *fl, const char *text)
{
	return parse(fl, text, 0, 1);
}

int wb_faultlog_load(struct wb_faultlog *fl, const char *path)
{
	char *text = wb_read_file(path, NULL);
	int rc;

	memset(fl, 0, sizeof(*fl));
	if (!text)
		return -1;
	rc = wb_faultlog_add_recorded(fl, text);
	free(text);
	return rc < 0 ? -1 : 0;
}

void wb_faultlog_free(struct wb_faultlog *fl)
{
	free(fl->v);
	memset(fl, 0, sizeof(*fl));
}
