// SPDX-License-Identifier: GPL-2.0
#include "wb_rule.h"
#include "wb_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dm-wberr-abi.h"

const struct wb_rule_key_desc wb_rule_keys[WB_KEY__N] = {
#define WBERR_ABI_KEY(sfx, wire, yaml, kind, min, max, dflt, listed) \
	[WB_KEY_##sfx] = { #wire, #yaml, WBERR_ABI_KIND_##kind, min, max, dflt, WBERR_ABI_LISTED_##listed },
#include "dm-wberr-abi.h"
};

const char *const wb_rule_action_names[WB_ACT__N] = {
#define WBERR_ABI_ACTION(sfx, name) [WB_ACT_##sfx] = #name,
#include "dm-wberr-abi.h"
};

int wb_rule_key_by_wire(const char *name, size_t len)
{
	for (int k = 0; k < WB_KEY__N; k++)
		if (strlen(wb_rule_keys[k].wire) == len && !strncmp(wb_rule_keys[k].wire, name, len))
			return k;
	return -1;
}

int wb_rule_key_by_yaml(const char *name)
{
	for (int k = 0; k < WB_KEY__N; k++)
		if (!strcmp(wb_rule_keys[k].yaml, name))
			return k;
	return -1;
}

void wb_rule_init(struct wb_rule *r)
{
	memset(r, 0, sizeof(*r));
	for (int k = 0; k < WB_KEY__N; k++)
		if (wb_rule_keys[k].kind == WBERR_ABI_KIND_NUMBER || wb_rule_keys[k].kind == WBERR_ABI_KIND_BOOL)
			wb_rule_set_number(r, k, wb_rule_keys[k].dflt);
	r->action = WB_ACT_FAIL;
}

uint64_t wb_rule_number(const struct wb_rule *r, int k)
{
	switch (k) {
	case WB_KEY_SKIP: return r->skip;
	case WB_KEY_COUNT: return r->count;
	case WB_KEY_EVERY: return r->every;
	case WB_KEY_PROB: return r->prob;
	case WB_KEY_SPLIT: return (uint64_t)r->split;
	default: return 0;
	}
}

void wb_rule_set_number(struct wb_rule *r, int k, uint64_t v)
{
	switch (k) {
	case WB_KEY_SKIP: r->skip = v; break;
	case WB_KEY_COUNT: r->count = v; break;
	case WB_KEY_EVERY: r->every = v; break;
	case WB_KEY_PROB: r->prob = v; break;
	case WB_KEY_SPLIT: r->split = v != 0; break;
	default: break;
	}
}

int wb_rule_key_is_default(const struct wb_rule *r, int k)
{
	switch (wb_rule_keys[k].kind) {
	case WBERR_ABI_KIND_RANGE: return !r->has_sectors;
	case WBERR_ABI_KIND_ACTION: return r->action == WB_ACT_FAIL && !r->delay_ms;
	case WBERR_ABI_KIND_FLAGS: return !(r->flags_set | r->flags_clear);
	default: return wb_rule_number(r, k) == wb_rule_keys[k].dflt;
	}
}

/* the value of key @k, without "key=" */
static int format_value(const struct wb_rule *r, int k, char *buf, size_t len)
{
	size_t n = 0;

	switch (wb_rule_keys[k].kind) {
	case WBERR_ABI_KIND_RANGE:
		return snprintf(buf, len, "%" PRIu64 "-%" PRIu64, r->first, r->last);
	case WBERR_ABI_KIND_ACTION:
		if (!r->delay_ms)
			return snprintf(buf, len, "%s", wb_rule_action_names[r->action]);
		if (r->action == WB_ACT_FAIL)
			return snprintf(buf, len, "delay:%u", r->delay_ms);
		return snprintf(buf, len, "delay:%u:%s", r->delay_ms, wb_rule_action_names[r->action]);
	case WBERR_ABI_KIND_FLAGS:
		/* in the log's order, as "list" prints them */
		buf[0] = 0;
		for (size_t i = 0; i < wb_nr_bio_flags && n < len; i++)
			if ((r->flags_set | r->flags_clear) & (1u << i))
				n += (size_t)snprintf(buf + n, len - n, "%s%s%s", n ? "," : "",
						      r->flags_clear & (1u << i) ? "!" : "", wb_bio_flag_names[i]);
		return (int)n;
	default:
		return snprintf(buf, len, "%" PRIu64, wb_rule_number(r, k));
	}
}

int wb_rule_format_key(const struct wb_rule *r, int k, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s=", wb_rule_keys[k].wire), m;

	if (n < 0 || (size_t)n >= len)
		return -1;
	m = format_value(r, k, buf + n, len - (size_t)n);
	return m < 0 || (size_t)(n + m) >= len ? -1 : n + m;
}

/* " key=value" after the head, for each key not at its default (@listed:
 * and each ALWAYS one) */
static int format_keys(const struct wb_rule *r, int listed, char *buf, size_t len, size_t off)
{
	for (int k = 0; k < WB_KEY__N; k++) {
		int n, always = listed && wb_rule_keys[k].listed == WBERR_ABI_LISTED_ALWAYS;

		if (!always && wb_rule_key_is_default(r, k))
			continue;
		if (off + 1 >= len)
			return -1;
		buf[off++] = ' ';
		n = wb_rule_format_key(r, k, buf + off, len - off);
		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

int wb_rule_format(const struct wb_rule *r, char *buf, size_t len)
{
	char ops[64];
	int n;

	wb_op_format(r->ops, ops, sizeof(ops));
	n = snprintf(buf, len, "%s %s", ops, r->status);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return format_keys(r, 0, buf, len, (size_t)n);
}

int wb_rule_format_listed(const struct wb_rule *r, unsigned int id, char *buf, size_t len)
{
	char ops[64];
	int n;

	wb_op_format(r->ops, ops, sizeof(ops));
	n = snprintf(buf, len, "%u %s %s", id, ops, r->status);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return format_keys(r, 1, buf, len, (size_t)n);
}

/* strict decimal as the target reads it: digits only, no overflow */
static int parse_u64(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;

	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

int wb_rule_parse_number(int k, const char *s, uint64_t *v)
{
	return parse_u64(s, strlen(s), v) || *v < wb_rule_keys[k].min || *v > wb_rule_keys[k].max ? -1 : 0;
}

int wb_rule_parse_action(struct wb_rule *r, const char *s)
{
	const char *then;
	uint64_t ms;
	int a;

	r->delay_ms = 0;
	for (a = 0; a < WB_ACT__N; a++)
		if (a != WB_ACT_PASS && !strcmp(s, wb_rule_action_names[a])) {
			r->action = a;
			return 0;
		}
	if (strncmp(s, "delay:", 6))
		return -1;
	s += 6;
	then = strchr(s, ':');
	if (parse_u64(s, then ? (size_t)(then - s) : strlen(s), &ms) || ms < 1 || ms > WBERR_ABI_DELAY_MAX_MS)
		return -1;
	r->delay_ms = (unsigned int)ms;
	r->action = WB_ACT_FAIL;
	if (!then)
		return 0;
	for (a = 0; a < WB_ACT__N; a++)
		if (!strcmp(then + 1, wb_rule_action_names[a])) {
			r->action = a;
			return 0;
		}
	r->delay_ms = 0;
	return -1;
}

int wb_rule_parse_flags(struct wb_rule *r, const char *s, char *err, size_t errlen)
{
	const char *p = s;

	r->flags_set = r->flags_clear = 0;
	for (;;) {
		size_t len = strcspn(p, ","), i;
		int neg = *p == '!';

		for (i = 0; i < wb_nr_bio_flags; i++)
			if (strlen(wb_bio_flag_names[i]) == len - (size_t)neg &&
			    !strncmp(p + neg, wb_bio_flag_names[i], len - (size_t)neg))
				break;
		if (i == wb_nr_bio_flags) {
			snprintf(err, errlen, "bad flag '%.*s' in flags='%s'", (int)len, p, s);
			return -1;
		}
		if ((r->flags_set | r->flags_clear) & (1u << i)) {
			snprintf(err, errlen, "flag '%s' repeated in flags='%s'", wb_bio_flag_names[i], s);
			return -1;
		}
		*(neg ? &r->flags_clear : &r->flags_set) |= 1u << i;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static int parse_range(struct wb_rule *r, const char *s)
{
	const char *dash = strchr(s, '-');

	if (!dash || parse_u64(s, (size_t)(dash - s), &r->first) ||
	    parse_u64(dash + 1, strlen(dash + 1), &r->last) || r->first > r->last)
		return -1;
	r->has_sectors = 1;
	return 0;
}

int wb_rule_parse_word(struct wb_rule *r, const char *word, unsigned int *seen,
		       char *err, size_t errlen)
{
	const char *eq = strchr(word, '='), *val;
	uint64_t v;
	int k = eq ? wb_rule_key_by_wire(word, (size_t)(eq - word)) : -1;

	if (k < 0) {
		snprintf(err, errlen, "unknown option '%s'", word);
		return -1;
	}
	if (*seen & (1u << k)) {
		snprintf(err, errlen, "option '%s' given twice", wb_rule_keys[k].wire);
		return -1;
	}
	*seen |= 1u << k;
	val = eq + 1;
	switch (wb_rule_keys[k].kind) {
	case WBERR_ABI_KIND_RANGE:
		if (!parse_range(r, val))
			return 0;
		break;
	case WBERR_ABI_KIND_ACTION:
		if (!wb_rule_parse_action(r, val))
			return 0;
		break;
	case WBERR_ABI_KIND_FLAGS:
		return wb_rule_parse_flags(r, val, err, errlen);
	default:
		if (!wb_rule_parse_number(k, val, &v)) {
			wb_rule_set_number(r, k, v);
			return 0;
		}
		snprintf(err, errlen, "bad value in '%s' (%s %" PRIu64 "..%" PRIu64 ")", word,
			 wb_rule_keys[k].wire, wb_rule_keys[k].min, wb_rule_keys[k].max);
		return -1;
	}
	snprintf(err, errlen, "bad value in '%s'", word);
	return -1;
}

/* "<ops> <status>": the ops a list of classes or "all" */
static int parse_head(struct wb_rule *r, const char *ops, const char *status, char *err, size_t errlen)
{
	char buf[96], *tok, *save = NULL;
	int v;

	r->ops = 0;
	snprintf(buf, sizeof(buf), "%s", ops);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		v = wb_name_lookup(wb_op_names, tok);
		if (v < 0 || (r->ops & (unsigned int)v) || (v == WB_OP_ALL && strcmp(ops, "all"))) {
			snprintf(err, errlen, "bad op class '%s' in '%s'", tok, ops);
			return -1;
		}
		r->ops |= (unsigned int)v;
	}
	if (!r->ops || ops[strlen(ops) - 1] == ',' || ops[0] == ',' || strstr(ops, ",,")) {
		snprintf(err, errlen, "bad op classes '%s'", ops);
		return -1;
	}
	if (strlen(status) >= sizeof(r->status)) {
		snprintf(err, errlen, "status '%.32s...' too long", status);
		return -1;
	}
	snprintf(r->status, sizeof(r->status), "%s", status);
	return 0;
}

int wb_rule_parse(struct wb_rule *r, const char *text, char *err, size_t errlen)
{
	char buf[1024], *w[2 + WB_KEY__N + 1], *save = NULL;
	unsigned int seen = 0;
	int n = 0;

	wb_rule_init(r);
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "rule too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
		if (n == (int)(sizeof(w) / sizeof(w[0]) - 1)) {
			snprintf(err, errlen, "more than %d words", 2 + WB_KEY__N);
			return -1;
		}
		w[n++] = t;
	}
	if (n < 2) {
		snprintf(err, errlen, "wants <ops> <status> [key=value...], got %d words", n);
		return -1;
	}
	if (parse_head(r, w[0], w[1], err, errlen))
		return -1;
	for (int i = 2; i < n; i++)
		if (wb_rule_parse_word(r, w[i], &seen, err, errlen))
			return -1;
	return 0;
}

int wb_rule_parse_listed(const char *line, unsigned int *id, struct wb_rule *r,
			 uint64_t *matched, uint64_t *fired)
{
	const char *m = strstr(line, " matched="), *body;
	char rule[1024], err[128], tail;
	int used = 0;

	if (!m || sscanf(line, "%u %n", id, &used) != 1 || !used ||
	    sscanf(m, " matched=%" SCNu64 " fired=%" SCNu64 "%c", matched, fired, &tail) != 2)
		return -1;
	body = line + used;
	if (m <= body || (size_t)(m - body) >= sizeof(rule))
		return -1;
	snprintf(rule, sizeof(rule), "%.*s", (int)(m - body), body);
	return wb_rule_parse(r, rule, err, sizeof(err));
}
