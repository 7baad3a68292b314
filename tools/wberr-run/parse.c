// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario parser.  libyaml builds a document; we walk it with a key
 * path ("steps[3].flags[1]") so every refusal names file:line:column and
 * the exact key.  Each mapping is walked by its table (schema.h): nothing
 * unknown is ignored, nothing given twice.
 */
#include "parse.h"
#include "schema.h"
#include "wb_names.h"
#include "wb_rule.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

const char *const fs_names[FS__N] = {
#define FS_NAME(sfx, name) [FS_##sfx] = #name,
	WB_FS_LIST(FS_NAME)
#undef FS_NAME
};
/* columns of lib/c's file-system table, as masks of enum fs_kind */
static int has_data_modes(const struct wb_fs_desc *f) { return f->data_modes; }
static int has_dax(const struct wb_fs_desc *f) { return f->mkfs_dax != NULL; }
static int has_mkfs(const struct wb_fs_desc *f) { return f->mkfs != NULL; }
static int no_mkfs(const struct wb_fs_desc *f) { return !f->mkfs; }

static unsigned fs_mask(int (*pick)(const struct wb_fs_desc *))
{
	unsigned m = 0;

	for (int i = 0; i < FS__N; i++)
		if (pick(&wb_fs[i]))
			m |= 1u << i;
	return m;
}

const char *const data_mode_names[4] = { "default", "ordered", "writeback", "journal" };
const char *const content_names[CONTENT__N] = { "-", "new", "old", "zero", "mixed" };
const char *const recover_names[REC__N] = { "kill", "clear_faults", "drop_caches", "remount", "device_cycle" };
const char *const errors_expect_names[ERRORS__N] = { "seen", "lost", "silent" };
struct pctx {
	const char *file;
	yaml_document_t *doc;
	char path[512];
	char *err;
	size_t errlen;
	int failed;
};

static int perr(struct pctx *c, const yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct pctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	size_t off;

	if (c->failed)
		return -1;
	c->failed = 1;
	off = (size_t)snprintf(c->err, c->errlen, "%s:%zu:%zu: %s: ", c->file,
			       n ? n->start_mark.line + 1 : 0,
			       n ? n->start_mark.column + 1 : 0,
			       c->path[0] ? c->path : "(top)");
	if (off < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + off, c->errlen - off, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static size_t path_push(struct pctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static size_t path_push(struct pctx *c, const char *fmt, ...)
{
	size_t old = strlen(c->path);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->path + old, sizeof(c->path) - old, fmt, ap);
	va_end(ap);
	return old;
}

static void path_pop(struct pctx *c, size_t old) { c->path[old] = 0; }

static const char *kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE: return "a scalar";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "nothing";
	}
}

static yaml_node_t *node(struct pctx *c, int id) { return yaml_document_get_node(c->doc, id); }

static int want_scalar(struct pctx *c, yaml_node_t *n, const char **out)
{
	if (n->type != YAML_SCALAR_NODE)
		return perr(c, n, "expected a scalar, got %s", kind_name(n));
	*out = (const char *)n->data.scalar.value;
	return 0;
}

static int get_str(struct pctx *c, yaml_node_t *n, char *dst, size_t len)
{
	const char *s = NULL;

	if (want_scalar(c, n, &s))
		return -1;
	if (strlen(s) >= len)
		return perr(c, n, "string too long (max %zu)", len - 1);
	strcpy(dst, s);
	return 0;
}

static int get_name(struct pctx *c, yaml_node_t *n, char *dst, size_t len)
{
	if (get_str(c, n, dst, len))
		return -1;
	if (!dst[0])
		return perr(c, n, "empty name");
	for (const char *p = dst; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return perr(c, n, "bad name \"%s\": use letters, digits, '_', '-', '.'", dst);
	return 0;
}

/* 64k, 1m, 0x10, 4096 */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	/* a suffix must not shift bits out: 2^64 is no u64 */
	if (*end || v > (ULLONG_MAX >> shift))
		return -1;
	v <<= shift;
	*out = v;
	return 0;
}

static int get_u64(struct pctx *c, yaml_node_t *n, uint64_t max, uint64_t *out)
{
	const char *s = NULL;

	if (want_scalar(c, n, &s))
		return -1;
	if (parse_u64(s, out))
		return perr(c, n, "expected a non-negative integer (k/m/g suffix allowed), got \"%s\"", s);
	if (*out > max)
		return perr(c, n, "%s is out of range (max %llu)", s, (unsigned long long)max);
	return 0;
}

static int get_bool(struct pctx *c, yaml_node_t *n, int *out)
{
	const char *s = NULL;

	if (want_scalar(c, n, &s))
		return -1;
	if (!strcmp(s, "true") || !strcmp(s, "yes"))
		*out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "no"))
		*out = 0;
	else
		return perr(c, n, "expected true or false, got \"%s\"", s);
	return 0;
}

static int get_enum(struct pctx *c, yaml_node_t *n, const char *const *names, int nnames, int *out)
{
	const char *s = NULL;
	char all[512] = "";
	size_t off = 0;

	if (want_scalar(c, n, &s))
		return -1;
	for (int i = 0; i < nnames; i++) {
		if (names[i] && !strcmp(names[i], s)) {
			*out = i;
			return 0;
		}
		if (names[i])
			off += (size_t)snprintf(all + off, sizeof(all) - off, "%s%s", off ? ", " : "", names[i]);
	}
	return perr(c, n, "unknown value \"%s\" (expected one of: %s)", s, all);
}

/* data_mode: one ext4 data mode, or a list: ext4 runs once in each */
static int get_data_modes(struct pctx *c, yaml_node_t *n, unsigned *mask)
{
	int m;

	*mask = 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		if (get_enum(c, n, data_mode_names, 4, &m))
			return -1;
		*mask = 1u << m;
		return 0;
	}
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = node(c, *it);
		size_t old = path_push(c, "[%d]", (int)(it - n->data.sequence.items.start));

		if (get_enum(c, e, data_mode_names, 4, &m))
			return -1;
		if (*mask & (1u << m))
			return perr(c, e, "data mode \"%s\" given twice", data_mode_names[m]);
		*mask |= 1u << m;
		path_pop(c, old);
	}
	if (!*mask)
		return perr(c, n, "an empty list of data modes");
	return 0;
}

/* a scalar or a list of scalars, each a name from @tab, OR'ed together */
static int get_flags(struct pctx *c, yaml_node_t *n, const struct wb_name_val *tab, int *out)
{
	char all[512];
	const char *s = NULL;
	int v;

	*out = 0;
	if (n->type == YAML_SCALAR_NODE) {
		s = (const char *)n->data.scalar.value;
		v = wb_name_lookup(tab, s);
		if (v < 0) {
			wb_name_list(tab, all, sizeof(all));
			return perr(c, n, "unknown flag \"%s\" (expected one of: %s)", s, all);
		}
		*out = v;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return perr(c, n, "expected a flag name or a list of them, got %s", kind_name(n));
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = node(c, *it);
		size_t old = path_push(c, "[%d]", (int)(it - n->data.sequence.items.start));

		if (want_scalar(c, e, &s))
			return -1;
		v = wb_name_lookup(tab, s);
		if (v < 0) {
			wb_name_list(tab, all, sizeof(all));
			return perr(c, e, "unknown flag \"%s\" (expected one of: %s)", s, all);
		}
		*out |= v;
		path_pop(c, old);
	}
	return 0;
}


static int parse_errno_value(struct pctx *c, yaml_node_t *n, int *out)
{
	const char *s = NULL;

	if (want_scalar(c, n, &s))
		return -1;
	if (!strcmp(s, "$errno")) {
		*out = -2;	/* the matrix status's blk_status_to_errno() */
		return 0;
	}
	*out = wb_errno_by_name(s);
	if (*out < 0)
		return perr(c, n, "unknown errno name \"%s\" (use 0, EIO, ETIMEDOUT, ... or $errno)", s);
	return 0;
}

/* one value parser of parse_per_fs() */
typedef int (*fs_value_fn)(struct pctx *c, yaml_node_t *n, int *v);

/*
 * A value for every file system, or a mapping {raw|ext4|ext2|xfs|btrfs|
 * default: value}: out[fs] gets each one's, @unset where neither is given.
 * @what and @unit name the value in a refusal.
 */
static int parse_per_fs(struct pctx *c, yaml_node_t *n, int *out, int unset, fs_value_fn fn,
			const char *what, const char *unit)
{
	int v, dflt = unset;

	for (int i = 0; i < FS__N; i++)
		out[i] = unset;
	if (n->type == YAML_SCALAR_NODE) {
		if (fn(c, n, &v))
			return -1;
		for (int i = 0; i < FS__N; i++)
			out[i] = v;
		return 0;
	}
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected %s or a mapping fs: %s, got %s", what, unit, kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *val = node(c, p->value);
		const char *ks = NULL;
		int fs = -1;
		size_t old;

		if (want_scalar(c, k, &ks))
			return -1;
		old = path_push(c, ".%s", ks);
		if (strcmp(ks, "default")) {
			for (int i = 0; i < FS__N; i++)
				if (!strcmp(fs_names[i], ks))
					fs = i;
			if (fs < 0) {
				char all[128];

				wb_fs_list(all, sizeof(all), NULL, NULL);
				return perr(c, k, "unknown filesystem \"%s\" (expected %s or default)", ks, all);
			}
		}
		if (fn(c, val, &v))
			return -1;
		if (fs < 0)
			dflt = v;
		else
			out[fs] = v;
		path_pop(c, old);
	}
	for (int i = 0; i < FS__N; i++)
		if (out[i] == unset)
			out[i] = dflt;
	return 0;
}

static int parse_expect(struct pctx *c, yaml_node_t *n, struct expect *e)
{
	e->set = 1;
	return parse_per_fs(c, n, e->err, EXPECT_UNSET, parse_errno_value, "an errno name", "errno");
}

/* action: fail | drop | delay:<ms>[:fail|:drop|:pass], as dm-wberr takes it */
static int parse_action(struct pctx *c, yaml_node_t *v, struct wb_rule *r)
{
	const char *s = NULL;

	if (want_scalar(c, v, &s))
		return -1;
	if (!wb_rule_parse_action(r, s))
		return 0;
	return perr(c, v, "unknown action \"%s\" (expected fail, drop or delay:<ms>[:fail|:drop|:pass], "
		    "ms 1..%u)", s, WBERR_ABI_DELAY_MAX_MS);
}

/* bio_flags: a flag or a list, each a dm-wberr flag name, '!' to exclude */
static int parse_bio_flags(struct pctx *c, yaml_node_t *v, struct wb_rule *r)
{
	yaml_node_item_t one = 0, *it, *end;

	if (v->type == YAML_SEQUENCE_NODE) {
		it = v->data.sequence.items.start;
		end = v->data.sequence.items.top;
		if (it == end)
			return perr(c, v, "an empty list of bio flags");
	} else {
		it = &one;
		end = it + 1;
	}
	r->flags_set = r->flags_clear = 0;
	for (; it < end; it++) {
		yaml_node_t *e = it == &one ? v : node(c, *it);
		const char *s = NULL, *name;
		size_t i;

		if (want_scalar(c, e, &s))
			return -1;
		name = s + (s[0] == '!');
		for (i = 0; i < wb_nr_bio_flags; i++)
			if (!strcmp(wb_bio_flag_names[i], name))
				break;
		if (i == wb_nr_bio_flags) {
			char all[256];
			size_t o = 0;

			for (size_t k = 0; k < wb_nr_bio_flags; k++)
				o += (size_t)snprintf(all + o, sizeof(all) - o, "%s%s", k ? ", " : "",
						      wb_bio_flag_names[k]);
			return perr(c, e, "unknown bio flag \"%s\" (expected one of: %s; '!' before one excludes it)",
				    s, all);
		}
		if ((r->flags_set | r->flags_clear) & (1u << i))
			return perr(c, e, "bio flag \"%s\" given twice", name);
		*(s[0] == '!' ? &r->flags_clear : &r->flags_set) |= 1u << i;
	}
	return 0;
}

static int content_value(struct pctx *c, yaml_node_t *n, int *v)
{
	if (get_enum(c, n, content_names + 1, CONTENT__N - 1, v))
		return -1;
	(*v)++;		/* content_names[0] is "-", no expectation */
	return 0;
}

static int key_allowed(const char *list, const char *key, int *required)
{
	size_t kl = strlen(key);

	for (const char *p = list; *p;) {
		int req = 0;
		size_t l;

		while (*p == ' ')
			p++;
		if (*p == '*') {
			req = 1;
			p++;
		}
		l = strcspn(p, " ");
		if (l == kl && !strncmp(p, key, kl)) {
			*required = req;
			return 1;
		}
		p += l;
	}
	return 0;
}

static int parse_sectors(struct pctx *c, yaml_node_t *n, struct wb_rule *r)
{
	const char *s = NULL;
	char a[64], *dash;
	uint64_t first, last;

	if (want_scalar(c, n, &s))
		return -1;
	if (strlen(s) >= sizeof(a))
		return perr(c, n, "bad sector range");
	strcpy(a, s);
	dash = strchr(a, '-');
	if (!dash)
		return perr(c, n, "expected <first>-<last>, got \"%s\"", s);
	*dash = 0;
	if (parse_u64(a, &first) || parse_u64(dash + 1, &last))
		return perr(c, n, "expected <first>-<last> in sectors, got \"%s\"", s);
	if (last < first)
		return perr(c, n, "empty sector range \"%s\" (last < first)", s);
	r->has_sectors = 1;
	r->first = first;
	r->last = last;
	return 0;
}

/* one key of dm-wberr's rule grammar (wb_rule.h's table: kind and range) */
static int parse_rule_key(struct pctx *c, yaml_node_t *v, struct wb_rule *r, int k)
{
	const struct wb_rule_key_desc *d = &wb_rule_keys[k];
	uint64_t u;
	int b;

	switch (d->kind) {
	case WBERR_ABI_KIND_RANGE:
		return parse_sectors(c, v, r);
	case WBERR_ABI_KIND_ACTION:
		return parse_action(c, v, r);
	case WBERR_ABI_KIND_FLAGS:
		return parse_bio_flags(c, v, r);
	case WBERR_ABI_KIND_BOOL:
		if (get_bool(c, v, &b))
			return -1;
		wb_rule_set_number(r, k, (uint64_t)b);
		return 0;
	default:
		if (get_u64(c, v, d->max, &u))
			return -1;
		if (u < d->min)
			return perr(c, v, "%s must be >= %llu", d->yaml, (unsigned long long)d->min);
		wb_rule_set_number(r, k, u);
		return 0;
	}
}

static int parse_fs(struct pctx *c, yaml_node_t *n, unsigned *mask)
{
	int fs;

	*mask = 0;
	if (n->type == YAML_SCALAR_NODE && !strcmp((const char *)n->data.scalar.value, "all")) {
		*mask = (1u << FS__N) - 1;	/* every one of the table, raw too */
		return 0;
	}
	if (n->type == YAML_SCALAR_NODE) {
		if (get_enum(c, n, fs_names, FS__N, &fs))
			return -1;
		*mask = 1u << fs;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return perr(c, n, "expected a filesystem name, a list of them or all, got %s", kind_name(n));
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		size_t old = path_push(c, "[%d]", (int)(it - n->data.sequence.items.start));

		if (get_enum(c, node(c, *it), fs_names, FS__N, &fs))
			return -1;
		*mask |= 1u << fs;
		path_pop(c, old);
	}
	if (!*mask)
		return perr(c, n, "empty filesystem list");
	return 0;
}

static int parse_opts(struct pctx *c, yaml_node_t *n, char *dst, size_t len, const char *sep)
{
	size_t off = 0;
	const char *s = NULL;

	if (n->type == YAML_SCALAR_NODE)
		return get_str(c, n, dst, len);
	if (n->type != YAML_SEQUENCE_NODE)
		return perr(c, n, "expected a string or a list of strings, got %s", kind_name(n));
	dst[0] = 0;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = node(c, *it);
		size_t old = path_push(c, "[%d]", (int)(it - n->data.sequence.items.start));

		if (want_scalar(c, e, &s))
			return -1;
		if (off + strlen(s) + 2 >= len)
			return perr(c, e, "options too long");
		off += (size_t)snprintf(dst + off, len - off, "%s%s", off ? sep : "", s);
		path_pop(c, old);
	}
	return 0;
}

/* a list of strings (or one string) into @dst[max][len] */
static int get_str_list(struct pctx *c, yaml_node_t *n, char (*dst)[PATH_LEN], int max, int *count)
{
	*count = 0;
	if (n->type == YAML_SCALAR_NODE)
		return get_str(c, n, dst[(*count)++], PATH_LEN);
	if (n->type != YAML_SEQUENCE_NODE)
		return perr(c, n, "expected a string or a list of them, got %s", kind_name(n));
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		size_t old = path_push(c, "[%d]", (int)(it - n->data.sequence.items.start));

		if (*count == max)
			return perr(c, node(c, *it), "at most %d entries", max);
		if (get_str(c, node(c, *it), dst[(*count)++], PATH_LEN))
			return -1;
		path_pop(c, old);
	}
	return 0;
}

/* arm: start | {after_ms: N} | {marker: TEXT} */
static int parse_arm(struct pctx *c, yaml_node_t *n, struct program *pg)
{
	yaml_node_t *k, *v;
	uint64_t u;
	size_t old;
	int rc;

	if (n->type == YAML_SCALAR_NODE && !strcmp((const char *)n->data.scalar.value, "start")) {
		pg->arm = ARM_START;
		return 0;
	}
	if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
		return perr(c, n, "expected start, {after_ms: N} or {marker: TEXT}");
	k = node(c, n->data.mapping.pairs.start->key);
	v = node(c, n->data.mapping.pairs.start->value);
	if (k->type != YAML_SCALAR_NODE)
		return perr(c, k, "expected after_ms or marker");
	old = path_push(c, ".%s", (const char *)k->data.scalar.value);
	if (!strcmp((const char *)k->data.scalar.value, "after_ms")) {
		pg->arm = ARM_AFTER_MS;
		rc = get_u64(c, v, 3600000, &u);
		pg->arm_ms = (unsigned)u;
	} else if (!strcmp((const char *)k->data.scalar.value, "marker")) {
		pg->arm = ARM_MARKER;
		rc = get_str(c, v, pg->marker, sizeof(pg->marker));
		if (!rc && !pg->marker[0])
			rc = perr(c, v, "empty marker");
	} else {
		rc = perr(c, k, "unknown key '%s' (expected after_ms or marker)", (const char *)k->data.scalar.value);
	}
	path_pop(c, old);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The walker: a mapping by its table (schema.h)                       */
/* ------------------------------------------------------------------ */

const struct ykey *schema_key(const struct ytable *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->keys[i].name, name))
			return &t->keys[i];
	return NULL;
}

/* the defaults of @t's numbers and switches into @obj */
static void schema_init(const struct ytable *t, void *obj)
{
	for (int i = 0; i < t->n; i++) {
		const struct ykey *k = &t->keys[i];
		char *f = (char *)obj + k->at;

		if (!k->dflt || (k->type != Y_U64 && k->type != Y_BOOL && k->type != Y_ENUM))
			continue;
		if (k->size == sizeof(uint64_t))
			memcpy(f, &k->dflt, sizeof(uint64_t));
		else
			*(unsigned *)f = (unsigned)k->dflt;
	}
}

static int parse_number(struct pctx *c, yaml_node_t *v, const struct ykey *k, char *f)
{
	uint64_t u;

	if (get_u64(c, v, k->max, &u))
		return -1;
	if (u < k->min && k->max != UINT64_MAX)
		return perr(c, v, "%s must be %llu..%llu", k->name, (unsigned long long)k->min,
			    (unsigned long long)k->max);
	if (u < k->min)
		return perr(c, v, "%s must be >= %llu", k->name, (unsigned long long)k->min);
	if (k->size == sizeof(uint64_t))
		memcpy(f, &u, sizeof(u));
	else
		*(unsigned *)f = (unsigned)u;
	return 0;
}

static int parse_value(struct pctx *c, yaml_node_t *v, const struct ykey *k, void *obj)
{
	char *f = (char *)obj + k->at;

	switch (k->type) {
	case Y_NAME: return get_name(c, v, f, k->size);
	case Y_STR: return get_str(c, v, f, k->size);
	case Y_U64: return parse_number(c, v, k, f);
	case Y_BOOL: return get_bool(c, v, (int *)f);
	case Y_ENUM: return get_enum(c, v, k->names, k->nnames, (int *)f);
	case Y_RULE: return parse_rule_key(c, v, (struct wb_rule *)f, k->rule_key);
	case Y_FN: return k->fn(c, v, obj);
	default: return 0;
	}
}

/* the names of @t's keys that @allowed lets @obj have (and, with @only,
 * that have one of those flags), ", "-joined */
static void schema_list(const struct ytable *t, int (*allowed)(const void *, const struct ykey *),
			const void *obj, unsigned only, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < t->n && off < len; i++)
		if ((!only || (t->keys[i].flags & only)) && (!allowed || allowed(obj, &t->keys[i])))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->keys[i].name);
}

struct walk {
	const struct ytable *t;
	void *obj;
	const char *who;		/* starts a refusal: "on_kernel 6.1: " */
	int (*allowed)(const void *obj, const struct ykey *k);	/* NULL: every key */
	/* an unknown key's refusal, instead of "unknown key '%s' (allowed: ...)" */
	int (*refuse)(struct pctx *c, yaml_node_t *k, const char *ks, const void *obj);
	yaml_node_t *nodes[64];		/* the value of key i, NULL: absent */
};

/* one pair of the mapping: its key known, allowed and new, its value parsed */
static int walk_pair(struct pctx *c, struct walk *w, yaml_node_t *k, yaml_node_t *v)
{
	const struct ykey *key;
	const char *ks = NULL;
	char all[512];
	size_t old;

	if (want_scalar(c, k, &ks))
		return -1;
	old = w->t->key_path ? path_push(c, "%s%s", c->path[0] ? "." : "", ks) : strlen(c->path);
	key = schema_key(w->t, ks);
	if (key && w->nodes[key - w->t->keys])
		return perr(c, k, "duplicate key");
	if (!key || (w->allowed && !w->allowed(w->obj, key))) {
		if (w->refuse)
			return w->refuse(c, k, ks, w->obj);
		schema_list(w->t, w->allowed, w->obj, 0, all, sizeof(all));
		return perr(c, k, "%sunknown key '%s' (allowed: %s)", w->who, ks, all);
	}
	w->nodes[key - w->t->keys] = v;
	if (!(key->flags & YK_OP) && parse_value(c, v, key, w->obj))
		return -1;
	path_pop(c, old);
	return 0;
}

/*
 * Walks mapping @n (the caller has checked it is one) by @w->t into
 * @w->obj; then every required key must be there, in table order.
 */
static int walk(struct pctx *c, yaml_node_t *n, struct walk *w)
{
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
		if (walk_pair(c, w, node(c, p->key), node(c, p->value)))
			return -1;
	for (int i = 0; i < w->t->n; i++) {
		const struct ykey *k = &w->t->keys[i];

		if (k->need && !w->nodes[i])
			return k->need[0] ? perr(c, n, "%s%s", w->who, k->need) :
					    perr(c, n, "%smissing key '%s'", w->who, k->name);
	}
	return 0;
}

/* the value of key @name of a walk, NULL when absent */
static yaml_node_t *walked(const struct walk *w, const char *name)
{
	const struct ykey *k = schema_key(w->t, name);

	return k ? w->nodes[k - w->t->keys] : NULL;
}

#define K(n, t)			.name = n, .type = t
#define FIELD(type, f)		.at = offsetof(type, f), .size = sizeof(((type *)0)->f)
#define NAMES(a)		.names = a, .nnames = (int)(sizeof(a) / sizeof(a[0]))
#define TABLE(nm, a, kp)	{ nm, a, (int)(sizeof(a) / sizeof(a[0])), kp }

/* ------------------------------------------------------------------ */
/* A step                                                              */
/* ------------------------------------------------------------------ */

static const struct ykey content_keys[] = {
	{ "new", Y_U64, FIELD(struct step, content_new), .max = 255, .need = "content needs both new and old" },
	{ "old", Y_U64, FIELD(struct step, content_old), .max = 255, .need = "content needs both new and old" },
};
const struct ytable content_schema = TABLE("content", content_keys, 1);

/* content: {new: <byte>, old: <byte>}, both required, different */
static int v_content(struct pctx *c, yaml_node_t *n, void *obj)
{
	struct step *st = obj;
	struct walk w = { .t = &content_schema, .obj = st, .who = "" };

	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected {new: <byte>, old: <byte>}, got %s", kind_name(n));
	if (walk(c, n, &w))
		return -1;
	if (st->content_new == st->content_old)
		return perr(c, n, "content: new and old are the same byte, a read could not tell them apart");
	st->has_content = 1;
	return 0;
}

/* expect_content: new|old|zero|mixed, or a mapping fs: kind with default */
static int v_expect_content(struct pctx *c, yaml_node_t *n, void *obj)
{
	return parse_per_fs(c, n, ((struct step *)obj)->expect_content, CONTENT_UNSET, content_value,
			    "new, old, zero, mixed", "kind");
}

static int v_expect(struct pctx *c, yaml_node_t *n, void *obj)
{
	return parse_expect(c, n, &((struct step *)obj)->expect);
}

static int v_ke_expect(struct pctx *c, yaml_node_t *n, void *obj)
{
	return parse_expect(c, n, &((struct kernel_expect *)obj)->expect);
}

static int v_ke_expect_content(struct pctx *c, yaml_node_t *n, void *obj)
{
	return parse_per_fs(c, n, ((struct kernel_expect *)obj)->expect_content, CONTENT_UNSET, content_value,
			    "new, old, zero, mixed", "kind");
}

static const struct ykey on_kernel_keys[] = {
	{ K("expect", Y_FN), .fn = v_ke_expect },
	{ K("expect_content", Y_FN), .fn = v_ke_expect_content },
	{ K("why", Y_STR), FIELD(struct kernel_expect, why) },
};
/* the path stays at the release: "steps[0].on_kernel.6.1" */
const struct ytable on_kernel_schema = TABLE("on_kernel", on_kernel_keys, 0);

/* one release of on_kernel: "M.m" or "patched" (a kernel carrying
 * kernel/patches): {expect, expect_content, why} */
static int on_kernel_one(struct pctx *c, yaml_node_t *k, yaml_node_t *v, struct step *st)
{
	struct kernel_expect *ke;
	const char *rel = NULL;
	char who[48];
	int maj, min, used = 0, any = 0;

	if (want_scalar(c, k, &rel))
		return -1;
	if (strcmp(rel, "patched") &&
	    (sscanf(rel, "%d.%d%n", &maj, &min, &used) != 2 || rel[used] || maj < 2 ||
	     strlen(rel) >= sizeof(ke->release)))
		return perr(c, k, "on_kernel: '%s' is neither a release major.minor such as \"6.1\" nor \"patched\"",
			    rel);
	for (int i = 0; i < st->non_kernel; i++)
		if (!strcmp(st->on_kernel[i].release, rel))
			return perr(c, k, "on_kernel: %s given twice", rel);
	if (st->non_kernel == STEP_MAX_KERNELS)
		return perr(c, k, "on_kernel: at most %d kernels a step", STEP_MAX_KERNELS);
	ke = &st->on_kernel[st->non_kernel++];
	memset(ke, 0, sizeof(*ke));
	snprintf(ke->release, sizeof(ke->release), "%s", rel);
	for (int f = 0; f < FS__N; f++)
		ke->expect_content[f] = CONTENT_UNSET;
	path_push(c, ".%s", rel);
	if (v->type != YAML_MAPPING_NODE)
		return perr(c, v, "on_kernel %s: expected a mapping {expect, expect_content, why}", rel);
	snprintf(who, sizeof(who), "on_kernel %s: ", rel);
	if (walk(c, v, &(struct walk){ .t = &on_kernel_schema, .obj = ke, .who = who }))
		return -1;
	if (!ke->why[0])
		return perr(c, v, "on_kernel %s needs 'why': the kernel's reason, from its source", rel);
	for (int f = 0; f < FS__N; f++)
		any |= ke->expect_content[f] != CONTENT_UNSET;
	if (!ke->expect.set && !any)
		return perr(c, v, "on_kernel %s changes nothing: give expect or expect_content", rel);
	return 0;
}

/*
 * on_kernel: {"M.m": {expect: ..., expect_content: ..., why: "..."}, ...}:
 * what the step expects on that kernel instead, with the reason required;
 * the key "patched" names a kernel that carries kernel/patches
 */
static int v_on_kernel(struct pctx *c, yaml_node_t *n, void *obj)
{
	if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.top == n->data.mapping.pairs.start)
		return perr(c, n, "on_kernel needs a mapping of releases (\"6.1\" or \"patched\": {expect: ..., why: ...})");
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		size_t old = strlen(c->path);

		if (on_kernel_one(c, node(c, p->key), node(c, p->value), obj))
			return -1;
		path_pop(c, old);
	}
	return 0;
}

/* records: {path: errno}, one pair */
static int v_records(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct step *st = obj;
	yaml_node_t *pk, *pv;
	size_t old;

	if (v->type != YAML_MAPPING_NODE || v->data.mapping.pairs.top - v->data.mapping.pairs.start != 1)
		return perr(c, v, "expected one 'path: errno' pair");
	pk = node(c, v->data.mapping.pairs.start->key);
	pv = node(c, v->data.mapping.pairs.start->value);
	if (get_str(c, pk, st->rec_path, sizeof(st->rec_path)))
		return -1;
	old = path_push(c, ".%s", st->rec_path);
	if (parse_errno_value(c, pv, &st->rec_err))
		return -1;
	if (st->rec_err <= 0)
		return perr(c, pv, "records needs an error, not 0 or $errno");
	path_pop(c, old);
	return 0;
}

static int v_path(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct step *st = obj;

	if (get_str(c, v, st->path, sizeof(st->path)))
		return -1;
	if (!st->path[0] || st->path[0] == '/' || strstr(st->path, ".."))
		return perr(c, v, "path must be relative to the mount point without '..' (or @dev for the device)");
	return 0;
}

static int v_file(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct fault_spec *f = &((struct step *)obj)->fault;

	if (get_str(c, v, f->file, sizeof(f->file)))
		return -1;
	if (!f->file[0] || f->file[0] == '/' || f->file[0] == '@')
		return perr(c, v, "file must be a path relative to the mount point");
	return 0;
}

/* flags: the op's own flag names (ops.h), into the op's field */
static int v_flags(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct step *st = obj;

	return get_flags(c, v, op_table[st->op].flag_names, (int *)((char *)st + op_table[st->op].flags_at));
}

static int v_ops(struct pctx *c, yaml_node_t *v, void *obj)
{
	int e;

	if (get_flags(c, v, wb_op_names, &e))
		return -1;
	((struct step *)obj)->fault.rule.ops = (unsigned)e;
	return 0;
}

static int v_status(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct wb_rule *r = &((struct step *)obj)->fault.rule;
	char all[512];
	size_t off = 0;

	if (get_str(c, v, r->status, sizeof(r->status)))
		return -1;
	if (!strcmp(r->status, "$status") || wb_status_by_name(r->status))
		return 0;
	/* a real driver's own status: the scenario's backends decide (scenario_step) */
	for (int b = 0; b < WB_BK__N; b++)
		if (wb_native_by_name(b, r->status))
			return 0;
	for (size_t i = 0; i < wb_nr_statuses; i++)
		off += (size_t)snprintf(all + off, sizeof(all) - off, "%s%s", i ? ", " : "", wb_statuses[i].name);
	return perr(c, v, "unknown status \"%s\" (expected one of: %s, nexus, $status, or a status of "
		    "the scenario's backend: docs/real-drivers.md)", r->status, all);
}

#define STEP(f)	FIELD(struct step, f)
/* a key of dm-wberr's rule grammar, from its table (dm-wberr-abi.h) */
#define RULE_KEY(sfx, wire, yaml, ...) \
	{ K(#yaml, Y_RULE), STEP(fault.rule), .rule_key = WB_KEY_##sfx, .doc = "dm-wberr's " #wire "=" },

static const struct ykey step_keys[] = {
	/* every step */
	{ K("op", Y_NODE), .flags = YK_OP },
	{ K("proc", Y_NAME), STEP(proc), .flags = YK_COMMON, .doc = "name, default \"main\": the process that makes the call" },
	{ K("expect", Y_FN), .fn = v_expect, .flags = YK_COMMON, .doc = "errno, or a mapping {raw|ext4|ext2|xfs|btrfs|default: errno}" },
	{ K("why", Y_STR), STEP(why), .flags = YK_COMMON, .doc = "string: the kernel's reason when expect differs from the model" },
	{ K("on_kernel", Y_FN), .fn = v_on_kernel, .flags = YK_COMMON },
	{ K("label", Y_NAME), STEP(label), .flags = YK_COMMON, .doc = "name: the column of the errno-fidelity table" },
	{ K("records", Y_FN), .fn = v_records, .flags = YK_COMMON },
	/* the op's own: ops.h says which op takes which */
	{ K("fd", Y_NAME), STEP(fd) },
	{ K("path", Y_FN), .fn = v_path },
	{ K("flags", Y_FN), .fn = v_flags },
	{ "mode", Y_U64, STEP(mode), .max = 07777, .dflt = 0644 },
	{ K("as", Y_NAME), STEP(fd2) },
	{ K("child", Y_NAME), STEP(fd2) },
	{ "offset", Y_U64, STEP(offset), .max = 1ULL << 40 },
	{ "size", Y_U64, STEP(size), .max = 1ULL << 40 },
	{ "pattern", Y_U64, STEP(pattern), .max = 255, .dflt = 0xab },
	{ K("content", Y_FN), .fn = v_content },
	{ K("expect_content", Y_FN), .fn = v_expect_content },
	{ "value", Y_U64, STEP(value), .min = 1, .max = 3, .dflt = 3 },
	{ "ms", Y_U64, STEP(value), .max = 600000 },
	/* a fault: where wberr-run aims it, then dm-wberr's rule */
	{ K("id", Y_NAME), STEP(fault.id) },
	{ K("file", Y_FN), .fn = v_file },
	{ K("grow", Y_BOOL), STEP(fault.grow),
	  .doc = "boolean: also the free space the file will grow into (GETFSMAP when armed; ext4, xfs)" },
	{ K("ops", Y_FN), .fn = v_ops },
	{ K("status", Y_FN), .fn = v_status },
#define WBERR_ABI_KEY RULE_KEY
#include "dm-wberr-abi.h"
};
const struct ytable step_schema = TABLE("step", step_keys, 1);

/* the common keys and the op's own (ops.h's row) */
static int step_allows(const void *obj, const struct ykey *k)
{
	int req;

	return (k->flags & (YK_COMMON | YK_OP)) ||
	       key_allowed(op_table[((const struct step *)obj)->op].keys, k->name, &req);
}

static int step_refuse(struct pctx *c, yaml_node_t *k, const char *ks, const void *obj)
{
	const struct step *st = obj;
	const char *src = op_table[st->op].keys;
	char allowed[256], common[128];
	size_t o = 0;

	for (; *src && o + 1 < sizeof(allowed); src++)
		if (*src != '*')
			allowed[o++] = *src == ' ' ? ',' : *src;
	allowed[o] = 0;
	schema_list(&step_schema, NULL, NULL, YK_COMMON, common, sizeof(common));
	return perr(c, k, "unknown key '%s' for op %s (allowed: %s%s%s)", ks, op_names[st->op], allowed,
		    o ? "," : "", common);
}

/* the defaults, and the op (@default_op when the mapping has none, -1: required) */
static int step_op(struct pctx *c, yaml_node_t *n, struct step *st, int default_op)
{
	yaml_node_t *opnode = NULL;
	const char *ks = NULL;
	size_t old;

	memset(st, 0, sizeof(*st));
	schema_init(&step_schema, st);
	strcpy(st->proc, "main");
	st->line = (int)n->start_mark.line + 1;
	st->col = (int)n->start_mark.column + 1;
	for (int i = 0; i < FS__N; i++)
		st->expect.err[i] = EXPECT_UNSET;
	wb_rule_init(&st->fault.rule);
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "a step must be a mapping with an 'op' key, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		if (want_scalar(c, node(c, p->key), &ks))
			return -1;
		if (!strcmp(ks, "op"))
			opnode = node(c, p->value);
	}
	st->op = default_op;
	if (!opnode)
		return default_op < 0 ? perr(c, n, "missing key 'op'") : 0;
	old = path_push(c, ".op");
	if (get_enum(c, opnode, op_names, OP__N, &st->op))
		return -1;
	if (default_op >= 0 && st->op != default_op)
		return perr(c, opnode, "only op %s belongs here", op_names[default_op]);
	path_pop(c, old);
	return 0;
}

/* the op's required keys (starred in ops.h) */
static int step_required(struct pctx *c, yaml_node_t *n, const struct step *st, const struct walk *w)
{
	for (const char *p = op_table[st->op].keys; *p;) {
		char key[32];
		size_t l;

		while (*p == ' ')
			p++;
		l = strcspn(p, " ");
		if (*p == '*') {
			snprintf(key, sizeof(key), "%.*s", (int)l - 1, p + 1);
			if (!walked(w, key))
				return perr(c, n, "op %s needs key '%s'", op_names[st->op], key);
		}
		p += l;
	}
	return 0;
}

/* what no single key can say */
static int step_checks(struct pctx *c, yaml_node_t *n, const struct step *st)
{
	if (st->op == OP_FAULT && st->fault.file[0] && st->fault.rule.has_sectors)
		return perr(c, n, "a fault takes 'file' or 'sectors', not both");
	if (st->op == OP_FAULT && st->fault.grow && !st->fault.file[0])
		return perr(c, n, "grow follows a file: it needs 'file'");
	if (st->op == OP_BADBLOCKS && (st->path[0] == '@' || st->offset % 512 || st->size % 512 || !st->size))
		return perr(c, n, "badblocks marks whole sectors of a file: a path in the mount, offset and size multiples of 512, size > 0");
	if (st->op == OP_SYNC_FILE_RANGE && !st->flags)
		return perr(c, n, "sync_file_range needs at least one flag");
	if (st->op == OP_OPEN && !(st->oflags & (O_WRONLY | O_RDWR)) && (st->oflags & O_TRUNC))
		return perr(c, n, "O_TRUNC without O_WRONLY or O_RDWR");
	for (int i = 0; i < FS__N; i++)
		if (st->expect_content[i] != CONTENT_UNSET && !st->has_content)
			return perr(c, n, "expect_content needs content: {new: <byte>, old: <byte>}");
	for (int k = 0; k < st->non_kernel; k++)
		for (int i = 0; i < FS__N; i++)
			if (st->on_kernel[k].expect_content[i] != CONTENT_UNSET && !st->has_content)
				return perr(c, n, "on_kernel %s: expect_content needs content: {new: <byte>, old: <byte>}",
					    st->on_kernel[k].release);
	return 0;
}

/* @default_op: the op when the mapping has no 'op' key, or -1 to require one */
static int parse_step(struct pctx *c, yaml_node_t *n, struct step *st, int default_op)
{
	struct walk w = { .t = &step_schema, .obj = st, .who = "", .allowed = step_allows,
			  .refuse = step_refuse };

	if (step_op(c, n, st, default_op))
		return -1;
	if (st->op == OP_MSYNC)
		st->flags = MS_SYNC;
	if (walk(c, n, &w) || step_required(c, n, st, &w))
		return -1;
	st->has_size = walked(&w, "size") != NULL;
	return step_checks(c, n, st);
}

/* ------------------------------------------------------------------ */
/* A program                                                           */
/* ------------------------------------------------------------------ */

static int v_arm(struct pctx *c, yaml_node_t *v, void *obj)
{
	return parse_arm(c, v, obj);
}

static int v_user(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct program *pg = obj;
	char buf[32], *end;
	unsigned long uid, gid;

	if (get_str(c, v, buf, sizeof(buf)))
		return -1;
	uid = strtoul(buf, &end, 10);
	gid = uid;
	if (*end == ':')
		gid = strtoul(end + 1, &end, 10);
	if (end == buf || *end || !uid || uid > 65535 || !gid || gid > 65535)
		return perr(c, v, "user must be UID or UID:GID, non-zero (the program runs unprivileged)");
	pg->has_user = 1;
	pg->uid = (unsigned)uid;
	pg->gid = (unsigned)gid;
	return 0;
}

static int v_recover(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct program *pg = obj;

	if (v->type != YAML_SEQUENCE_NODE)
		return perr(c, v, "expected a list of: kill, clear_faults, drop_caches, remount, device_cycle");
	pg->nrecover = 0;
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		size_t old = path_push(c, "[%d]", (int)(it - v->data.sequence.items.start));

		if (pg->nrecover == PROG_MAX_LIST)
			return perr(c, node(c, *it), "at most %d recovery actions", PROG_MAX_LIST);
		if (get_enum(c, node(c, *it), recover_names, REC__N, &pg->recover[pg->nrecover++]))
			return -1;
		path_pop(c, old);
	}
	return 0;
}

static int v_needs(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct program *pg = obj;

	return get_str_list(c, v, pg->needs, PROG_MAX_LIST, &pg->nneeds);
}

static int v_env(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct program *pg = obj;

	if (v->type != YAML_MAPPING_NODE)
		return perr(c, v, "expected a mapping NAME: value, got %s", kind_name(v));
	for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
		char name[NAME_LEN], val[PATH_LEN - NAME_LEN];

		if (pg->nenv == PROG_MAX_LIST)
			return perr(c, node(c, q->key), "at most %d variables", PROG_MAX_LIST);
		if (get_name(c, node(c, q->key), name, sizeof(name)) ||
		    get_str(c, node(c, q->value), val, sizeof(val)))
			return -1;
		snprintf(pg->env[pg->nenv++], PATH_LEN, "%s=%s", name, val);
	}
	return 0;
}

static const char *const exit_names[] = { "any", "zero", "nonzero" };
static const char *const check_names[] = { NULL, "pass", "fail" };

static const struct ykey prog_expect_keys[] = {
	{ K("program", Y_ENUM), FIELD(struct program, expect_program), NAMES(exit_names) },
	{ K("check", Y_ENUM), FIELD(struct program, expect_check), NAMES(check_names), .dflt = EXIT_ZERO },
	{ K("errors", Y_ENUM), FIELD(struct program, expect_errors), .names = errors_expect_names, .nnames = ERRORS__N },
};
const struct ytable prog_expect_schema = TABLE("expect", prog_expect_keys, 1);

/* expect: {program: any|zero|nonzero, check: pass|fail, errors: seen|lost|silent} */
static int v_prog_expect(struct pctx *c, yaml_node_t *n, void *obj)
{
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected a mapping {program, check, errors}, got %s", kind_name(n));
	return walk(c, n, &(struct walk){ .t = &prog_expect_schema, .obj = obj, .who = "" });
}

#define PROG(f)	FIELD(struct program, f)
static const struct ykey program_keys[] = {
	{ K("needs", Y_FN), .fn = v_needs, .doc = "paths that must exist, else the instance is SKIPped" },
	{ K("env", Y_FN), .fn = v_env, .doc = "added to every command's environment" },
	{ K("user", Y_FN), .fn = v_user, .doc = "UID or UID:GID for run and check (setup runs as root)" },
	{ K("setup", Y_STR), PROG(setup), .doc = "sh -c, before the program" },
	{ K("run", Y_STR), PROG(run), .need = "program needs 'run' (the command, sh -c)", .doc = "the program, sh -c" },
	{ "timeout_s", Y_U64, PROG(timeout_s), .min = 1, .max = 86400, .dflt = 600,
	  .doc = "for run and for check, each" },
	{ K("arm", Y_FN), .fn = v_arm, .doc = "or: start | {after_ms: N}" },
	{ K("faults", Y_NODE), .need = "program needs 'faults' (a list of fault steps without 'op')",
	  .doc = "fault steps without 'op' (see fault above)" },
	{ K("recover", Y_FN), .fn = v_recover, .doc = "the default; also remount, device_cycle" },
	{ K("check", Y_STR), PROG(check) },
	{ K("expect", Y_FN), .fn = v_prog_expect, .doc = "the defaults are any, pass, seen" },
	{ K("why", Y_STR), PROG(why), .doc = "needed when check: fail or errors: lost|silent" },
	{ K("promise", Y_STR), PROG(promise),
	  .doc = "what the program's source promises on a failed fsync, file and function (the report card cites it)" },
};
const struct ytable program_schema = TABLE("program", program_keys, 1);

/* faults: fault steps without 'op', each aimed at a file or sectors */
static int program_faults(struct pctx *c, yaml_node_t *faults, struct program *pg)
{
	size_t old = path_push(c, ".faults");

	if (faults->type != YAML_SEQUENCE_NODE || faults->data.sequence.items.top == faults->data.sequence.items.start)
		return perr(c, faults, "expected a non-empty list of faults");
	for (yaml_node_item_t *it = faults->data.sequence.items.start; it < faults->data.sequence.items.top; it++) {
		size_t o2 = path_push(c, "[%d]", (int)(it - faults->data.sequence.items.start));
		struct step *st;

		if (pg->nfaults == PROG_MAX_FAULTS)
			return perr(c, node(c, *it), "at most %d faults", PROG_MAX_FAULTS);
		st = &pg->faults[pg->nfaults];
		if (parse_step(c, node(c, *it), st, OP_FAULT))
			return -1;
		if (!st->fault.id[0])
			snprintf(st->fault.id, sizeof(st->fault.id), "f%d", pg->nfaults + 1);
		if (!st->fault.file[0] && !st->fault.rule.has_sectors)
			return perr(c, node(c, *it), "a program's fault needs 'file' (a path, a glob or $marker) or 'sectors'");
		pg->nfaults++;
		path_pop(c, o2);
	}
	path_pop(c, old);
	return 0;
}

static int parse_program(struct pctx *c, yaml_node_t *n, struct program *pg)
{
	struct walk w = { .t = &program_schema, .obj = pg, .who = "" };

	schema_init(&program_schema, pg);
	schema_init(&prog_expect_schema, pg);
	pg->recover[pg->nrecover++] = REC_KILL;
	pg->recover[pg->nrecover++] = REC_CLEAR_FAULTS;
	pg->recover[pg->nrecover++] = REC_DROP_CACHES;
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "program must be a mapping, got %s", kind_name(n));
	if (walk(c, n, &w))
		return -1;
	if (!pg->run[0])
		return perr(c, n, "program needs 'run' (the command, sh -c)");
	if ((pg->expect_check == EXIT_NONZERO || pg->expect_errors != ERRORS_SEEN) && !pg->why[0])
		return perr(c, n, "an expected finding (check: fail, errors: lost or silent) needs 'why'");
	return program_faults(c, walked(&w, "faults"), pg);
}

/* ------------------------------------------------------------------ */
/* A scenario                                                          */
/* ------------------------------------------------------------------ */

static int v_fs(struct pctx *c, yaml_node_t *v, void *obj)
{
	return parse_fs(c, v, &((struct scenario *)obj)->fs_mask);
}

static int v_data_mode(struct pctx *c, yaml_node_t *v, void *obj)
{
	return get_data_modes(c, v, &((struct scenario *)obj)->data_modes);
}

static int v_mkfs_options(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct scenario *sc = obj;

	return parse_opts(c, v, sc->mkfs_opts, sizeof(sc->mkfs_opts), " ");
}

/* a string, a list, or a mapping fs: options */
static int v_mount_options(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct scenario *sc = obj;

	if (v->type != YAML_MAPPING_NODE)
		return parse_opts(c, v, sc->mount_opts, sizeof(sc->mount_opts), ",");
	sc->has_mount_opts_fs = 1;
	for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
		yaml_node_t *qk = node(c, q->key);
		size_t old = path_push(c, ".%s", qk->type == YAML_SCALAR_NODE ? (char *)qk->data.scalar.value : "?");
		int fs;

		if (get_enum(c, qk, fs_names, FS__N, &fs) ||
		    parse_opts(c, node(c, q->value), sc->mount_opts_fs[fs], TEXT_LEN, ","))
			return -1;
		path_pop(c, old);
	}
	return 0;
}

/* matrix: {status: all | native | [name, ...]} */
static int v_matrix_status(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct scenario *sc = obj;

	sc->matrix_status = 1;
	if (v->type == YAML_SCALAR_NODE && !strcmp((char *)v->data.scalar.value, "native")) {
		sc->matrix_native = 1;	/* each backend's own, at expansion */
		return 0;
	}
	if (v->type == YAML_SCALAR_NODE && !strcmp((char *)v->data.scalar.value, "all")) {
		for (size_t i = 0; i < wb_nr_statuses; i++)
			strcpy(sc->statuses[sc->nstatuses++], wb_statuses[i].name);
		return 0;
	}
	if (v->type != YAML_SEQUENCE_NODE)
		return perr(c, v, "expected 'all', 'native' or a list of status names, got %s", kind_name(v));
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *e = node(c, *it);
		size_t old = path_push(c, "[%d]", (int)(it - v->data.sequence.items.start));

		if (sc->nstatuses >= 24)
			return perr(c, e, "too many statuses");
		if (get_str(c, e, sc->statuses[sc->nstatuses], NAME_LEN))
			return -1;
		if (!wb_status_by_name(sc->statuses[sc->nstatuses]))
			return perr(c, e, "unknown status \"%s\"", sc->statuses[sc->nstatuses]);
		sc->nstatuses++;
		path_pop(c, old);
	}
	return 0;
}

static const struct ykey matrix_keys[] = {
	{ K("status", Y_FN), .fn = v_matrix_status,
	  .doc = "one instance per status; '$status' in faults; all: dm-wberr's; native: each backend's own "
		 "(docs/real-drivers.md), dm-wberr's on dm-wberr" },
};
const struct ytable matrix_schema = TABLE("matrix", matrix_keys, 1);

static int v_matrix(struct pctx *c, yaml_node_t *n, void *obj)
{
	struct scenario *sc = obj;

	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected a mapping {status: [...]}, got %s", kind_name(n));
	if (walk(c, n, &(struct walk){ .t = &matrix_schema, .obj = sc, .who = "" }))
		return -1;
	if (!sc->nstatuses && !sc->matrix_native)
		return perr(c, n, "matrix needs a non-empty status list");
	return 0;
}

/* one name of backend: into sc->backends */
static int one_backend(struct pctx *c, yaml_node_t *e, struct scenario *sc)
{
	const char *name = NULL;
	char all[128];
	int b;

	if (want_scalar(c, e, &name))
		return -1;
	b = wb_backend_by_name(name);
	if (b < 0) {
		wb_backend_list(all, sizeof(all), "or");
		return perr(c, e, "unknown backend \"%s\" (expected %s)", name, all);
	}
	if (sc->backends & (1u << b))
		return perr(c, e, "backend %s named twice", name);
	sc->backends |= 1u << b;
	return 0;
}

/* backend: a name or a list of them (lib/c wb_backend.c) */
static int v_backend(struct pctx *c, yaml_node_t *v, void *obj)
{
	struct scenario *sc = obj;

	sc->backends = 0;
	if (v->type != YAML_SEQUENCE_NODE)
		return one_backend(c, v, sc);
	if (v->data.sequence.items.start == v->data.sequence.items.top)
		return perr(c, v, "empty backend list");
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		size_t old = path_push(c, "[%d]", (int)(it - v->data.sequence.items.start));

		if (one_backend(c, node(c, *it), sc))
			return -1;
		path_pop(c, old);
	}
	return 0;
}

static const char *const stack_names[] = { "none", "lvm" };

#define SC(f)	FIELD(struct scenario, f)
static const struct ykey scenario_keys[] = {
	{ K("name", Y_NAME), SC(name), .need = "" },
	{ K("description", Y_STR), SC(description) },
	{ K("guarantee", Y_STR), SC(guarantee), .doc = "groups instances in the per-filesystem summary" },
	{ K("fs", Y_FN), .fn = v_fs, .need = "",
	  .doc = "all: every file system wberr knows (lib/c/wb_fs.c), raw included" },
	{ K("data_mode", Y_FN), .fn = v_data_mode,
	  .doc = "ext4 only: mount -o data=...; a list runs ext4 once in each mode (instance ids end in "
		 "[data=<mode>]), the other file systems once" },
	{ K("mkfs_options", Y_FN), .fn = v_mkfs_options, .doc = "appended to mkfs.<fs> -F/-f -q" },
	{ K("mount_options", Y_FN), .fn = v_mount_options, .doc = "joined with ','" },
	{ "size_mb", Y_U64, SC(size_mb), .min = 64, .max = 4096, .dflt = 320, .doc = "mkfs.xfs wants >= 300" },
	{ K("backend", Y_FN), .fn = v_backend,
	  .doc = "the device that produces the faults, or a list (one instance each): dm-wberr (default), "
		 "scsi_debug, nvme, thin; see 'Backends' below" },
	{ "pool_mb", Y_U64, SC(pool_mb), .min = 16, .max = 4096,
	  .doc = "thin: the pool's data size (the thin volume is size_mb)" },
	{ K("stack", Y_ENUM), SC(lvm), NAMES(stack_names),
	  .doc = "lvm: the filesystem sits on an LV made with lvm2 over the wberr device" },
	{ K("dax", Y_BOOL), SC(dax),
	  .doc = "ext4/xfs only: the wberr device sits on the guest's persistent memory (fsdax, run-guest "
		 "--pmem) and the fs is mounted -o dax=always (ext4 made with 4k blocks); every regular file "
		 "an open opens must be DAX (STATX_ATTR_DAX); without a pmem the instance is skipped.  "
		 "See 'DAX' below" },
	{ K("oracle", Y_BOOL), SC(oracle), .dflt = 1 },
	{ K("fidelity", Y_BOOL), SC(fidelity), .doc = "labelled steps fill the errno-fidelity table" },
	{ "cost", Y_U64, SC(cost_s), .min = 1, .max = 3600,
	  .doc = "about how many seconds one instance takes under TCG, measured (docs/measurements.md): "
		 "wberr-run --shard cuts the selection into runs of about equal cost; give it to one that "
		 "takes over 1 s (0: not given, the instance weighs 0.2 s, about what one of the library's "
		 "takes)" },
	{ K("matrix", Y_FN), .fn = v_matrix },
	{ K("steps", Y_NODE) },
	{ K("program", Y_NODE),
	  .doc = "instead of steps: an unmodified program under a fault plan ('Programs' below)" },
};
const struct ytable scenario_schema = TABLE("scenario", scenario_keys, 1);

static yaml_node_t *at_key(struct pctx *c, const struct walk *w, const char *key);

/* a matrix of dm-wberr's statuses on a real driver: each must be one it has */
static int matrix_on_backends(struct pctx *c, const struct scenario *sc, const struct walk *w)
{
	char why[512];
	struct wb_rule r;

	for (int b = 0; b < WB_BK__N; b++) {
		if (!(sc->backends & (1u << b)) || !wb_backends[b].natives || wb_backends[b].no_faults)
			continue;
		for (int i = 0; i < sc->nstatuses && !sc->matrix_native; i++) {
			wb_rule_init(&r);
			snprintf(r.status, sizeof(r.status), "%s", sc->statuses[i]);
			if (wb_backend_check_rule(b, &r, 0, why, sizeof(why)))
				return perr(c, at_key(c, w, "matrix"), "backend %s: %s (matrix status: native runs a backend's own)",
					    wb_backends[b].name, why);
		}
	}
	return 0;
}

/* the node of key @key of the scenario, its name pushed onto the key path */
static yaml_node_t *at_key(struct pctx *c, const struct walk *w, const char *key)
{
	path_push(c, "%s%s", c->path[0] ? "." : "", key);
	return walked(w, key);
}

/* the backends against the rest of the scenario (lib/c wb_backend.c) */
static int backend_checks(struct pctx *c, const struct scenario *sc, const struct walk *w)
{
	unsigned real = sc->backends & ~(1u << WB_BK_DM_WBERR);
	int thin = !!(sc->backends & (1u << WB_BK_THIN));

	if (real && sc->lvm)
		return perr(c, at_key(c, w, "backend"), "stack: lvm stacks on dm-wberr only");
	if (real && sc->dax)
		return perr(c, at_key(c, w, "backend"), "dax runs on dm-wberr over the persistent memory only");
	if (real && walked(w, "program"))
		return perr(c, at_key(c, w, "backend"),
			    "program mode arms dm-wberr rules aimed at files: backend dm-wberr only");
	if (thin && !sc->pool_mb)
		return perr(c, at_key(c, w, "backend"), "backend thin needs pool_mb: the pool's data size");
	if (!thin && walked(w, "pool_mb"))
		return perr(c, at_key(c, w, "pool_mb"), "pool_mb is backend thin's");
	if (thin && sc->pool_mb >= sc->size_mb)
		return perr(c, at_key(c, w, "pool_mb"),
			    "a pool of %u MiB under a volume of %u MiB (size_mb) never runs out of space",
			    sc->pool_mb, sc->size_mb);
	return matrix_on_backends(c, sc, w);
}

/* data_mode and dax against the file systems (lib/c's table) */
static int scenario_checks(struct pctx *c, const struct scenario *sc, const struct walk *w)
{
	yaml_node_t *dmnode = walked(w, "data_mode"), *daxnode = walked(w, "dax");
	char which[64];
	size_t old;

	if (dmnode && sc->data_modes != 1u << DM_DEFAULT && !(sc->fs_mask & fs_mask(has_data_modes))) {
		wb_fs_list(which, sizeof(which), has_data_modes, "and");
		path_push(c, "%sdata_mode", c->path[0] ? "." : "");
		return perr(c, dmnode, "data_mode applies to %s only", which);
	}
	if (!sc->dax)
		return 0;
	old = path_push(c, "%sdax", c->path[0] ? "." : "");
	if (sc->fs_mask & ~fs_mask(has_dax)) {
		wb_fs_list(which, sizeof(which), has_dax, "and");
		return perr(c, daxnode, "dax runs on %s (btrfs has no DAX; raw is the block device, not a mapping of pmem)",
			    which);
	}
	if (sc->lvm)
		return perr(c, daxnode, "dax does not stack on lvm (the scenario's device is the pmem under dm-wberr)");
	if (sc->data_modes != 1u << DM_DEFAULT)
		return perr(c, daxnode, "dax takes no data_mode (ext4 refuses dax with data=journal)");
	if (walked(w, "program"))
		return perr(c, daxnode, "dax applies to steps, not to a program");
	path_pop(c, old);
	return 0;
}

static int scenario_program(struct pctx *c, yaml_node_t *prog, struct scenario *sc)
{
	size_t old = path_push(c, "%sprogram", c->path[0] ? "." : "");
	char which[64];

	if (sc->fs_mask & ~fs_mask(has_mkfs)) {
		wb_fs_list(which, sizeof(which), no_mkfs, "or");
		return perr(c, prog, "a program needs a file system, not %s", which);
	}
	sc->prog = calloc(1, sizeof(*sc->prog));
	if (!sc->prog)
		return perr(c, prog, "out of memory");
	if (parse_program(c, prog, sc->prog))
		return -1;
	for (int i = 0; i < sc->prog->nfaults; i++)
		if (!strcmp(sc->prog->faults[i].fault.rule.status, "$status") && !sc->matrix_status)
			return perr(c, prog, "status $status needs a 'matrix: {status: ...}' in the scenario");
	path_pop(c, old);
	return 0;
}

/* one step of the list, and what it needs of the scenario */
static int scenario_step(struct pctx *c, yaml_node_t *n, struct scenario *sc, struct step *st)
{
	if (parse_step(c, n, st, -1))
		return -1;
	sc->nsteps++;
	if (st->op == OP_FAULT && !strcmp(st->fault.rule.status, "$status") && !sc->matrix_status)
		return perr(c, n, "status $status needs a 'matrix: {status: ...}' in the scenario");
	if (st->op == OP_BADBLOCKS && !sc->dax)
		return perr(c, n, "badblocks needs 'dax: true' (they are the persistent memory's own list)");
	if (st->op == OP_THIN_EXTEND && sc->backends != 1u << WB_BK_THIN)
		return perr(c, n, "thin_extend needs 'backend: thin' alone (it grows the pool under the volume)");
	if (st->op == OP_THIN_EXTEND && (st->size % (1 << 20) || st->size >> 20 <= sc->pool_mb))
		return perr(c, n, "thin_extend grows the pool: size a whole number of MiB above pool_mb (%u MiB)",
			    sc->pool_mb);
	for (int b = 0; st->op == OP_FAULT && b < WB_BK__N; b++) {
		char why[512];

		if ((sc->backends & (1u << b)) &&
		    wb_backend_check_rule(b, &st->fault.rule, st->fault.file[0] != 0, why, sizeof(why)))
			return perr(c, n, "backend %s: %s", wb_backends[b].name, why);
	}
	for (int f = 0; f < FS__N; f++)
		if (st->expect.err[f] == -2 && !sc->matrix_status)
			return perr(c, n, "expect $errno needs a 'matrix: {status: ...}' in the scenario");
	return 0;
}

static int scenario_steps(struct pctx *c, yaml_node_t *steps, struct scenario *sc)
{
	size_t old = path_push(c, "%ssteps", c->path[0] ? "." : "");
	int nsteps;

	if (steps->type != YAML_SEQUENCE_NODE)
		return perr(c, steps, "expected a list of steps, got %s", kind_name(steps));
	nsteps = (int)(steps->data.sequence.items.top - steps->data.sequence.items.start);
	if (!nsteps)
		return perr(c, steps, "no steps");
	sc->steps = calloc((size_t)nsteps, sizeof(*sc->steps));
	if (!sc->steps)
		return perr(c, steps, "out of memory");
	for (int i = 0; i < nsteps; i++) {
		size_t o2 = path_push(c, "[%d]", i);

		if (scenario_step(c, node(c, steps->data.sequence.items.start[i]), sc, &sc->steps[i]))
			return -1;
		path_pop(c, o2);
	}
	path_pop(c, old);
	return 0;
}

static int parse_scenario(struct pctx *c, yaml_node_t *n, struct scenario *sc)
{
	struct walk w = { .t = &scenario_schema, .obj = sc, .who = "" };
	yaml_node_t *steps, *prog;
	const char *slash = strrchr(c->file, '/');

	memset(sc, 0, sizeof(*sc));
	schema_init(&scenario_schema, sc);
	sc->data_modes = 1u << DM_DEFAULT;
	sc->backends = 1u << WB_BK_DM_WBERR;
	snprintf(sc->file, sizeof(sc->file), "%s", c->file);
	sc->line = (int)n->start_mark.line + 1;
	snprintf(sc->dir, sizeof(sc->dir), "%.*s", slash ? (int)(slash - c->file) : 1, slash ? c->file : ".");
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "a scenario must be a mapping, got %s", kind_name(n));
	if (walk(c, n, &w) || scenario_checks(c, sc, &w) || backend_checks(c, sc, &w))
		return -1;
	steps = walked(&w, "steps");
	prog = walked(&w, "program");
	if (prog && steps) {
		path_push(c, "%sprogram", c->path[0] ? "." : "");
		return perr(c, prog, "a scenario has 'steps' or 'program', not both");
	}
	if (prog)
		return scenario_program(c, prog, sc);
	if (!steps)
		return perr(c, n, "missing key 'steps' (or 'program')");
	return scenario_steps(c, steps, sc);
}

static int set_append(struct scenario_set *set, struct scenario *sc)
{
	struct scenario *v = realloc(set->v, (size_t)(set->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	set->v = v;
	set->v[set->n++] = *sc;
	return 0;
}

int parse_buffer(const char *name, const char *buf, size_t len,
		 struct scenario_set *set, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct pctx c = { .file = name, .doc = &doc, .err = err, .errlen = errlen };
	yaml_node_t *root;
	int ret = 0, base = set->n;

	err[0] = 0;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: cannot initialise libyaml", name);
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s:%zu:%zu: YAML syntax: %s%s%s", name,
			 parser.problem_mark.line + 1, parser.problem_mark.column + 1,
			 parser.problem ? parser.problem : "error",
			 parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		snprintf(err, errlen, "%s:1:1: empty file", name);
		ret = -1;
	} else if (root->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = root->data.sequence.items.start; it < root->data.sequence.items.top; it++) {
			struct scenario sc;

			c.path[0] = 0;
			path_push(&c, "[%d]", (int)(it - root->data.sequence.items.start));
			if (parse_scenario(&c, node(&c, *it), &sc) || set_append(set, &sc)) {
				free(sc.steps);
				free(sc.prog);
				ret = -1;
				break;
			}
		}
	} else {
		struct scenario sc;

		if (parse_scenario(&c, root, &sc) || set_append(set, &sc)) {
			free(sc.steps);
			free(sc.prog);
			ret = -1;
		}
	}
	/* names must be unique across everything loaded so far */
	for (int i = base; !ret && i < set->n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(set->v[i].name, set->v[j].name)) {
				snprintf(err, errlen, "%s:%d:1: name: duplicate scenario name \"%s\" (first in %s:%d)",
					 name, set->v[i].line, set->v[i].name, set->v[j].file, set->v[j].line);
				ret = -1;
			}
	if (ret) {
		for (int i = base; i < set->n; i++) {
			free(set->v[i].steps);
			free(set->v[i].prog);
		}
		set->n = base;
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return ret;
}

int parse_file(const char *path, struct scenario_set *set, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	ret = parse_buffer(path, buf ? buf : "", len, set, err, errlen);
	free(buf);
	return ret;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int parse_path(const char *path, struct scenario_set *set, char *err, size_t errlen)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	int n = 0, ret = 0;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return parse_file(path, set, err, errlen);
	d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char full[PATH_LEN * 2];
		struct stat s2;

		if (de->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, de->d_name);
		if (stat(full, &s2))
			continue;
		if (!S_ISDIR(s2.st_mode) && !(l > 5 && !strcmp(de->d_name + l - 5, ".yaml")))
			continue;
		names = realloc(names, (size_t)(n + 1) * sizeof(*names));
		names[n++] = strdup(full);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), cmpstr);
	for (int i = 0; i < n; i++) {
		if (!ret && parse_path(names[i], set, err, errlen))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

void scenario_set_free(struct scenario_set *set)
{
	for (int i = 0; i < set->n; i++) {
		free(set->v[i].steps);
		free(set->v[i].prog);
	}
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

/* the statuses an instance of @sc on backend @bk may have: its matrix's,
 * or with status: native the backend's own (but those that run alone);
 * their number, @names set */
static int backend_statuses(const struct scenario *sc, int bk, const char **names, int max)
{
	int n = 0;

	if (!sc->matrix_status)
		return 0;
	if (!sc->matrix_native) {
		for (int i = 0; i < sc->nstatuses && n < max; i++)
			names[n++] = sc->statuses[i];
		return n;
	}
	if (!wb_backends[bk].natives) {
		for (size_t i = 0; i < wb_nr_statuses && n < max; i++)
			names[n++] = wb_statuses[i].name;
		return n;
	}
	for (size_t i = 0; i < wb_nr_natives && n < max; i++)
		if (wb_natives[i].backend == bk && !wb_natives[i].alone)
			names[n++] = wb_natives[i].name;
	return n;
}

/* one instance: its id "<fs>/<name>[<status>][data=<mode>]@<backend>" */
static int add_instance(struct instance **v, int *n, int *cap, const struct scenario *sc, int bk, int fs,
			int dm, const char *status)
{
	struct instance *in;
	size_t o;

	if (*n == *cap) {
		struct instance *nv = realloc(*v, (size_t)(*cap ? *cap * 2 : 64) * sizeof(**v));

		if (!nv)
			return -1;
		*v = nv;
		*cap = *cap ? *cap * 2 : 64;
	}
	in = &(*v)[(*n)++];
	in->sc = sc;
	in->backend = bk;
	in->fs = fs;
	in->data_mode = wb_fs[fs].data_modes ? dm : DM_DEFAULT;
	in->status = status;
	o = (size_t)snprintf(in->id, sizeof(in->id), "%s/%s", fs_names[fs], sc->name);
	if (status)
		o += (size_t)snprintf(in->id + o, sizeof(in->id) - o, "[%s]", status);
	/* a scenario of several modes names the mode of each */
	if (wb_fs[fs].data_modes && (sc->data_modes & (sc->data_modes - 1)))
		o += (size_t)snprintf(in->id + o, sizeof(in->id) - o, "[data=%s]", data_mode_names[dm]);
	if (bk != WB_BK_DM_WBERR)
		snprintf(in->id + o, sizeof(in->id) - o, "@%s", wb_backends[bk].name);
	return 0;
}

int expand_instances(const struct scenario_set *set, struct instance **out)
{
	int n = 0, cap = 0;
	struct instance *v = NULL;
	const char *names[64];

	for (int i = 0; i < set->n; i++) {
		const struct scenario *sc = &set->v[i];

		for (int bk = 0; bk < WB_BK__N; bk++) {
			int ns = backend_statuses(sc, bk, names, 64);

			if (!(sc->backends & (1u << bk)))
				continue;
			for (int fs = 0; fs < FS__N; fs++) {
				if (!(sc->fs_mask & (1u << fs)))
					continue;
				for (int dm = 0; dm < 4; dm++) {
					/* a fs without data modes runs once, in its only mode */
					if (wb_fs[fs].data_modes ? !(sc->data_modes & (1u << dm)) : dm != DM_DEFAULT)
						continue;
					for (int s = 0; s < (sc->matrix_status ? ns : 1); s++)
						if (add_instance(&v, &n, &cap, sc, bk, fs, dm, sc->matrix_status ? names[s] : NULL))
							break;
				}
			}
		}
	}
	*out = v;
	return n;
}
