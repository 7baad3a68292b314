// SPDX-License-Identifier: GPL-2.0
/* Program mode's trace (synctrace.h), part 3: the timeline and the JSON. */
#include "synctrace.h"
#include "synctrace_int.h"
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
static uint64_t time_base(const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	uint64_t base = UINT64_MAX;
	size_t i;

	if (log->nmarks)
		return log->marks[0].us;
	for (i = 0; i < log->ncalls; i++)
		if (log->calls[i].enter_us && log->calls[i].enter_us < base)
			base = log->calls[i].enter_us;
	if (log->nsets && log->sets[0].us < base)
		base = log->sets[0].us;
	if (log->ncurs && log->curs[0].us < base)
		base = log->curs[0].us;
	for (i = 0; i < r->nfaults; i++)
		if (r->attr->fates[i].nfired && r->attr->fates[i].fired_us < base)
			base = r->attr->fates[i].fired_us;
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
static const char *call_path(const struct sc_report *r, const struct sc_call *c, char *buf, size_t len)
{
	const struct sc_cursor *cur;
	const char *path;
	char p[256];

	if (!c->ncur)
		return "";
	cur = &r->log->curs[r->log->cidx[c->cur]];
	if (cur->sb)
		snprintf(buf, len, " dev %u:%u", cur->major, cur->minor);
	else if ((path = sc_path_of(r->paths, r->npaths, cur->major, cur->minor, cur->ino)))
		snprintf(buf, len, " %s", plain(p, sizeof(p), path));
	else
		snprintf(buf, len, " ino %" PRIu64, cur->ino);
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
static const char *call_args(const struct sc_call *c, char *buf, size_t len)
{
	char fl[64];

	switch (c->kind) {
	case SC_MSYNC:
		flag_names(wb_msync_flag_names, c->flags, fl, sizeof(fl));
		snprintf(buf, len, "addr 0x%" PRIx64 " len %" PRIu64 " %s", c->off, c->len, fl);
		break;
	case SC_SYNC_FILE_RANGE:
		flag_names(wb_sfr_flag_names, c->flags, fl, sizeof(fl));
		snprintf(buf, len, "fd %d off %" PRIu64 " len %" PRIu64 " %s", c->fd, c->off, c->len, fl);
		break;
	case SC_SYNC:
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

static const char *call_ret(const struct sc_call *c, char *buf, size_t len)
{
	if (c->state & SC_NO_EXIT)
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
	size_t i;

	for (i = 0; i < r->log->ncalls; i++)
		if (!sc_excluded(r->attr, &r->log->calls[i]) &&
		    (r->log->calls[i].tid == pid || r->log->calls[i].tgid == pid))
			return 1;
	return 0;
}

static void text_call(FILE *out, const struct sc_report *r, uint64_t base, size_t k)
{
	const struct sc_call *c = &r->log->calls[k];
	const struct sc_seer *s;
	char w[48], args[128], path[300], ret[48];
	size_t i, j;
	int any = 0;

	fprintf(out, "%+11.3f  %-21s %s %s%s -> %s", ms(base, c->enter_us ? c->enter_us : c->exit_us),
		sc_kind_name(c->kind), who(w, sizeof(w), c->comm, c->tid, c->tgid),
		call_args(c, args, sizeof(args)), call_path(r, c, path, sizeof(path)),
		call_ret(c, ret, sizeof(ret)));
	if (c->exit_us && c->enter_us)
		fprintf(out, " (%.3f ms)", (double)(c->exit_us - c->enter_us) / 1000.0);
	for (i = 0; i < r->nfaults; i++)
		for (j = 0; j < r->attr->fates[i].nseers; j++) {
			s = &r->attr->fates[i].seers[j];
			if (s->call != (long)k)
				continue;
			if (s->set < 0)
				fprintf(out, "%s fault #%u via the super block", any++ ? ";" : "  saw",
					r->faults[i].id);
			else
				fprintf(out, "%s fault #%u via file %s, %s", any++ ? ";" : "  saw",
					r->faults[i].id, r->log->curs[s->cursor].file, match_word(s->match));
		}
	if (c->state & SC_NO_ENTER)
		fputs("  [no entry traced]", out);
	if (c->state & SC_NO_EXIT)
		fputs("  [no exit traced]", out);
	if (c->state & SC_AMBIGUOUS)
		fputs("  [io_uring window shared with another request]", out);
	fputc('\n', out);
}

static void text_item(FILE *out, const struct sc_report *r, uint64_t base, const struct item *it)
{
	const struct sc_log *log = r->log;
	char w[48], pb[256];
	const char *path;

	switch (it->type) {
	case IT_MARK:
		fprintf(out, "%+11.3f  mark                  %s\n", ms(base, it->us),
			plain(pb, sizeof(pb), log->marks[it->idx].text));
		break;
	case IT_FAULT: {
		const struct sc_fault *f = &r->faults[it->idx];
		const struct sc_fate *fate = &r->attr->fates[it->idx];

		fprintf(out, "%+11.3f  fault #%-14u fired: %zu bio%s %s (%s %s)", ms(base, it->us), f->id,
			fate->nfired, fate->nfired == 1 ? "" : "s", f->err ? "failed" : "dropped",
			f->log[0].opclass, f->log[0].status);
		if (f->err)
			fprintf(out, ", expects %s", wb_errno_name(f->err));
		if (fate->last_us != fate->fired_us)
			fprintf(out, ", last %+.3f", ms(base, fate->last_us));
		fputc('\n', out);
		break;
	}
	case IT_PROC: {
		const struct sc_proc *p = &log->procs[it->idx];

		if (p->exe[0])
			fprintf(out, "%+11.3f  exec                  %s %s\n", ms(base, it->us),
				who(w, sizeof(w), p->comm, p->pid, 0), plain(pb, sizeof(pb), p->exe));
		else
			fprintf(out, "%+11.3f  fork                  %s from %u\n", ms(base, it->us),
				who(w, sizeof(w), p->comm, p->pid, 0), p->parent);
		break;
	}
	case IT_SET: {
		const struct sc_set *s = &log->sets[it->idx];
		long f = r->attr->set_fault[it->idx];

		path = sc_path_of(r->paths, r->npaths, s->major, s->minor, s->ino);
		path = path ? plain(pb, sizeof(pb), path) : NULL;
		fprintf(out, "%+11.3f  set                   dev %u:%u ino %" PRIu64 "%s%s %s%s by %s",
			ms(base, it->us), s->major, s->minor, s->ino, path ? " " : "", path ? path : "",
			s->err >= 0 ? wb_errno_name(s->err) : "errno unknown",
			s->err_from == SC_ERR_DECODED ? " (decoded)" : "",
			who(w, sizeof(w), s->comm, s->tid, s->tgid));
		if (f >= 0)
			fprintf(out, "  <- fault #%u", r->faults[f].id);
		fputc('\n', out);
		break;
	}
	case IT_CURSOR: {
		const struct sc_cursor *c = &log->curs[it->idx];

		path = sc_path_of(r->paths, r->npaths, c->major, c->minor, c->ino);
		path = path ? plain(pb, sizeof(pb), path) : NULL;
		fprintf(out, "%+11.3f  cursor                %s ino %" PRIu64 "%s%s consumed %s via file %s"
			" outside any traced call\n", ms(base, it->us), who(w, sizeof(w), "", c->tid, c->tgid),
			c->ino, path ? " " : "", path ? path : "", wb_errno_name(c->err), c->file);
		break;
	}
	default:
		text_call(out, r, base, it->idx);
	}
}

static void text_verdicts(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	char w[48], args[128], path[300];
	size_t i, j;

	fputs("# verdicts\n", out);
	for (i = 0; i < r->nfaults; i++) {
		const struct sc_fate *fate = &r->attr->fates[i];

		fprintf(out, "fault #%u %s", r->faults[i].id, sc_verdict_name(fate->verdict));
		switch (fate->verdict) {
		case SC_SEEN:
			fprintf(out, " by %zu:", fate->nseers);
			for (j = 0; j < fate->nseers; j++) {
				const struct sc_seer *s = &fate->seers[j];
				const struct sc_cursor *c = s->cursor >= 0 ? &log->curs[s->cursor] : NULL;
				const struct sc_call *k = s->call >= 0 ? &log->calls[s->call] : NULL;

				fputs(j ? ";" : "", out);
				if (k)
					fprintf(out, " %s %s %s%s", sc_kind_name(k->kind),
						who(w, sizeof(w), k->comm, k->tid, k->tgid),
						call_args(k, args, sizeof(args)), call_path(r, k, path, sizeof(path)));
				else
					fprintf(out, " an untraced path in %s", who(w, sizeof(w), "", c->tid, c->tgid));
				if (s->set < 0)
					fputs(" (super block)", out);
				else
					fprintf(out, " (file %s, %s)", c->file, match_word(s->match));
			}
			break;
		case SC_LOST:
			fprintf(out, ": recorded in %zu mapping set%s, consumed by no call", fate->nsets,
				fate->nsets == 1 ? "" : "s");
			break;
		case SC_SILENT:
			fprintf(out, ": %zu bio%s, no error recorded in any mapping", fate->nfired,
				fate->nfired == 1 ? "" : "s");
			break;
		}
		fputc('\n', out);
	}
}

void sc_render_text(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	uint64_t base = time_base(r);
	struct item *it;
	size_t n = 0, i;

	fprintf(out, "# synctrace: %zu lines, %zu malformed skipped, %" PRIu64 " events lost%s%s\n",
		log->lines, log->skipped, log->lost, log->tgids ? "" : ", no tgids recorded",
		log->lost ? " (attribution may miss calls)" : "");
	fprintf(out, "# ms from %s\n", log->nmarks ? "the first mark" : "the first event");
	it = malloc((log->nmarks + r->nfaults + log->nprocs + log->nsets + log->ncurs + log->ncalls + 1) *
		    sizeof(*it));
	if (!it) {
		fputs("# out of memory\n", out);
		return;
	}
	for (i = 0; i < log->nmarks; i++)
		it[n++] = (struct item){ log->marks[i].us, IT_MARK, 0, i };
	for (i = 0; i < r->nfaults; i++)
		if (r->attr->fates[i].nfired)
			it[n++] = (struct item){ r->attr->fates[i].fired_us, IT_FAULT, 0, i };
	for (i = 0; i < log->nprocs; i++)
		if (proc_shown(r, log->procs[i].pid))
			it[n++] = (struct item){ log->procs[i].us, IT_PROC, 0, i };
	for (i = 0; i < log->nsets; i++)
		it[n++] = (struct item){ log->sets[i].us, IT_SET, log->sets[i].line, i };
	for (i = 0; i < log->ncurs; i++)
		if (log->curs[i].call < 0 && log->curs[i].err &&
		    !sc_is_self(r->attr->self, log->curs[i].tid, log->curs[i].tgid))
			it[n++] = (struct item){ log->curs[i].us, IT_CURSOR, log->curs[i].line, i };
	for (i = 0; i < log->ncalls; i++)
		if (!sc_excluded(r->attr, &log->calls[i]))
			it[n++] = (struct item){ log->calls[i].enter_us ? log->calls[i].enter_us
									 : log->calls[i].exit_us,
						 IT_CALL, log->calls[i].line, i };
	qsort(it, n, sizeof(*it), by_time);
	for (i = 0; i < n; i++)
		text_item(out, r, base, &it[i]);
	free(it);
	text_verdicts(out, r);
	fprintf(out, "# unexplained errors: %zu\n", r->attr->nunexplained);
	for (i = 0; i < r->attr->nunexplained; i++)
		text_call(out, r, base, r->attr->unexplained[i]);
}


static void json_calls(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	const struct sc_call *c;
	size_t i, j;

	fputs(",\n\"calls\":[", out);
	for (i = 0; i < log->ncalls; i++) {
		c = &log->calls[i];
		fprintf(out, "%s\n{\"i\":%zu,\"kind\":\"%s\",\"sys\":", i ? "," : "", i, sc_kind_name(c->kind));
		wb_json_str(out, c->sys);
		fprintf(out, ",\"tid\":%u,\"tgid\":%u,\"comm\":", c->tid, c->tgid);
		wb_json_str(out, c->comm);
		fprintf(out, ",\"fd\":%d,\"off\":%" PRIu64 ",\"len\":%" PRIu64 ",\"flags\":%u", c->fd, c->off,
			c->len, c->flags);
		fprintf(out, ",\"enter_us\":%" PRIu64 ",\"exit_us\":%" PRIu64, c->enter_us, c->exit_us);
		if (c->state & SC_NO_EXIT)
			fputs(",\"ret\":null,\"errno\":null", out);
		else
			fprintf(out, ",\"ret\":%lld,\"errno\":", c->ret), wb_json_errno(out, c->ret < 0 ? (int)-c->ret : 0);
		fprintf(out, ",\"no_entry\":%s,\"no_exit\":%s,\"ambiguous\":%s,\"excluded\":%s,\"cursors\":[",
			c->state & SC_NO_ENTER ? "true" : "false", c->state & SC_NO_EXIT ? "true" : "false",
			c->state & SC_AMBIGUOUS ? "true" : "false", sc_excluded(r->attr, c) ? "true" : "false");
		for (j = 0; j < c->ncur; j++)
			fprintf(out, "%s%zu", j ? "," : "", log->cidx[c->cur + j]);
		fputs("]}", out);
	}
	fputs("]", out);
}

static void json_cursors_sets(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	size_t i;

	fputs(",\n\"cursors\":[", out);
	for (i = 0; i < log->ncurs; i++) {
		const struct sc_cursor *c = &log->curs[i];

		fprintf(out, "%s\n{\"i\":%zu,\"us\":%" PRIu64 ",\"tid\":%u,\"tgid\":%u,\"dev\":\"%u:%u\",\"ino\":%"
			PRIu64 ",\"path\":", i ? "," : "", i, c->us, c->tid, c->tgid, c->major, c->minor, c->ino);
		wb_json_str(out, sc_path_of(r->paths, r->npaths, c->major, c->minor, c->ino));
		fputs(",\"file\":", out);
		wb_json_str(out, c->file);
		fprintf(out, ",\"old\":\"0x%x\",\"new\":\"0x%x\",\"consumed\":", c->old, c->new);
		wb_json_errno(out, c->err);
		fprintf(out, ",\"sb\":%s,\"call\":", c->sb ? "true" : "false");
		if (c->call >= 0)
			fprintf(out, "%ld}", c->call);
		else
			fputs("null}", out);
	}
	fputs("],\n\"sets\":[", out);
	for (i = 0; i < log->nsets; i++) {
		const struct sc_set *s = &log->sets[i];
		long f = r->attr->set_fault[i];

		fprintf(out, "%s\n{\"i\":%zu,\"us\":%" PRIu64 ",\"tid\":%u,\"tgid\":%u,\"comm\":", i ? "," : "", i,
			s->us, s->tid, s->tgid);
		wb_json_str(out, s->comm);
		fprintf(out, ",\"dev\":\"%u:%u\",\"ino\":%" PRIu64 ",\"path\":", s->major, s->minor, s->ino);
		wb_json_str(out, sc_path_of(r->paths, r->npaths, s->major, s->minor, s->ino));
		fprintf(out, ",\"errseq\":\"0x%x\",\"errno\":", s->errseq);
		wb_json_errno(out, s->err);
		fprintf(out, ",\"errno_from\":\"%s\",\"fault\":",
			s->err_from == SC_ERR_TRACED ? "traced" : s->err_from == SC_ERR_DECODED ? "decoded" : "unknown");
		if (f >= 0)
			fprintf(out, "%u}", r->faults[f].id);
		else
			fputs("null}", out);
	}
	fputs("]", out);
}

static void json_long(FILE *out, const char *key, long v)
{
	if (v >= 0)
		fprintf(out, ",\"%s\":%ld", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void json_faults(FILE *out, const struct sc_report *r)
{
	size_t i, j;

	fputs(",\n\"faults\":[", out);
	for (i = 0; i < r->nfaults; i++) {
		const struct sc_fate *fate = &r->attr->fates[i];

		fprintf(out, "%s\n{\"id\":%u,\"expected\":", i ? "," : "", r->faults[i].id);
		wb_json_errno(out, r->faults[i].err);
		fprintf(out, ",\"dev\":\"%u:%u\",\"verdict\":\"%s\",\"bios\":%zu", r->faults[i].major,
			r->faults[i].minor, sc_verdict_name(fate->verdict), fate->nfired);
		if (fate->nfired)
			fprintf(out, ",\"fired_us\":%" PRIu64 ",\"last_us\":%" PRIu64, fate->fired_us, fate->last_us);
		else
			fputs(",\"fired_us\":null,\"last_us\":null", out);
		fputs(",\"sets\":[", out);
		for (j = 0; j < fate->nsets; j++)
			fprintf(out, "%s%zu", j ? "," : "", fate->sets[j]);
		fputs("],\"seen_by\":[", out);
		for (j = 0; j < fate->nseers; j++) {
			const struct sc_seer *s = &fate->seers[j];

			fprintf(out, "%s{\"via\":\"%s\"", j ? "," : "", s->set < 0 ? "super block" : "file");
			json_long(out, "call", s->call);
			json_long(out, "cursor", s->cursor);
			json_long(out, "set", s->set);
			fputs(",\"file\":", out);
			wb_json_str(out, s->cursor >= 0 && s->set >= 0 ? r->log->curs[s->cursor].file : NULL);
			fprintf(out, ",\"match\":%s}", s->match < 0 ? "null" : s->match ? "true" : "false");
		}
		fputs("]}", out);
	}
	fputs("]", out);
}

void sc_render_json(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	size_t i;

	fprintf(out, "{\"lines\":%zu,\"skipped\":%zu,\"lost_events\":%" PRIu64 ",\"tgids\":%s,\"base_us\":%" PRIu64
		",\"self\":%u", log->lines, log->skipped, log->lost, log->tgids ? "true" : "false", time_base(r),
		r->attr->self);
	fputs(",\n\"marks\":[", out);
	for (i = 0; i < log->nmarks; i++) {
		fprintf(out, "%s{\"us\":%" PRIu64 ",\"text\":", i ? "," : "", log->marks[i].us);
		wb_json_str(out, log->marks[i].text);
		fputs("}", out);
	}
	fputs("]", out);
	json_calls(out, r);
	json_cursors_sets(out, r);
	json_faults(out, r);
	fputs(",\n\"unexplained\":[", out);
	for (i = 0; i < r->attr->nunexplained; i++)
		fprintf(out, "%s%zu", i ? "," : "", r->attr->unexplained[i]);
	fputs("]}\n", out);
}
