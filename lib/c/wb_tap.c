// SPDX-License-Identifier: GPL-2.0
#include "wb_tap.h"

#include <stdarg.h>

void wb_tap_init(struct wb_tap *t, FILE *out)
{
	t->out = out;
	t->n = 0;
	t->fail = 0;
}

void wb_tap_header(struct wb_tap *t, int plan)
{
	fprintf(t->out, "TAP version 14\n");
	if (plan >= 0)
		fprintf(t->out, "1..%d\n", plan);
	fflush(t->out);
}

int wb_tap_point(struct wb_tap *t, int pass, int idx, const char *directive,
		 const char *fmt, ...)
{
	va_list ap;

	t->n = idx > 0 ? idx : t->n + 1;
	if (!pass)
		t->fail++;
	fprintf(t->out, "%s %d - ", pass ? "ok" : "not ok", t->n);
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
	if (directive)
		fprintf(t->out, " # %s", directive);
	fputc('\n', t->out);
	return t->n;
}

void wb_tap_yaml_begin(struct wb_tap *t)
{
	fprintf(t->out, "  ---\n");
}

void wb_tap_yaml_end(struct wb_tap *t)
{
	fprintf(t->out, "  ...\n");
}

void wb_tap_diag(struct wb_tap *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->out, "# ");
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
	fputc('\n', t->out);
}

int wb_tap_done(struct wb_tap *t)
{
	fprintf(t->out, "1..%d\n", t->n);
	fflush(t->out);
	return t->fail ? 1 : 0;
}
