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

void xc_evidence(const struct wb_tev *ev, int nev, struct wb_inv_ev *out)
{
	for (int i = 0; i < nev; i++) {
		out[i].kind = ev[i].kind;
		out[i].ino = ev[i].ino;
		out[i].hi_ns = ev[i].us * 1000 + 999;
		out[i].old = ev[i].old;
		out[i].new = ev[i].new;
	}
}

int xc_window(const struct wb_tev *ev, int nev, int step, int *lo, int *hi)
{
	struct wb_call_mark m;
	int marks = 0;

	*lo = 0;
	*hi = nev;
	for (int k = 0; k < nev; k++) {
		if (ev[k].kind != WB_TEV_MARK || wb_call_mark_parse(ev[k].mark, &m) ||
		    m.seq != (unsigned int)step)
			continue;
		if (m.what == 'B')
			*lo = k;
		else
			*hi = k;
		marks++;
	}
	return marks;
}

int xc_fault_set(const struct wb_fault *f, const char *path, unsigned long ino,
		 const struct wb_inv_ev *ev, size_t n, char *msg, size_t len)
{
	/* the whole step's trace: the step's writeback may complete after
	 * the fault log's time stamp and the trace clock differ */
	if (wb_inv_fault_set(ev, n, ino, 0) == WB_INV_OK)
		return 1;
	add_msg(msg, len, "CROSS-CHECK: fault #%" PRIu64 " (%s sector %" PRIu64 ") hit %s but no filemap_set_wb_err on ino %#lx",
		f->seq, f->status, f->sector, path, ino);
	return 0;
}

int xc_cursor(const struct or_pred *p, unsigned long ino, const struct wb_inv_ev *ev,
	      size_t n, char *msg, size_t len)
{
	struct wb_inv_ev adv[MAX_ADV];
	size_t na = 0;
	int kind = p->sb ? WB_TEV_SB_ADVANCE : WB_TEV_ADVANCE;
	const struct wb_inv_ev *last;

	if (!p->valid)
		return 1;
	for (size_t i = 0; i < n && na < MAX_ADV; i++)
		if (ev[i].kind == kind && ev[i].ino == ino)
			adv[na++] = ev[i];
	last = na ? &adv[na - 1] : NULL;
	switch (wb_inv_advance(p->consumed, p->err, adv, na, WB_INV_LAST)) {
	case WB_INV_NO_ADVANCE:
		add_msg(msg, len, "CROSS-CHECK: model advances the cursor (%#x -> %#x) but no "
			"file_check_and_advance_%s_err event for ino %#lx", p->cur_before,
			p->cur_after, p->sb ? "sb" : "wb", ino);
		return 0;
	case WB_INV_ADVANCE_NO_ERROR:
		add_msg(msg, len, "CROSS-CHECK: kernel advanced a cursor on ino %#lx (old %#x new %#x) "
			"where the model saw nothing new", ino, last->old, last->new);
		return 0;
	case WB_INV_WRONG_ERRNO:
		add_msg(msg, len, "CROSS-CHECK: kernel cursor on ino %#lx moved to %#x (%s), model says %s",
			ino, last->new, wb_errno_name(wb_errseq_errno(last->new)),
			wb_errno_name(p->err));
		return 0;
	default:
		break;
	}
	if (last)
		add_msg(msg, len, "trace: ino %#lx cursor %#x -> %#x", ino, last->old, last->new);
	return 1;
}

int xc_cause(int err, int explicit_, int fault_op, unsigned long nfaults, char *msg, size_t len)
{
	if (explicit_ || fault_op || wb_inv_cause(err, nfaults) == WB_INV_OK)
		return 1;
	add_msg(msg, len, "CROSS-CHECK: an error although the device failed nothing");
	return 0;
}

int xc_step(const struct xc_step *s, const struct wb_tev *ev, int nev, char *msg, size_t len)
{
	struct wb_inv_ev *iev = calloc((size_t)nev + 1, sizeof(*iev));
	int pass = 1, lo, hi, marks;

	if (!iev) {
		add_msg(msg, len, "CROSS-CHECK: out of memory for the trace");
		return 0;
	}
	xc_evidence(ev, nev, iev);
	marks = xc_window(ev, nev, s->step, &lo, &hi);
	for (size_t k = 0; s->traced && k < s->nattr; k++)
		pass &= xc_fault_set(s->attr[k].f, s->attr[k].path, s->attr[k].ino, iev,
				     (size_t)nev, msg, len);
	if (s->traced && s->cursor && marks == 2 && (!s->pred.sb || s->sb_traced))
		pass &= xc_cursor(&s->pred, s->pred_ino, iev + lo, (size_t)(hi - lo), msg, len);
	pass &= xc_cause(s->err, s->explicit_, s->fault_op, s->nlog, msg, len);
	free(iev);
	return pass;
}
