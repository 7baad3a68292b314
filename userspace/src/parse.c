// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario parser.  libyaml builds a document; we walk it with a key
 * path ("steps[3].flags[1]") so every refusal names file:line:column and
 * the exact key.  Nothing unknown is ignored.
 */
#include "parse.h"
#include "wb_names.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

const char *const fs_names[FS__N] = { "raw", "ext4", "ext2", "xfs", "btrfs" };
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

	if (!*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end)
		return -1;
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
	char all[256] = "";
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
			if (fs < 0)
				return perr(c, k, "unknown filesystem \"%s\" (expected raw, ext4, ext2, xfs, btrfs or default)", ks);
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
static int parse_action(struct pctx *c, yaml_node_t *v, struct fault_spec *f)
{
	const char *s = NULL;
	char then[8] = "";
	unsigned ms;
	int n = 0;

	if (want_scalar(c, v, &s))
		return -1;
	f->delay_ms = 0;
	if (!strcmp(s, "fail")) {
		f->action = ACT_FAIL;
		return 0;
	}
	if (!strcmp(s, "drop")) {
		f->action = ACT_DROP;
		return 0;
	}
	if (sscanf(s, "delay:%u%n", &ms, &n) == 1 && ms >= 1 && ms <= WBERR_ABI_DELAY_MAX_MS &&
	    (!s[n] || (s[n] == ':' && sscanf(s + n + 1, "%7s", then) == 1 && strlen(s + n + 1) < sizeof(then)))) {
		f->delay_ms = ms;
		if (!then[0] || !strcmp(then, "fail"))
			f->action = ACT_FAIL;
		else if (!strcmp(then, "drop"))
			f->action = ACT_DROP;
		else if (!strcmp(then, "pass"))
			f->action = ACT_PASS;
		else
			n = -1;
		if (n >= 0)
			return 0;
	}
	return perr(c, v, "unknown action \"%s\" (expected fail, drop or delay:<ms>[:fail|:drop|:pass], "
		    "ms 1..%u)", s, WBERR_ABI_DELAY_MAX_MS);
}

/* bio_flags: a flag or a list, each a dm-wberr flag name, '!' to exclude */
static int parse_bio_flags(struct pctx *c, yaml_node_t *v, struct fault_spec *f)
{
	yaml_node_item_t one = 0, *it, *end;
	unsigned seen = 0;
	size_t off = 0;

	if (v->type == YAML_SEQUENCE_NODE) {
		it = v->data.sequence.items.start;
		end = v->data.sequence.items.top;
		if (it == end)
			return perr(c, v, "an empty list of bio flags");
	} else {
		it = &one;
		end = it + 1;
	}
	f->bio_flags[0] = 0;
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
		if (seen & (1u << i))
			return perr(c, e, "bio flag \"%s\" given twice", name);
		seen |= 1u << i;
		off += (size_t)snprintf(f->bio_flags + off, sizeof(f->bio_flags) - off, "%s%s",
					off ? "," : "", s);
	}
	return 0;
}

/* content: {new: <byte>, old: <byte>}, both required, different */
static int parse_content(struct pctx *c, yaml_node_t *n, struct step *st)
{
	int have = 0;

	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected {new: <byte>, old: <byte>}, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *val = node(c, p->value);
		const char *ks = NULL;
		uint64_t u;
		size_t old;

		if (want_scalar(c, k, &ks))
			return -1;
		if (strcmp(ks, "new") && strcmp(ks, "old"))
			return perr(c, k, "unknown key '%s' in content (expected new and old)", ks);
		old = path_push(c, ".%s", ks);
		if (get_u64(c, val, 255, &u))
			return -1;
		path_pop(c, old);
		if (ks[0] == 'n')
			st->content_new = (unsigned)u;
		else
			st->content_old = (unsigned)u;
		have |= ks[0] == 'n' ? 1 : 2;
	}
	if (have != 3)
		return perr(c, n, "content needs both new and old");
	if (st->content_new == st->content_old)
		return perr(c, n, "content: new and old are the same byte, a read could not tell them apart");
	st->has_content = 1;
	return 0;
}

static int content_value(struct pctx *c, yaml_node_t *n, int *v)
{
	if (get_enum(c, n, content_names + 1, CONTENT__N - 1, v))
		return -1;
	(*v)++;		/* content_names[0] is "-", no expectation */
	return 0;
}

/* expect_content: new|old|zero|mixed, or a mapping fs: kind with default */
static int parse_expect_content(struct pctx *c, yaml_node_t *n, struct step *st)
{
	return parse_per_fs(c, n, st->expect_content, CONTENT_UNSET, content_value,
			    "new, old, zero, mixed", "kind");
}

/*
 * on_kernel: {"M.m": {expect: ..., expect_content: ..., why: "..."}, ...}:
 * what the step expects on that kernel instead, with the reason required;
 * the key "patched" names a kernel that carries kernel/patches
 */
static int parse_on_kernel(struct pctx *c, yaml_node_t *n, struct step *st)
{
	if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.top == n->data.mapping.pairs.start)
		return perr(c, n, "on_kernel needs a mapping of releases (\"6.1\" or \"patched\": {expect: ..., why: ...})");
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
		struct kernel_expect *ke;
		const char *rel = NULL;
		int maj, min, used = 0, have_why = 0;
		size_t old;

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
		old = path_push(c, ".%s", rel);
		if (v->type != YAML_MAPPING_NODE)
			return perr(c, v, "on_kernel %s: expected a mapping {expect, expect_content, why}", rel);
		for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
			yaml_node_t *qk = node(c, q->key), *qv = node(c, q->value);
			const char *ks = NULL;
			int rc;

			if (want_scalar(c, qk, &ks))
				return -1;
			if (!strcmp(ks, "expect")) {
				rc = parse_expect(c, qv, &ke->expect);
			} else if (!strcmp(ks, "expect_content")) {
				rc = parse_per_fs(c, qv, ke->expect_content, CONTENT_UNSET, content_value,
						  "new, old, zero, mixed", "kind");
			} else if (!strcmp(ks, "why")) {
				rc = get_str(c, qv, ke->why, sizeof(ke->why));
				have_why = !rc && ke->why[0];
			} else {
				rc = perr(c, qk, "on_kernel %s: unknown key '%s' (allowed: expect, expect_content, why)",
					  rel, ks);
			}
			if (rc)
				return -1;
		}
		if (!have_why)
			return perr(c, v, "on_kernel %s needs 'why': the kernel's reason, from its source", rel);
		if (!ke->expect.set) {
			int any = 0;

			for (int f = 0; f < FS__N; f++)
				any |= ke->expect_content[f] != CONTENT_UNSET;
			if (!any)
				return perr(c, v, "on_kernel %s changes nothing: give expect or expect_content", rel);
		}
		path_pop(c, old);
	}
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

static int parse_sectors(struct pctx *c, yaml_node_t *n, struct fault_spec *f)
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
	f->has_sectors = 1;
	f->first = first;
	f->last = last;
	return 0;
}

static int parse_step_key(struct pctx *c, struct step *st, const char *k, yaml_node_t *v)
{
	uint64_t u;
	int e;

	if (!strcmp(k, "proc"))
		return get_name(c, v, st->proc, sizeof(st->proc));
	if (!strcmp(k, "fd"))
		return get_name(c, v, st->fd, sizeof(st->fd));
	if (!strcmp(k, "as") || !strcmp(k, "child"))
		return get_name(c, v, st->fd2, sizeof(st->fd2));
	if (!strcmp(k, "id"))
		return get_name(c, v, st->fault.id, sizeof(st->fault.id));
	if (!strcmp(k, "label"))
		return get_name(c, v, st->label, sizeof(st->label));
	if (!strcmp(k, "why"))
		return get_str(c, v, st->why, sizeof(st->why));
	if (!strcmp(k, "expect"))
		return parse_expect(c, v, &st->expect);
	if (!strcmp(k, "content"))
		return parse_content(c, v, st);
	if (!strcmp(k, "expect_content"))
		return parse_expect_content(c, v, st);
	if (!strcmp(k, "on_kernel"))
		return parse_on_kernel(c, v, st);
	if (!strcmp(k, "records")) {
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
	if (!strcmp(k, "path")) {
		if (get_str(c, v, st->path, sizeof(st->path)))
			return -1;
		if (!st->path[0] || (st->path[0] == '/' ) || strstr(st->path, ".."))
			return perr(c, v, "path must be relative to the mount point without '..' (or @dev for the device)");
		return 0;
	}
	if (!strcmp(k, "file")) {
		if (get_str(c, v, st->fault.file, sizeof(st->fault.file)))
			return -1;
		if (!st->fault.file[0] || st->fault.file[0] == '/' || st->fault.file[0] == '@')
			return perr(c, v, "file must be a path relative to the mount point");
		return 0;
	}
	if (!strcmp(k, "flags") && op_table[st->op].flag_names)
		return get_flags(c, v, op_table[st->op].flag_names,
				 (int *)((char *)st + op_table[st->op].flags_at));
	if (!strcmp(k, "mode")) {
		if (get_u64(c, v, 07777, &u))
			return -1;
		st->mode = (unsigned)u;
		return 0;
	}
	if (!strcmp(k, "offset") || !strcmp(k, "size")) {
		if (get_u64(c, v, 1ULL << 40, &u))
			return -1;
		if (k[0] == 'o') {
			st->offset = (int64_t)u;
		} else {
			st->size = (int64_t)u;
			st->has_size = 1;
		}
		return 0;
	}
	if (!strcmp(k, "pattern")) {
		if (get_u64(c, v, 255, &u))
			return -1;
		st->pattern = (unsigned)u;
		return 0;
	}
	if (!strcmp(k, "value") || !strcmp(k, "ms")) {
		if (get_u64(c, v, k[0] == 'v' ? 3 : 600000, &u))
			return -1;
		if (k[0] == 'v' && u == 0)
			return perr(c, v, "drop_caches value must be 1, 2 or 3");
		st->value = (unsigned)u;
		return 0;
	}
	if (!strcmp(k, "ops"))
		return get_flags(c, v, wb_op_names, &e) ? -1 : (st->fault.ops = (unsigned)e, 0);
	if (!strcmp(k, "status")) {
		if (get_str(c, v, st->fault.status, sizeof(st->fault.status)))
			return -1;
		if (strcmp(st->fault.status, "$status") && !wb_status_by_name(st->fault.status)) {
			char all[512];
			size_t off = 0;

			for (size_t i = 0; i < wb_nr_statuses; i++)
				off += (size_t)snprintf(all + off, sizeof(all) - off, "%s%s", i ? ", " : "", wb_statuses[i].name);
			return perr(c, v, "unknown status \"%s\" (expected one of: %s, nexus, $status)",
				    st->fault.status, all);
		}
		return 0;
	}
	if (!strcmp(k, "sectors"))
		return parse_sectors(c, v, &st->fault);
	if (!strcmp(k, "skip"))
		return get_u64(c, v, UINT32_MAX, &st->fault.skip);
	if (!strcmp(k, "count"))
		return get_u64(c, v, UINT32_MAX, &st->fault.count);
	if (!strcmp(k, "every")) {
		if (get_u64(c, v, UINT32_MAX, &st->fault.every))
			return -1;
		return st->fault.every ? 0 : perr(c, v, "every must be >= 1");
	}
	if (!strcmp(k, "prob")) {
		if (get_u64(c, v, 1000000, &u))
			return -1;
		if (!u)
			return perr(c, v, "prob must be 1..1000000 (ppm)");
		st->fault.prob = (uint32_t)u;
		return 0;
	}
	if (!strcmp(k, "action"))
		return parse_action(c, v, &st->fault);
	if (!strcmp(k, "bio_flags"))
		return parse_bio_flags(c, v, &st->fault);
	if (!strcmp(k, "split"))
		return get_bool(c, v, &st->fault.split);
	return perr(c, v, "internal: unhandled key");
}

/* @default_op: the op when the mapping has no 'op' key, or -1 to require one */
static int parse_step(struct pctx *c, yaml_node_t *n, struct step *st, int default_op)
{
	yaml_node_t *opnode = NULL;
	char seen[24][NAME_LEN];
	int nseen = 0, req;
	const char *ks = NULL;

	memset(st, 0, sizeof(*st));
	strcpy(st->proc, "main");
	st->line = (int)n->start_mark.line + 1;
	st->col = (int)n->start_mark.column + 1;
	st->mode = 0644;
	st->pattern = 0xab;
	st->value = 3;
	for (int i = 0; i < FS__N; i++)
		st->expect.err[i] = EXPECT_UNSET;
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "a step must be a mapping with an 'op' key, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key);

		if (want_scalar(c, k, &ks))
			return -1;
		if (!strcmp(ks, "op"))
			opnode = node(c, p->value);
	}
	if (!opnode && default_op < 0)
		return perr(c, n, "missing key 'op'");
	if (opnode) {
		size_t old = path_push(c, ".op");

		if (get_enum(c, opnode, op_names, OP__N, &st->op))
			return -1;
		if (default_op >= 0 && st->op != default_op)
			return perr(c, opnode, "only op %s belongs here", op_names[default_op]);
		path_pop(c, old);
	} else {
		st->op = default_op;
	}
	if (st->op == OP_MSYNC)
		st->flags = MS_SYNC;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
		size_t old;

		ks = (const char *)k->data.scalar.value;
		old = path_push(c, ".%s", ks);
		for (int i = 0; i < nseen; i++)
			if (!strcmp(seen[i], ks))
				return perr(c, k, "duplicate key");
		if (nseen < 24)
			snprintf(seen[nseen++], NAME_LEN, "%s", ks);
		if (!strcmp(ks, "op")) {
			path_pop(c, old);
			continue;
		}
		if (strcmp(ks, "proc") && strcmp(ks, "expect") && strcmp(ks, "why") && strcmp(ks, "on_kernel") &&
		    strcmp(ks, "label") && strcmp(ks, "records") && !key_allowed(op_table[st->op].keys, ks, &req)) {
			char allowed[256];
			const char *src = op_table[st->op].keys;
			size_t o = 0;

			for (; *src && o + 1 < sizeof(allowed); src++)
				if (*src != '*')
					allowed[o++] = *src == ' ' ? ',' : *src;
			allowed[o] = 0;
			return perr(c, k, "unknown key '%s' for op %s (allowed: %s%sproc, expect, why, on_kernel, label, records)",
				    ks, op_names[st->op], allowed, o ? "," : "");
		}
		if (parse_step_key(c, st, ks, v))
			return -1;
		path_pop(c, old);
	}
	/* required keys */
	for (const char *p = op_table[st->op].keys; *p;) {
		size_t l;
		int found = 0;

		while (*p == ' ')
			p++;
		if (*p != '*') {
			p += strcspn(p, " ");
			continue;
		}
		p++;
		l = strcspn(p, " ");
		for (int i = 0; i < nseen; i++)
			if (strlen(seen[i]) == l && !strncmp(seen[i], p, l))
				found = 1;
		if (!found)
			return perr(c, n, "op %s needs key '%.*s'", op_names[st->op], (int)l, p);
		p += l;
	}
	if (st->op == OP_FAULT && st->fault.file[0] && st->fault.has_sectors)
		return perr(c, n, "a fault takes 'file' or 'sectors', not both");
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

static int parse_fs(struct pctx *c, yaml_node_t *n, unsigned *mask)
{
	int fs;

	*mask = 0;
	if (n->type == YAML_SCALAR_NODE) {
		if (get_enum(c, n, fs_names, FS__N, &fs))
			return -1;
		*mask = 1u << fs;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return perr(c, n, "expected a filesystem name or a list of them, got %s", kind_name(n));
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

static int parse_matrix(struct pctx *c, yaml_node_t *n, struct scenario *sc)
{
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected a mapping {status: [...]}, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
		const char *ks = NULL;
		size_t old;

		if (want_scalar(c, k, &ks))
			return -1;
		old = path_push(c, ".%s", ks);
		if (strcmp(ks, "status"))
			return perr(c, k, "unknown key '%s' (allowed: status)", ks);
		sc->matrix_status = 1;
		if (v->type == YAML_SCALAR_NODE && !strcmp((char *)v->data.scalar.value, "all")) {
			for (size_t i = 0; i < wb_nr_statuses; i++)
				strcpy(sc->statuses[sc->nstatuses++], wb_statuses[i].name);
		} else if (v->type == YAML_SEQUENCE_NODE) {
			for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
				yaml_node_t *e = node(c, *it);
				size_t o2 = path_push(c, "[%d]", (int)(it - v->data.sequence.items.start));

				if (sc->nstatuses >= 24)
					return perr(c, e, "too many statuses");
				if (get_str(c, e, sc->statuses[sc->nstatuses], NAME_LEN))
					return -1;
				if (!wb_status_by_name(sc->statuses[sc->nstatuses]))
					return perr(c, e, "unknown status \"%s\"", sc->statuses[sc->nstatuses]);
				sc->nstatuses++;
				path_pop(c, o2);
			}
		} else {
			return perr(c, v, "expected 'all' or a list of status names, got %s", kind_name(v));
		}
		path_pop(c, old);
	}
	if (!sc->nstatuses)
		return perr(c, n, "matrix needs a non-empty status list");
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

/* expect: {program: any|zero|nonzero, check: pass|fail, errors: seen|lost|silent} */
static int parse_prog_expect(struct pctx *c, yaml_node_t *n, struct program *pg)
{
	static const char *const exits[] = { "any", "zero", "nonzero" };
	static const char *const checks[] = { NULL, "pass", "fail" };

	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "expected a mapping {program, check, errors}, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
		const char *ks = NULL;
		size_t old;
		int rc;

		if (want_scalar(c, k, &ks))
			return -1;
		old = path_push(c, ".%s", ks);
		if (!strcmp(ks, "program"))
			rc = get_enum(c, v, exits, 3, &pg->expect_program);
		else if (!strcmp(ks, "check"))
			rc = get_enum(c, v, checks, 3, &pg->expect_check);
		else if (!strcmp(ks, "errors"))
			rc = get_enum(c, v, errors_expect_names, ERRORS__N, &pg->expect_errors);
		else
			rc = perr(c, k, "unknown key '%s' (allowed: program, check, errors)", ks);
		if (rc)
			return -1;
		path_pop(c, old);
	}
	return 0;
}

static int parse_program(struct pctx *c, yaml_node_t *n, struct program *pg)
{
	int have_run = 0;
	yaml_node_t *faults = NULL;

	pg->timeout_s = 600;
	pg->expect_check = EXIT_ZERO;
	pg->recover[pg->nrecover++] = REC_KILL;
	pg->recover[pg->nrecover++] = REC_CLEAR_FAULTS;
	pg->recover[pg->nrecover++] = REC_DROP_CACHES;
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "program must be a mapping, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
		const char *ks = NULL;
		size_t old;
		uint64_t u;
		int rc = 0;

		if (want_scalar(c, k, &ks))
			return -1;
		old = path_push(c, ".%s", ks);
		if (!strcmp(ks, "setup")) {
			rc = get_str(c, v, pg->setup, sizeof(pg->setup));
		} else if (!strcmp(ks, "run")) {
			rc = get_str(c, v, pg->run, sizeof(pg->run));
			have_run = 1;
		} else if (!strcmp(ks, "check")) {
			rc = get_str(c, v, pg->check, sizeof(pg->check));
		} else if (!strcmp(ks, "user")) {
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
		} else if (!strcmp(ks, "timeout_s")) {
			rc = get_u64(c, v, 86400, &u);
			pg->timeout_s = (unsigned)u;
			if (!rc && !u)
				rc = perr(c, v, "timeout_s must be at least 1");
		} else if (!strcmp(ks, "arm")) {
			rc = parse_arm(c, v, pg);
		} else if (!strcmp(ks, "faults")) {
			faults = v;
		} else if (!strcmp(ks, "recover")) {
			if (v->type != YAML_SEQUENCE_NODE)
				return perr(c, v, "expected a list of: kill, clear_faults, drop_caches, remount, device_cycle");
			pg->nrecover = 0;
			for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
				size_t o2 = path_push(c, "[%d]", (int)(it - v->data.sequence.items.start));

				if (pg->nrecover == PROG_MAX_LIST)
					return perr(c, node(c, *it), "at most %d recovery actions", PROG_MAX_LIST);
				if (get_enum(c, node(c, *it), recover_names, REC__N, &pg->recover[pg->nrecover++]))
					return -1;
				path_pop(c, o2);
			}
		} else if (!strcmp(ks, "needs")) {
			rc = get_str_list(c, v, pg->needs, PROG_MAX_LIST, &pg->nneeds);
		} else if (!strcmp(ks, "env")) {
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
		} else if (!strcmp(ks, "expect")) {
			rc = parse_prog_expect(c, v, pg);
		} else if (!strcmp(ks, "why")) {
			rc = get_str(c, v, pg->why, sizeof(pg->why));
		} else {
			rc = perr(c, k, "unknown key '%s' (allowed: needs, env, user, setup, run, timeout_s, arm, "
				  "faults, recover, check, expect, why)", ks);
		}
		if (rc)
			return -1;
		path_pop(c, old);
	}
	if (!have_run || !pg->run[0])
		return perr(c, n, "program needs 'run' (the command, sh -c)");
	if (!faults)
		return perr(c, n, "program needs 'faults' (a list of fault steps without 'op')");
	if ((pg->expect_check == EXIT_NONZERO || pg->expect_errors != ERRORS_SEEN) && !pg->why[0])
		return perr(c, n, "an expected finding (check: fail, errors: lost or silent) needs 'why'");
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
			if (!st->fault.file[0] && !st->fault.has_sectors)
				return perr(c, node(c, *it), "a program's fault needs 'file' (a path, a glob or $marker) or 'sectors'");
			pg->nfaults++;
			path_pop(c, o2);
		}
		path_pop(c, old);
	}
	return 0;
}

static const char *const scenario_keys[] = {
	"name", "description", "guarantee", "fs", "data_mode", "mkfs_options",
	"mount_options", "size_mb", "stack", "dax", "oracle", "fidelity", "matrix", "steps", "program", NULL
};

static int parse_scenario(struct pctx *c, yaml_node_t *n, struct scenario *sc)
{
	yaml_node_t *steps = NULL, *dmnode = NULL, *prog = NULL, *daxnode = NULL;
	int have_name = 0, have_fs = 0;

	memset(sc, 0, sizeof(*sc));
	sc->data_modes = 1u << DM_DEFAULT;
	snprintf(sc->file, sizeof(sc->file), "%s", c->file);
	sc->line = (int)n->start_mark.line + 1;
	sc->size_mb = 320;
	sc->oracle = 1;
	if (n->type != YAML_MAPPING_NODE)
		return perr(c, n, "a scenario must be a mapping, got %s", kind_name(n));
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
		const char *ks = NULL;
		int known = 0;
		size_t old;
		uint64_t u;

		if (want_scalar(c, k, &ks))
			return -1;
		old = path_push(c, "%s%s", c->path[0] ? "." : "", ks);
		for (int i = 0; scenario_keys[i]; i++)
			known |= !strcmp(scenario_keys[i], ks);
		if (!known)
			return perr(c, k, "unknown key '%s' (allowed: name, description, guarantee, fs, data_mode, "
				    "mkfs_options, mount_options, size_mb, stack, oracle, fidelity, matrix, steps, program)", ks);
		if (!strcmp(ks, "name")) {
			if (get_name(c, v, sc->name, sizeof(sc->name)))
				return -1;
			have_name = 1;
		} else if (!strcmp(ks, "description")) {
			if (get_str(c, v, sc->description, sizeof(sc->description)))
				return -1;
		} else if (!strcmp(ks, "guarantee")) {
			if (get_str(c, v, sc->guarantee, sizeof(sc->guarantee)))
				return -1;
		} else if (!strcmp(ks, "fs")) {
			if (parse_fs(c, v, &sc->fs_mask))
				return -1;
			have_fs = 1;
		} else if (!strcmp(ks, "data_mode")) {
			if (get_data_modes(c, v, &sc->data_modes))
				return -1;
			dmnode = v;
		} else if (!strcmp(ks, "mkfs_options")) {
			if (parse_opts(c, v, sc->mkfs_opts, sizeof(sc->mkfs_opts), " "))
				return -1;
		} else if (!strcmp(ks, "mount_options") && v->type == YAML_MAPPING_NODE) {
			sc->has_mount_opts_fs = 1;
			for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
				yaml_node_t *qk = node(c, q->key);
				int fs;
				size_t o2;

				o2 = path_push(c, ".%s", qk->type == YAML_SCALAR_NODE ? (char *)qk->data.scalar.value : "?");
				if (get_enum(c, qk, fs_names, FS__N, &fs) ||
				    parse_opts(c, node(c, q->value), sc->mount_opts_fs[fs], TEXT_LEN, ","))
					return -1;
				path_pop(c, o2);
			}
		} else if (!strcmp(ks, "mount_options")) {
			if (parse_opts(c, v, sc->mount_opts, sizeof(sc->mount_opts), ","))
				return -1;
		} else if (!strcmp(ks, "size_mb")) {
			if (get_u64(c, v, 4096, &u))
				return -1;
			if (u < 64)
				return perr(c, v, "size_mb must be 64..4096");
			sc->size_mb = (unsigned)u;
		} else if (!strcmp(ks, "stack")) {
			static const char *const st[] = { "none", "lvm" };

			if (get_enum(c, v, st, 2, &sc->lvm))
				return -1;
		} else if (!strcmp(ks, "dax")) {
			if (get_bool(c, v, &sc->dax))
				return -1;
			daxnode = v;
		} else if (!strcmp(ks, "oracle")) {
			if (get_bool(c, v, &sc->oracle))
				return -1;
		} else if (!strcmp(ks, "fidelity")) {
			if (get_bool(c, v, &sc->fidelity))
				return -1;
		} else if (!strcmp(ks, "matrix")) {
			if (parse_matrix(c, v, sc))
				return -1;
		} else if (!strcmp(ks, "steps")) {
			steps = v;
		} else if (!strcmp(ks, "program")) {
			prog = v;
		}
		path_pop(c, old);
	}
	if (!have_name)
		return perr(c, n, "missing key 'name'");
	if (!have_fs)
		return perr(c, n, "missing key 'fs'");
	if (dmnode && sc->data_modes != 1u << DM_DEFAULT && !(sc->fs_mask & (1u << FS_EXT4))) {
		size_t old = path_push(c, "%sdata_mode", c->path[0] ? "." : "");

		(void)old;
		return perr(c, dmnode, "data_mode applies to ext4 only");
	}
	if (sc->dax) {
		size_t old = path_push(c, "%sdax", c->path[0] ? "." : "");

		if (sc->fs_mask & ~((1u << FS_EXT4) | (1u << FS_XFS)))
			return perr(c, daxnode, "dax runs on ext4 and xfs (btrfs has no DAX; raw is the block device, not a mapping of pmem)");
		if (sc->lvm)
			return perr(c, daxnode, "dax does not stack on lvm (the scenario's device is the pmem under dm-wberr)");
		if (sc->data_modes != 1u << DM_DEFAULT)
			return perr(c, daxnode, "dax takes no data_mode (ext4 refuses dax with data=journal)");
		if (prog)
			return perr(c, daxnode, "dax applies to steps, not to a program");
		path_pop(c, old);
	}
	{
		const char *slash = strrchr(c->file, '/');

		snprintf(sc->dir, sizeof(sc->dir), "%.*s", slash ? (int)(slash - c->file) : 1, slash ? c->file : ".");
	}
	if (prog && steps) {
		path_push(c, "%sprogram", c->path[0] ? "." : "");
		return perr(c, prog, "a scenario has 'steps' or 'program', not both");
	}
	if (prog) {
		size_t old = path_push(c, "%sprogram", c->path[0] ? "." : "");

		if (sc->fs_mask & (1u << FS_RAW))
			return perr(c, prog, "a program needs a file system, not raw");
		sc->prog = calloc(1, sizeof(*sc->prog));
		if (!sc->prog)
			return perr(c, prog, "out of memory");
		if (parse_program(c, prog, sc->prog))
			return -1;
		for (int i = 0; i < sc->prog->nfaults; i++)
			if (!strcmp(sc->prog->faults[i].fault.status, "$status") && !sc->matrix_status)
				return perr(c, prog, "status $status needs a 'matrix: {status: ...}' in the scenario");
		path_pop(c, old);
		return 0;
	}
	if (!steps)
		return perr(c, n, "missing key 'steps' (or 'program')");
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

			if (parse_step(c, node(c, steps->data.sequence.items.start[i]), &sc->steps[i], -1))
				return -1;
			sc->nsteps++;
			if (sc->steps[i].op == OP_FAULT && !strcmp(sc->steps[i].fault.status, "$status") &&
			    !sc->matrix_status)
				return perr(c, node(c, steps->data.sequence.items.start[i]),
					    "status $status needs a 'matrix: {status: ...}' in the scenario");
			if (sc->steps[i].op == OP_BADBLOCKS && !sc->dax)
				return perr(c, node(c, steps->data.sequence.items.start[i]),
					    "badblocks needs 'dax: true' (they are the persistent memory's own list)");
			for (int f = 0; f < FS__N; f++)
				if (sc->steps[i].expect.err[f] == -2 && !sc->matrix_status)
					return perr(c, node(c, steps->data.sequence.items.start[i]),
						    "expect $errno needs a 'matrix: {status: ...}' in the scenario");
			path_pop(c, o2);
		}
		path_pop(c, old);
	}
	return 0;
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

int expand_instances(const struct scenario_set *set, struct instance **out)
{
	int n = 0, cap = 0;
	struct instance *v = NULL;

	for (int i = 0; i < set->n; i++) {
		const struct scenario *sc = &set->v[i];

		for (int fs = 0; fs < FS__N; fs++) {
			if (!(sc->fs_mask & (1u << fs)))
				continue;
			for (int dm = 0; dm < 4; dm++) {
				/* every fs but ext4 runs once, in its only mode */
				if (fs == FS_EXT4 ? !(sc->data_modes & (1u << dm)) : dm != DM_DEFAULT)
					continue;
				for (int s = 0; s < (sc->matrix_status ? sc->nstatuses : 1); s++) {
					size_t o;

					if (n == cap) {
						cap = cap ? cap * 2 : 64;
						v = realloc(v, (size_t)cap * sizeof(*v));
					}
					v[n].sc = sc;
					v[n].fs = fs;
					v[n].data_mode = fs == FS_EXT4 ? dm : DM_DEFAULT;
					v[n].status = sc->matrix_status ? sc->statuses[s] : NULL;
					o = (size_t)snprintf(v[n].id, sizeof(v[n].id), "%s/%s", fs_names[fs], sc->name);
					if (v[n].status)
						o += (size_t)snprintf(v[n].id + o, sizeof(v[n].id) - o, "[%s]", v[n].status);
					/* a scenario of several modes names the mode of each */
					if (fs == FS_EXT4 && (sc->data_modes & (sc->data_modes - 1)))
						snprintf(v[n].id + o, sizeof(v[n].id) - o, "[data=%s]", data_mode_names[dm]);
					n++;
				}
			}
		}
	}
	*out = v;
	return n;
}
