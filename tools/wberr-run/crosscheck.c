// SPDX-License-Identifier: GPL-2.0
/* One step's cross-checks against the kernel's evidence; see crosscheck.h. */
#include "crosscheck.h"
#include "wb_errseq.h"
#include "wb_names.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ADV 64

void add_msg(char *msg, size_t len, const char *fmt, ...)
{
	size_t off = strlen(msg);
	va_list ap;

	if (off + 3 >= len)
		return;
	if (off)
		off += (size_t)snprintf(msg + off, len - off, "; ");
	va_start(ap, fmt);
	vsnprintf(msg + off, len - off, fmt, ap);
	va_end(ap);
}

int xc_attribute(struct wb_trace *t, struct wb_attr *a, const char *text)
{
	static const struct wb_attr_cfg cfg = { .windows = WB_WIN_MARKS_ALL };

	if (text && wb_trace_parse(t, text))
		return -1;
	return wb_attr_calls(a, t, &cfg);
}

long xc_call(const struct wb_attr *a, int step)
{
	for (size_t k = 0; k < a->ncalls; k++)
		if (a->calls[k].seq == (unsigned int)step && a->calls[k].exit >= 0)
			return (long)k;
	return -1;
}

int xc_fault_set(const struct wb_fault *f, const char *path, unsigned long ino,
		 const struct wb_trace *t, char *msg, size_t len)
{
	/* the whole step's trace, on any device: one file system's inodes, and
	 * the bdev inode of a raw device, whose super block is another */
	if (wb_inv_fault_set(t->v, t->n, WB_INV_ANY_DEV, 0, ino, 0, 1000) == WB_INV_OK)
		return 1;
	add_msg(msg, len, "CROSS-CHECK: fault #%" PRIu64 " (%s sector %" PRIu64 ") hit %s but no filemap_set_wb_err on ino %#lx",
		f->seq, f->status, f->sector, path, ino);
	return 0;
}

int xc_cursor(const struct or_pred *p, unsigned long ino, const struct wb_attr *a, long call,
	      char *msg, size_t len)
{
	const struct wb_ev *adv[MAX_ADV], *last;
	const struct wb_call *c = &a->calls[call];
	int kind = p->sb ? WB_EV_SB_ADVANCE : WB_EV_ADVANCE;
	size_t na = 0;

	if (!p->valid)
		return 1;
	for (size_t i = 0; i < c->nadv && na < MAX_ADV; i++) {
		const struct wb_ev *e = &a->trace->v[a->adv[c->adv + i]];

		if (e->kind == kind && e->es.ino == ino)
			adv[na++] = e;
	}
	last = na ? adv[na - 1] : NULL;
	switch (wb_inv_advance(p->consumed, p->err, adv, na, WB_INV_LAST)) {
	case WB_INV_NO_ADVANCE:
		add_msg(msg, len, "CROSS-CHECK: model advances the cursor (%#x -> %#x) but no "
			"file_check_and_advance_%s_err event for ino %#lx", p->cur_before,
			p->cur_after, p->sb ? "sb" : "wb", ino);
		return 0;
	case WB_INV_ADVANCE_NO_ERROR:
		add_msg(msg, len, "CROSS-CHECK: kernel advanced a cursor on ino %#lx (old %#x new %#x) "
			"where the model saw nothing new", ino, last->es.old, last->es.new);
		return 0;
	case WB_INV_WRONG_ERRNO:
		add_msg(msg, len, "CROSS-CHECK: kernel cursor on ino %#lx moved to %#x (%s), model says %s",
			ino, last->es.new, wb_errno_name(wb_errseq_errno(last->es.new)),
			wb_errno_name(p->err));
		return 0;
	default:
		break;
	}
	if (last)
		add_msg(msg, len, "trace: ino %#lx cursor %#x -> %#x", ino, last->es.old, last->es.new);
	return 1;
}

int xc_cause(int err, int explicit_, int fault_op, unsigned long nfaults, char *msg, size_t len)
{
	if (explicit_ || fault_op || wb_inv_cause(err, nfaults) == WB_INV_OK)
		return 1;
	add_msg(msg, len, "CROSS-CHECK: an error although the device failed nothing");
	return 0;
}

int xc_step(const struct xc_step *s, const struct wb_attr *a, char *msg, size_t len)
{
	long call = xc_call(a, s->step);
	int pass = 1;

	for (size_t k = 0; s->traced && k < s->nattr; k++)
		pass &= xc_fault_set(s->attr[k].f, s->attr[k].path, s->attr[k].ino, a->trace, msg, len);
	if (s->traced && s->cursor && call >= 0 && a->calls[call].enter >= 0 && (!s->pred.sb || s->sb_traced))
		pass &= xc_cursor(&s->pred, s->pred_ino, a, call, msg, len);
	pass &= xc_cause(s->err, s->explicit_, s->fault_op, s->nlog, msg, len);
	return pass;
}
