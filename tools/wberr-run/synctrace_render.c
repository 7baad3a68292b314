// SPDX-License-Identifier: GPL-2.0
/* Program mode's trace (synctrace.h), part 3: the timeline and the JSON. */
#include "synctrace.h"
#include "wb_json.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wb_errseq.h"
#include "wb_names.h"

const char *sc_path_of(const struct sc_path *paths, size_t n, uint32_t major, uint32_t minor,
		       uint64_t ino)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (paths[i].ino == ino && paths[i].major == major && paths[i].minor == minor)
			return paths[i].path;
	return NULL;
}

/* the time every line is relative to: the first mark, else the first event */
static int app_mark(const struct wb_ev *e)
{
	return e->kind == WB_EV_MARK && !strncmp(e->mark.text, WB_APP_MARK, strlen(WB_APP_MARK));
}

static const char *mark_text(const struct wb_ev *e)
{
	return e->mark.text + strlen(WB_APP_MARK);
}

static uint64_t time_base(const struct sc_report *r)
{
	const struct sc_judge *j = r->j;
	uint64_t base = UINT64_MAX;
	size_t i;

	for (i = 0; i < j->t->n; i++)
		if (app_mark(&j->t->v[i]))
			return j->t->v[i].us;
	for (i = 0; i < j->a->ncalls; i++)
		if (j->a->calls[i].enter_us && j->a->calls[i].enter_us < base)
			base = j->a->calls[i].enter_us;
	if (j->nsets && j->t->v[j->sets[0]].us < base)
		base = j->t->v[j->sets[0]].us;
	if (j->ncurs && j->t->v[j->curs[0]].us < base)
		base = j->t->v[j->curs[0]].us;
	for (i = 0; i < j->nfaults; i++)
		if (j->fates[i].nfired && j->fates[i].fired_us < base)
			base = j->fates[i].fired_us;
	return base == UINT64_MAX ? 0 : base;
}

/* @s for a line of text: control bytes (a comm or path may hold any) as '?' */
static const char *plain(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = 0;
	return buf;
}

static double ms(uint64_t base, uint64_t us)
{
	return ((double)us - (double)base) / 1000.0;
}

/* "comm[tgid/tid]", "comm[tid]" when they agree or the tgid was not recorded */
static const char *who(char *buf, size_t len, const char *comm, uint32_t tid, uint32_t tgid)
{
	char c[16];

	comm = plain(c, sizeof(c), comm);
	if (tgid && tgid != tid)
		snprintf(buf, len, "%s[%u/%u]", comm, tgid, tid);
	else
		snprintf(buf, len, "%s[%u]", comm, tid);
	return buf;
}

/* the file a call worked on, from its first cursor move: path, else ino */
static const char *call_path(const struct sc_report *r, const struct wb_call *c, char *buf, size_t len)
{
	const struct wb_ev *cur;
	const char *path;
	char p[256];

	if (!c->nadv)
		return "";
	cur = &r->j->t->v[r->j->a->adv[c->adv]];
	if (cur->kind == WB_EV_SB_ADVANCE)
		snprintf(buf, len, " dev %u:%u", cur->es.major, cur->es.minor);
	else if ((path = sc_path_of(r->paths, r->npaths, cur->es.major, cur->es.minor, cur->es.ino)))
		snprintf(buf, len, " %s", plain(p, sizeof(p), path));
	else
		snprintf(buf, len, " ino %" PRIu64, cur->es.ino);
	return buf;
}

static void flag_names(const struct wb_name_val *tab, unsigned int v, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (; tab->name && at < len; tab++)
		if (tab->val && (v & (unsigned int)tab->val) == (unsigned int)tab->val)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "|" : "", tab->name);
	if (!buf[0])
		snprintf(buf, len, "0x%x", v);
}

/* what the call was given: "fd 3", msync's range, sync_file_range's flags */
static const char *call_args(const struct wb_call *c, char *buf, size_t len)
{
	char fl[64];

	switch (c->kind) {
	case WB_CALL_MSYNC:
		flag_names(wb_msync_flag_names, c->flags, fl, sizeof(fl));
		snprintf(buf, len, "addr 0x%" PRIx64 " len %" PRIu64 " %s", c->off, c->len, fl);
		break;
	case WB_CALL_SYNC_FILE_RANGE:
		flag_names(wb_sfr_flag_names, c->flags, fl, sizeof(fl));
		snprintf(buf, len, "fd %d off %" PRIu64 " len %" PRIu64 " %s", c->fd, c->off, c->len, fl);
		break;
	case WB_CALL_SYNC:
		snprintf(buf, len, "-");
		break;
	default:
		if (c->fd >= 0)
			snprintf(buf, len, "fd %d", c->fd);
		else
			snprintf(buf, len, "fd ?");
	}
	return buf;
}

static const char *call_ret(const struct wb_call *c, char *buf, size_t len)
{
	if (c->state & WB_CALL_NO_EXIT)
		snprintf(buf, len, "?");
	else if (c->ret < 0)
		snprintf(buf, len, "%lld %s", c->ret, wb_errno_name((int)-c->ret));
	else
		snprintf(buf, len, "%lld", c->ret);
	return buf;
}

static const char *match_word(int match)
{
	return match < 0 ? "return not known" : match ? "errno as recorded" : "errno differs from recorded";
}

enum { IT_MARK, IT_FAULT, IT_PROC, IT_SET, IT_CURSOR, IT_CALL };

struct item {
	uint64_t us;
	int type;
	size_t line, idx;
};

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->us != y->us)
		return x->us < y->us ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* a process line is worth showing when the task made a call shown */
static int proc_shown(const struct sc_report *r, uint32_t pid)
{
	const struct wb_attr *a = r->j->a;
	size_t i;

	for (i = 0; i < a->ncalls; i++)
		if (!sc_is_self(r->j, a->calls[i].tid, a->calls[i].tgid) &&
		    (a->calls[i].tid == pid || a->calls[i].tgid == pid))
			return 1;
	return 0;
}

static void text_call(FILE *out, const struct sc_report *r, uint64_t base, size_t k)
{
	const struct sc_judge *jd = r->j;
	const struct wb_call *c = &jd->a->calls[k];
	const struct sc_seer *s;
	char w[48], args[128], path[300], ret[48];
	size_t i, j;
	int any = 0;

	fprintf(out, "%+11.3f  %-21s %s %s%s -> %s", ms(base, c->enter_us ? c->enter_us : c->exit_us),
		wb_call_kind_name(c->kind), who(w, sizeof(w), c->comm, c->tid, c->tgid),
		call_args(c, args, sizeof(args)), call_path(r, c, path, sizeof(path)),
		call_ret(c, ret, sizeof(ret)));
	if (c->exit_us && c->enter_us)
		fprintf(out, " (%.3f ms)", (double)(c->exit_us - c->enter_us) / 1000.0);
	for (i = 0; i < jd->nfaults; i++)
		for (j = 0; j < jd->fates[i].nseers; j++) {
			s = &jd->fates[i].seers[j];
			if (s->call != (long)k)
				continue;
			if (s->set < 0)
				fprintf(out, "%s fault #%u via the super block", any++ ? ";" : "  saw",
					jd->faults[i].id);
			else
				fprintf(out, "%s fault #%u via file %s, %s", any++ ? ";" : "  saw",
					jd->faults[i].id, jd->t->v[s->cursor].es.file, match_word(s->match));
		}
	if (c->state & WB_CALL_NO_ENTER)
		fputs("  [no entry traced]", out);
	if (c->state & WB_CALL_NO_EXIT)
		fputs("  [no exit traced]", out);
	if (c->state & WB_CALL_AMBIGUOUS)
		fputs("  [io_uring window shared with another request]", out);
	if (jd->phase[k] == SC_PHASE_CHECK)
		fputs("  [checker]", out);
	else if (!sc_is_self(jd, c->tid, c->tgid) && !sc_sync_result(jd, k))
		fputs("  [no file's write: not a sync-family result]", out);
	fputc('\n', out);
}

static void text_fault(FILE *out, const struct sc_report *r, uint64_t base, size_t i)
{
	const struct sc_judge *j = r->j;
	const struct sc_fault *f = &j->faults[i];
	const struct sc_fate *fate = &j->fates[i];
	const struct wb_fault *first = &j->a->faults[f->log[0]];

	fprintf(out, "%+11.3f  fault #%-14u fired: %zu bio%s %s (%s %s)", ms(base, fate->fired_us), f->id,
		fate->nfired, fate->nfired == 1 ? "" : "s", f->err ? "failed" : "dropped", first->opclass,
		first->status);
	if (f->err)
		fprintf(out, ", expects %s", wb_errno_name(f->err));
	if (fate->last_us != fate->fired_us)
		fprintf(out, ", last %+.3f", ms(base, fate->last_us));
	fputc('\n', out);
}

static void text_event(FILE *out, const struct sc_report *r, uint64_t base, size_t k)
{
	const struct sc_judge *j = r->j;
	const struct wb_ev *e = &j->t->v[k];
	char w[48], pb[256];
	const char *path = NULL;
	long f;

	if (wb_ev_is_errseq(e) && (path = sc_path_of(r->paths, r->npaths, e->es.major, e->es.minor, e->es.ino)))
		path = plain(pb, sizeof(pb), path);
	switch (e->kind) {
	case WB_EV_MARK:
		fprintf(out, "%+11.3f  mark                  %s\n", ms(base, e->us),
			plain(pb, sizeof(pb), mark_text(e)));
		break;
	case WB_EV_EXEC:
		fprintf(out, "%+11.3f  exec                  %s %s\n", ms(base, e->us),
			who(w, sizeof(w), e->proc.comm, e->proc.pid, 0), plain(pb, sizeof(pb), e->proc.exe));
		break;
	case WB_EV_FORK:
		fprintf(out, "%+11.3f  fork                  %s from %u\n", ms(base, e->us),
			who(w, sizeof(w), e->proc.comm, e->proc.pid, 0), e->proc.parent);
		break;
	case WB_EV_SET:
		f = j->set_fate[k];
		fprintf(out, "%+11.3f  set                   dev %u:%u ino %" PRIu64 "%s%s %s%s by %s",
			ms(base, e->us), e->es.major, e->es.minor, e->es.ino, path ? " " : "", path ? path : "",
			j->a->set_err[k] >= 0 ? wb_errno_name(j->a->set_err[k]) : "errno unknown",
			j->a->set_decoded[k] ? " (decoded)" : "", who(w, sizeof(w), e->comm, e->pid, e->tgid));
		if (f >= 0)
			fprintf(out, "  <- fault #%u", j->faults[f].id);
		fputc('\n', out);
		break;
	default:	/* a cursor move outside any traced call */
		fprintf(out, "%+11.3f  cursor                %s ino %" PRIu64 "%s%s consumed %s via file %s"
			" outside any traced call\n", ms(base, e->us), who(w, sizeof(w), "", e->pid, e->tgid),
			e->es.ino, path ? " " : "", path ? path : "", wb_errno_name(e->es.err), e->es.file);
	}
}

static void text_item(FILE *out, const struct sc_report *r, uint64_t base, const struct item *it)
{
	if (it->type == IT_FAULT)
		text_fault(out, r, base, it->idx);
	else if (it->type == IT_CALL)
		text_call(out, r, base, it->idx);
	else
		text_event(out, r, base, it->idx);
}

static void text_seer(FILE *out, const struct sc_report *r, const struct sc_seer *s)
{
	const struct sc_judge *j = r->j;
	const struct wb_ev *c = s->cursor >= 0 ? &j->t->v[s->cursor] : NULL;
	const struct wb_call *k = s->call >= 0 ? &j->a->calls[s->call] : NULL;
	char w[48], args[128], path[300];

	if (k)
		fprintf(out, " %s %s %s%s", wb_call_kind_name(k->kind), who(w, sizeof(w), k->comm, k->tid, k->tgid),
			call_args(k, args, sizeof(args)), call_path(r, k, path, sizeof(path)));
	else
		fprintf(out, " an untraced path in %s", who(w, sizeof(w), "", c->pid, c->tgid));
	if (s->set < 0)
		fputs(" (super block)", out);
	else
		fprintf(out, " (file %s, %s)", c->es.file, match_word(s->match));
}

static void text_verdicts(FILE *out, const struct sc_report *r)
{
	const struct sc_judge *j = r->j;
	size_t i, k;

	fputs("# verdicts\n", out);
	for (i = 0; i < j->nfaults; i++) {
		const struct sc_fate *fate = &j->fates[i];

		fprintf(out, "fault #%u %s", j->faults[i].id, sc_verdict_name(fate->verdict));
		switch (fate->verdict) {
		case SC_SEEN:
			fprintf(out, " by %zu:", fate->nseers);
			for (k = 0; k < fate->nseers; k++) {
				fputs(k ? ";" : "", out);
				text_seer(out, r, &fate->seers[k]);
			}
			break;
		case SC_LOST:
			fprintf(out, ": recorded in %zu mapping set%s, consumed by no call", fate->nsets,
				fate->nsets == 1 ? "" : "s");
			break;
		case SC_SILENT:
			fprintf(out, ": %zu bio%s, no error recorded in any mapping", fate->nfired,
				fate->nfired == 1 ? "" : "s");
			if (fate->nhit < fate->nfired)
				fprintf(out, "; %zu of them on no file's data after the run"
					" (metadata, free space or a file since deleted)", fate->nfired - fate->nhit);
			break;
		}
		fputc('\n', out);
	}
}

/* the items of the timeline: marks, faults, processes, sets, untraced cursor moves, calls */
static size_t timeline(const struct sc_report *r, struct item *it)
{
	const struct sc_judge *j = r->j;
	const struct wb_trace *t = j->t;
	size_t n = 0, i;

	for (i = 0; i < t->n; i++) {
		const struct wb_ev *e = &t->v[i];

		if (app_mark(e))
			it[n++] = (struct item){ e->us, IT_MARK, 0, i };
		else if ((e->kind == WB_EV_FORK || e->kind == WB_EV_EXEC) && proc_shown(r, e->proc.pid))
			it[n++] = (struct item){ e->us, IT_PROC, 0, i };
		else if (e->kind == WB_EV_SET)
			it[n++] = (struct item){ e->us, IT_SET, e->line, i };
		else if (wb_ev_is_advance(e) && j->a->call_of[i] < 0 && e->es.err &&
			 !sc_is_self(j, e->pid, e->tgid))
			it[n++] = (struct item){ e->us, IT_CURSOR, e->line, i };
	}
	for (i = 0; i < j->nfaults; i++)
		if (j->fates[i].nfired)
			it[n++] = (struct item){ j->fates[i].fired_us, IT_FAULT, 0, i };
	for (i = 0; i < j->a->ncalls; i++) {
		const struct wb_call *c = &j->a->calls[i];
		long at = c->enter >= 0 ? c->enter : c->exit;

		if (!sc_is_self(j, c->tid, c->tgid))
			it[n++] = (struct item){ c->enter_us ? c->enter_us : c->exit_us, IT_CALL,
						 at >= 0 ? t->v[at].line : 0, i };
	}
	return n;
}

void sc_render_text(FILE *out, const struct sc_report *r)
{
	const struct sc_judge *j = r->j;
	const struct wb_trace *t = j->t;
	uint64_t base = time_base(r);
	struct item *it;
	size_t n, i, nchk = 0;

	fprintf(out, "# synctrace: %zu lines, %zu malformed skipped, %" PRIu64 " events lost%s%s\n",
		t->lines, t->skipped, t->lost, t->tgids ? "" : ", no tgids recorded",
		t->lost ? " (attribution may miss calls)" : "");
	for (i = 0; i < t->n && !app_mark(&t->v[i]); i++)
		;
	fprintf(out, "# ms from %s; paths: a faulted file's when armed, else an inode's after the run\n",
		i < t->n ? "the first mark" : "the first event");
	it = malloc((t->n + j->nfaults + j->a->ncalls + 1) * sizeof(*it));
	if (!it) {
		fputs("# out of memory\n", out);
		return;
	}
	n = timeline(r, it);
	qsort(it, n, sizeof(*it), by_time);
	for (i = 0; i < n; i++)
		text_item(out, r, base, &it[i]);
	free(it);
	text_verdicts(out, r);
	fprintf(out, "# unexplained errors: %zu\n", j->nunexplained);
	for (i = 0; i < j->nunexplained; i++)
		text_call(out, r, base, j->unexplained[i]);
	for (i = 0; i < j->a->ncalls; i++)
		nchk += j->phase[i] == SC_PHASE_CHECK && j->a->calls[i].ret < 0;
	fprintf(out, "# the checker's errors (its own phase, not the program's): %zu\n", nchk);
	for (i = 0; i < j->a->ncalls; i++)
		if (j->phase[i] == SC_PHASE_CHECK && j->a->calls[i].ret < 0)
			text_call(out, r, base, i);
}

static void json_call(FILE *out, const struct sc_report *r, size_t i)
{
	const struct sc_judge *jd = r->j;
	const struct wb_call *c = &jd->a->calls[i];

	fprintf(out, "%s\n{\"i\":%zu,\"kind\":\"%s\",\"sys\":", i ? "," : "", i, wb_call_kind_name(c->kind));
	wb_json_str(out, c->sys);
	fprintf(out, ",\"tid\":%u,\"tgid\":%u,\"comm\":", c->tid, c->tgid);
	wb_json_str(out, c->comm);
	fprintf(out, ",\"fd\":%d,\"off\":%" PRIu64 ",\"len\":%" PRIu64 ",\"flags\":%u", c->fd, c->off,
		c->len, c->flags);
	fprintf(out, ",\"enter_us\":%" PRIu64 ",\"exit_us\":%" PRIu64, c->enter_us, c->exit_us);
	if (c->state & WB_CALL_NO_EXIT)
		fputs(",\"ret\":null,\"errno\":null", out);
	else
		fprintf(out, ",\"ret\":%lld,\"errno\":", c->ret), wb_json_errno(out, c->ret < 0 ? (int)-c->ret : 0);
	fprintf(out, ",\"no_entry\":%s,\"no_exit\":%s,\"ambiguous\":%s,\"excluded\":%s,\"phase\":\"%s\"",
		c->state & WB_CALL_NO_ENTER ? "true" : "false", c->state & WB_CALL_NO_EXIT ? "true" : "false",
		c->state & WB_CALL_AMBIGUOUS ? "true" : "false",
		sc_is_self(jd, c->tid, c->tgid) ? "true" : "false",
		jd->phase[i] == SC_PHASE_CHECK ? "check" : "program");
	/* the judge's own answer, so that a reader draws it and does not re-decide it */
	fprintf(out, ",\"sync_result\":%s,\"cursors\":[", sc_sync_result(jd, i) ? "true" : "false");
	for (size_t j = 0; j < c->nadv; j++)
		fprintf(out, "%s%ld", j ? "," : "", jd->pos[jd->a->adv[c->adv + j]]);
	fputs("]}", out);
}

static void json_cursor(FILE *out, const struct sc_report *r, size_t i)
{
	const struct sc_judge *j = r->j;
	const struct wb_ev *c = &j->t->v[j->curs[i]];
	long call = j->a->call_of[j->curs[i]];

	fprintf(out, "%s\n{\"i\":%zu,\"us\":%" PRIu64 ",\"tid\":%u,\"tgid\":%u,\"dev\":\"%u:%u\",\"ino\":%"
		PRIu64 ",\"path\":", i ? "," : "", i, c->us, c->pid, c->tgid, c->es.major, c->es.minor, c->es.ino);
	wb_json_str(out, sc_path_of(r->paths, r->npaths, c->es.major, c->es.minor, c->es.ino));
	fputs(",\"file\":", out);
	wb_json_str(out, c->es.file);
	fprintf(out, ",\"old\":\"0x%x\",\"new\":\"0x%x\",\"consumed\":", c->es.old, c->es.new);
	wb_json_errno(out, c->es.err);
	fprintf(out, ",\"sb\":%s,\"call\":", c->kind == WB_EV_SB_ADVANCE ? "true" : "false");
	if (call >= 0)
		fprintf(out, "%ld}", call);
	else
		fputs("null}", out);
}

static void json_set(FILE *out, const struct sc_report *r, size_t i)
{
	const struct sc_judge *j = r->j;
	size_t k = j->sets[i];
	const struct wb_ev *s = &j->t->v[k];
	long f = j->set_fate[k];
	int err = j->a->set_err[k];

	fprintf(out, "%s\n{\"i\":%zu,\"us\":%" PRIu64 ",\"tid\":%u,\"tgid\":%u,\"comm\":", i ? "," : "", i,
		s->us, s->pid, s->tgid);
	wb_json_str(out, s->comm);
	fprintf(out, ",\"dev\":\"%u:%u\",\"ino\":%" PRIu64 ",\"path\":", s->es.major, s->es.minor, s->es.ino);
	wb_json_str(out, sc_path_of(r->paths, r->npaths, s->es.major, s->es.minor, s->es.ino));
	fprintf(out, ",\"errseq\":\"0x%x\",\"errno\":", s->es.old);
	wb_json_errno(out, err);
	fprintf(out, ",\"errno_from\":\"%s\",\"fault\":",
		s->es.err >= 0 ? "traced" : j->a->set_decoded[k] ? "decoded" : "unknown");
	if (f >= 0)
		fprintf(out, "%u}", j->faults[f].id);
	else
		fputs("null}", out);
}

static void json_long(FILE *out, const char *key, long v)
{
	if (v >= 0)
		fprintf(out, ",\"%s\":%ld", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void json_seer(FILE *out, const struct sc_judge *j, const struct sc_seer *s, int first)
{
	fprintf(out, "%s{\"via\":\"%s\"", first ? "" : ",", s->set < 0 ? "super block" : "file");
	json_long(out, "call", s->call);
	json_long(out, "cursor", s->cursor >= 0 ? j->pos[s->cursor] : -1);
	json_long(out, "set", s->set >= 0 ? j->pos[s->set] : -1);
	fputs(",\"file\":", out);
	wb_json_str(out, s->cursor >= 0 && s->set >= 0 ? j->t->v[s->cursor].es.file : NULL);
	fprintf(out, ",\"match\":%s}", s->match < 0 ? "null" : s->match ? "true" : "false");
}

static void json_fault(FILE *out, const struct sc_judge *j, size_t i)
{
	const struct sc_fate *fate = &j->fates[i];

	fprintf(out, "%s\n{\"id\":%u,\"expected\":", i ? "," : "", j->faults[i].id);
	wb_json_errno(out, j->faults[i].err);
	fprintf(out, ",\"dev\":\"%u:%u\",\"verdict\":\"%s\",\"bios\":%zu,\"bios_on_known_data\":%zu",
		j->faults[i].major, j->faults[i].minor, sc_verdict_name(fate->verdict), fate->nfired, fate->nhit);
	if (fate->nfired)
		fprintf(out, ",\"fired_us\":%" PRIu64 ",\"last_us\":%" PRIu64, fate->fired_us, fate->last_us);
	else
		fputs(",\"fired_us\":null,\"last_us\":null", out);
	fputs(",\"sets\":[", out);
	for (size_t k = 0; k < fate->nsets; k++)
		fprintf(out, "%s%ld", k ? "," : "", j->pos[fate->sets[k]]);
	fputs("],\"seen_by\":[", out);
	for (size_t k = 0; k < fate->nseers; k++)
		json_seer(out, j, &fate->seers[k], !k);
	fputs("]}", out);
}

void sc_render_json(FILE *out, const struct sc_report *r)
{
	const struct sc_judge *j = r->j;
	const struct wb_trace *t = j->t;
	size_t i, n = 0;

	fprintf(out, "{\"lines\":%zu,\"skipped\":%zu,\"lost_events\":%" PRIu64 ",\"tgids\":%s,\"base_us\":%" PRIu64
		",\"self\":%u", t->lines, t->skipped, t->lost, t->tgids ? "true" : "false", time_base(r), j->self);
	fputs(",\n\"marks\":[", out);
	for (i = 0; i < t->n; i++) {
		if (!app_mark(&t->v[i]))
			continue;
		fprintf(out, "%s{\"us\":%" PRIu64 ",\"text\":", n++ ? "," : "", t->v[i].us);
		wb_json_str(out, mark_text(&t->v[i]));
		fputs("}", out);
	}
	fputs("],\n\"calls\":[", out);
	for (i = 0; i < j->a->ncalls; i++)
		json_call(out, r, i);
	fputs("],\n\"cursors\":[", out);
	for (i = 0; i < j->ncurs; i++)
		json_cursor(out, r, i);
	fputs("],\n\"sets\":[", out);
	for (i = 0; i < j->nsets; i++)
		json_set(out, r, i);
	fputs("],\n\"faults\":[", out);
	for (i = 0; i < j->nfaults; i++)
		json_fault(out, j, i);
	fputs("],\n\"unexplained\":[", out);
	for (i = 0; i < j->nunexplained; i++)
		fprintf(out, "%s%zu", i ? "," : "", j->unexplained[i]);
	fputs("]}\n", out);
}
