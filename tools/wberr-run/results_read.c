// SPDX-License-Identifier: GPL-2.0
/*
 * results.json back into inst_results.  libyaml reads it: JSON as
 * wb_json writes it is YAML (wb_json_str() escapes what a YAML scalar
 * would not keep as it is), so no second parser.  Only what the reports
 * print is read back; the rest of each result is zero.
 */
#include "results_read.h"

#include "wb_names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct rdoc {
	yaml_document_t doc;
	const char *path;
	char *err;
	size_t elen;
};

static yaml_node_t *item(struct rdoc *d, yaml_node_item_t *it)
{
	return yaml_document_get_node(&d->doc, *it);
}

/* @map's value of @key; NULL when @map is no mapping or lacks it */
static yaml_node_t *get(struct rdoc *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&d->doc, p->key);

		if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(&d->doc, p->value);
	}
	return NULL;
}

/* a scalar's text; NULL for JSON's null, a missing key or a collection */
static const char *str(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !strcmp((const char *)n->data.scalar.value, "null"))
		return NULL;
	return (const char *)n->data.scalar.value;
}

static double num(yaml_node_t *n)
{
	const char *s = str(n);

	return s ? strtod(s, NULL) : 0;
}

static int boolean(yaml_node_t *n)
{
	const char *s = str(n);

	return s && !strcmp(s, "true");
}

static int seq_len(yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE ? (int)(n->data.sequence.items.top - n->data.sequence.items.start)
						   : 0;
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static int fail(struct rdoc *d, const char *what, const char *id)
{
	snprintf(d->err, d->elen, "%s: %s%s%s", d->path, what, id ? " " : "", id ? id : "");
	return -1;
}

/* an errno by name; -1 for null (no expectation) */
static int errno_of(yaml_node_t *n)
{
	const char *s = str(n);

	return s ? wb_errno_by_name(s) : -1;
}

static int content_of(yaml_node_t *n)
{
	const char *s = str(n);

	for (int c = 1; s && c < CONTENT__N; c++)
		if (!strcmp(s, content_names[c]))
			return c;
	return 0;
}

/* a scenario's "steps" (or a program's "checks") into r->steps */
static int read_steps(struct rdoc *d, yaml_node_t *inst, struct inst_result *r)
{
	int prog = r->inst->sc->prog != NULL;
	yaml_node_t *seq = get(d, inst, prog ? "checks" : "steps");
	int n = seq_len(seq);

	r->steps = calloc((size_t)n + 1, sizeof(*r->steps));
	if (!r->steps)
		return fail(d, "out of memory", NULL);
	r->nsteps = prog ? n : n < r->inst->sc->nsteps ? n : r->inst->sc->nsteps;
	for (int s = 0; s < r->nsteps; s++) {
		yaml_node_t *st = item(d, seq->data.sequence.items.start + s);
		struct step_result *sr = &r->steps[s];

		sr->pass = boolean(get(d, st, "pass"));
		copy(sr->msg, sizeof(sr->msg), str(get(d, st, "msg")));
		if (prog) {
			copy(sr->what, sizeof(sr->what), str(get(d, st, "what")));
			continue;
		}
		sr->ran = boolean(get(d, st, "ran"));
		sr->err = errno_of(get(d, st, "errno"));
		sr->checked = boolean(get(d, st, "checked"));
		sr->expected = errno_of(get(d, st, "expected"));
		sr->content = content_of(get(d, st, "content"));
		sr->secs = num(get(d, st, "secs"));
	}
	return 0;
}

/* one instance's counts, phases and statuses */
static void read_counts(struct rdoc *d, yaml_node_t *inst, struct inst_result *r)
{
	yaml_node_t *ph = get(d, inst, "phases"), *st = get(d, inst, "statuses");

	r->secs = num(get(d, inst, "secs"));
	for (int p = 0; p < PH__N; p++)
		r->phase[p] = num(get(d, ph, phase_names[p]));
	r->nchecked = (int)num(get(d, inst, "sync_results"));
	r->nreported = (int)num(get(d, inst, "errors_reported"));
	r->nfaults = (int)num(get(d, inst, "faults_injected"));
	r->fired = (uint64_t)num(get(d, inst, "fired"));
	copy(r->observed, sizeof(r->observed), str(get(d, inst, "observed")));
	for (int k = 0; k < seq_len(st); k++)
		result_told_status(r, str(item(d, st->data.sequence.items.start + k)), NULL);
}

/* @id's index in @sel, @nsel when it is not there */
static int sel_index(struct instance *const *sel, int nsel, const char *id)
{
	int i = 0;

	while (id && i < nsel && strcmp(sel[i]->id, id))
		i++;
	return id ? i : nsel;
}

static int read_instance(struct rdoc *d, yaml_node_t *inst, struct instance *const *sel, int nsel,
			 struct inst_result *res, unsigned char *filled)
{
	const char *id = str(get(d, inst, "id")), *v = str(get(d, inst, "verdict"));
	int i = sel_index(sel, nsel, id), verdict = 0;

	if (!id || !v)
		return fail(d, "an instance without an id or a verdict", NULL);
	if (i == nsel)
		return fail(d, "an instance not in this selection:", id);
	if (filled[i])
		return fail(d, "a result again for", id);
	while (verdict < R__N && strcmp(verdict_names[verdict], v))
		verdict++;
	if (verdict == R__N)
		return fail(d, "a verdict neither pass, fail nor skip for", id);
	filled[i] = 1;
	res[i].inst = sel[i];
	res[i].verdict = verdict;
	copy(res[i].reason, sizeof(res[i].reason), str(get(d, inst, "reason")));
	read_counts(d, inst, &res[i]);
	return read_steps(d, inst, &res[i]);
}

/* "kernel": release, series, and the statuses with their values */
static void read_kernel(struct rdoc *d, yaml_node_t *kn, struct wb_kernel *k)
{
	yaml_node_t *st = get(d, kn, "statuses");
	const char *series = str(get(d, kn, "series"));

	wb_kernel_init(k);
	if (str(get(d, kn, "release")))
		wb_kernel_set_release(k, str(get(d, kn, "release")));
	k->series = !series ? -1 : !strcmp(series, "true");
	if (!st || st->type != YAML_MAPPING_NODE)
		return;
	k->statuses_read = 1;
	for (yaml_node_pair_t *p = st->data.mapping.pairs.start; p < st->data.mapping.pairs.top; p++) {
		const char *name = str(yaml_document_get_node(&d->doc, p->key));
		const struct wb_status *bs = name ? wb_status_by_name(name) : NULL;
		size_t i = bs ? (size_t)(bs - wb_statuses) : WB_KERNEL_MAX_STATUSES;

		if (i < WB_KERNEL_MAX_STATUSES) {
			k->has[i] = 1;
			k->value[i] = (int)num(yaml_document_get_node(&d->doc, p->value));
		}
	}
}

static int read_list(struct rdoc *d, yaml_node_t *seq, char **out, int *n)
{
	for (*n = 0; *n < seq_len(seq); (*n)++) {
		const char *s;

		if (*n == RUN_RECORD_MAX)
			return fail(d, "more scenario paths or filters than a run takes", NULL);
		s = str(item(d, seq->data.sequence.items.start + *n));
		out[*n] = strdup(s ? s : "");
	}
	return 0;
}

static int read_doc(struct rdoc *d, struct instance *const *sel, int nsel, struct inst_result *res,
		    unsigned char *filled, struct wb_kernel *kernel, struct run_record *run)
{
	yaml_node_t *root = yaml_document_get_root_node(&d->doc), *insts = get(d, root, "instances");
	yaml_node_t *rn = get(d, root, "run");

	if (!insts || insts->type != YAML_SEQUENCE_NODE || !get(d, root, "kernel"))
		return fail(d, "not a results.json (no kernel or instances)", NULL);
	if (!rn || rn->type != YAML_MAPPING_NODE)
		return fail(d, "no \"run\": written by a wberr-run older than --merge", NULL);
	read_kernel(d, get(d, root, "kernel"), kernel);
	if (read_list(d, get(d, rn, "scenarios"), run->paths, &run->npaths) ||
	    read_list(d, get(d, rn, "filters"), run->filters, &run->nfilters))
		return -1;
	for (int i = 0; i < seq_len(insts); i++)
		if (read_instance(d, item(d, insts->data.sequence.items.start + i), sel, nsel, res, filled))
			return -1;
	return 0;
}

/* @d->path into @d->doc: 0, or -1 with the reason (and where) */
static int load(struct rdoc *d)
{
	yaml_parser_t parser;
	FILE *f = fopen(d->path, "re");
	int ok;

	if (!f) {
		snprintf(d->err, d->elen, "%s: cannot read it: %m", d->path);
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	ok = yaml_parser_load(&parser, &d->doc);
	if (!ok)
		snprintf(d->err, d->elen, "%s:%zu:%zu: %s", d->path, parser.problem_mark.line + 1,
			 parser.problem_mark.column + 1, parser.problem ? parser.problem : "unreadable");
	yaml_parser_delete(&parser);
	fclose(f);
	return ok ? 0 : -1;
}

int results_read(const char *path, struct instance *const *sel, int nsel, struct inst_result *res,
		 unsigned char *filled, struct wb_kernel *kernel, struct run_record *run, char *err,
		 size_t elen)
{
	struct rdoc d = { .path = path, .err = err, .elen = elen };
	int rc;

	memset(run, 0, sizeof(*run));
	if (load(&d))
		return -1;
	rc = read_doc(&d, sel, nsel, res, filled, kernel, run);
	yaml_document_delete(&d.doc);
	return rc;
}

int results_costs(const char *path, struct instance *const *sel, int nsel, unsigned *cost_cs, char *err,
		  size_t elen)
{
	struct rdoc d = { .path = path, .err = err, .elen = elen };
	yaml_node_t *insts;
	int found = 0;

	if (load(&d))
		return -1;
	insts = get(&d, yaml_document_get_root_node(&d.doc), "instances");
	for (int k = 0; k < seq_len(insts); k++) {
		yaml_node_t *in = item(&d, insts->data.sequence.items.start + k), *ph = get(&d, in, "phases");
		const char *v = str(get(&d, in, "verdict"));
		int i = sel_index(sel, nsel, str(get(&d, in, "id")));
		double secs = 0;

		if (i == nsel || !v || !strcmp(v, verdict_names[R_SKIP]))
			continue;	/* not selected now, or it did not run */
		for (int p = 0; p < PH__N; p++)
			secs += num(get(&d, ph, phase_names[p]));
		cost_cs[i] = secs < 0.01 ? 1 : (unsigned)(secs * 100 + 0.5);
		found++;
	}
	yaml_document_delete(&d.doc);
	return found;
}

void run_record_free(struct run_record *run)
{
	for (int i = 0; i < run->npaths; i++)
		free(run->paths[i]);
	for (int i = 0; i < run->nfilters; i++)
		free(run->filters[i]);
	memset(run, 0, sizeof(*run));
}

static int same_list(char *const *a, int na, char *const *b, int nb)
{
	for (int i = 0; na == nb && i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return na == nb;
}

int run_record_same(const struct run_record *a, const struct run_record *b)
{
	return same_list(a->paths, a->npaths, b->paths, b->npaths) &&
	       same_list(a->filters, a->nfilters, b->filters, b->nfilters);
}
