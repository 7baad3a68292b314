// SPDX-License-Identifier: GPL-2.0
/*
 * wb_rule: the rule grammar's table (dm-wberr-abi.h), the "add" text and
 * the "list" line; and the two documents that describe the grammar,
 * dm-wberr/README.rst and scenarios/README.md, against the table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-wberr-abi.h"
#include "wb_names.h"
#include "wb_rule.h"
#include "wb_sys.h"
#include "wb_test.h"

static const char *const kind_names[] = {
	[WBERR_ABI_KIND_RANGE] = "range", [WBERR_ABI_KIND_NUMBER] = "number",
	[WBERR_ABI_KIND_ACTION] = "action", [WBERR_ABI_KIND_FLAGS] = "flags",
	[WBERR_ABI_KIND_BOOL] = "bool",
};

/* "0..2^64-1": how both documents write a range */
static void range_text(int k, char *buf, size_t len)
{
	if (wb_rule_keys[k].max == UINT64_MAX)
		snprintf(buf, len, "%" PRIu64 "..2^64-1", wb_rule_keys[k].min);
	else
		snprintf(buf, len, "%" PRIu64 "..%" PRIu64, wb_rule_keys[k].min, wb_rule_keys[k].max);
}

static int is_number(int k)
{
	return wb_rule_keys[k].kind == WBERR_ABI_KIND_NUMBER || wb_rule_keys[k].kind == WBERR_ABI_KIND_BOOL;
}

static void test_table(void)
{
	struct wb_rule r;

	is_int(WB_KEY_FLAGS, wb_rule_key_by_yaml("bio_flags"), "bio_flags is the YAML name of flags=");
	is_int(WB_KEY_FLAGS, wb_rule_key_by_wire("flags=x", 5), "flags by its wire name");
	is_int(-1, wb_rule_key_by_yaml("flags"), "flags is no YAML key");
	is_int(-1, wb_rule_key_by_wire("skipx", 5), "an unknown key");
	wb_rule_init(&r);
	ok(r.every == 1 && r.prob == WBERR_ABI_PPM && !r.skip && !r.count && r.action == WB_ACT_FAIL,
	   "the defaults: every=1, prob=1000000, skip=0, count=0, fail");
	for (int k = 0; k < WB_KEY__N; k++)
		if (!wb_rule_key_is_default(&r, k))
			ok(0, "key %s at its default after init", wb_rule_keys[k].wire);
	is_str("pass", wb_rule_action_names[WB_ACT_PASS], "the actions' names");
}

/* the cases wberr-run's dm_format_add() had, and the canonical list line */
static void test_format(void)
{
	struct wb_rule r;
	char buf[256];

	wb_rule_init(&r);
	r.ops = WB_OP_WRITE | WB_OP_FUA;
	snprintf(r.status, sizeof(r.status), "timeout");
	r.count = 1;
	r.skip = 2;
	r.has_sectors = 1;
	r.first = 100;
	r.last = 227;
	is_int(0, wb_rule_format(&r, buf, sizeof(buf)), "formats");
	is_str("write,fua timeout sectors=100-227 skip=2 count=1", buf, "a range and a burst");
	wb_rule_init(&r);
	r.ops = WB_OP_ALL;
	snprintf(r.status, sizeof(r.status), "nexus");
	r.prob = 10000;
	r.delay_ms = 50;
	wb_rule_format(&r, buf, sizeof(buf));
	is_str("all nexus prob=10000 action=delay:50", buf, "probabilistic delayed rule");
	r.prob = 0;
	wb_rule_format(&r, buf, sizeof(buf));
	is_str("all nexus prob=0 action=delay:50", buf, "prob=0 is said: it is not the default");
	r.prob = WBERR_ABI_PPM;
	r.action = WB_ACT_PASS;
	r.split = 1;
	r.has_sectors = 1;
	r.first = 8;
	r.last = 15;
	snprintf(r.status, sizeof(r.status), "ioerr");
	is_int(0, wb_rule_parse_flags(&r, "meta,!sync", buf, sizeof(buf)), "flags parse");
	wb_rule_format(&r, buf, sizeof(buf));
	is_str("all ioerr sectors=8-15 action=delay:50:pass flags=!sync,meta split=1", buf,
	       "1.1's keys: delay then pass, flags (in the log's order), split");
	r.delay_ms = 0;
	r.action = WB_ACT_DROP;
	r.split = 0;
	r.flags_set = r.flags_clear = 0;
	r.has_sectors = 0;
	wb_rule_format(&r, buf, sizeof(buf));
	is_str("all ioerr action=drop", buf, "drop at once");
	is_int(-1, wb_rule_format(&r, buf, 8), "a short buffer is refused");
	r.first = 0;
	r.last = 2047;
	wb_rule_format_listed(&r, 7, buf, sizeof(buf));
	is_str("7 all ioerr sectors=0-2047 skip=0 count=0 every=1 prob=1000000 action=drop", buf,
	       "list: every ALWAYS key, the SET ones only when set");
}

static void test_parse(void)
{
	struct wb_rule r, back;
	unsigned int id, seen = 0;
	uint64_t matched, fired;
	char err[128], again[256];
	const char *line = "12 read,flush medium sectors=0-7 skip=18446744073709551615 count=3 every=2 "
			   "prob=0 action=delay:20:drop flags=sync,!idle split=1 matched=4 fired=1";

	is_int(0, wb_rule_parse_listed(line, &id, &r, &matched, &fired), "a list line parses");
	ok(id == 12 && matched == 4 && fired == 1, "id and counters");
	ok(r.ops == (WB_OP_READ | WB_OP_FLUSH) && !strcmp(r.status, "medium") && r.first == 0 &&
	   r.last == 7 && r.skip == UINT64_MAX && r.count == 3 && r.every == 2 && r.prob == 0 &&
	   r.action == WB_ACT_DROP && r.delay_ms == 20 && r.split == 1, "every key");
	wb_rule_format_listed(&r, id, again, sizeof(again));
	ok(!strncmp(line, again, strlen(again)) && !strcmp(line + strlen(again), " matched=4 fired=1"),
	   "formatted back, it is the same line (%s)", again);
	is_int(0, wb_rule_parse(&back, "all ioerr", err, sizeof(err)), "the shortest rule");
	is_int(WB_OP_ALL, (int)back.ops, "all");
	{
		static const char *const bad[] = {
			"every=0", "prob=1000001", "split=2", "skip=+1", "count=18446744073709551616",
			"skip=", "flags=meta,meta", "flags=Meta", "action=delay:0", "action=pass",
			"action=delay:5:explode", "action=delay:60001", "sectors=5-4", "sectors=1-2-3",
			"SKIP=1", "=5", "skip",
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			seen = 0;
			wb_rule_init(&r);
			if (wb_rule_parse_word(&r, bad[i], &seen, err, sizeof(err)) != -1)
				ok(0, "'%s' is refused", bad[i]);
		}
		ok(1, "%zu malformed key words are refused, as the target refuses them", sizeof(bad) / sizeof(bad[0]));
	}
	seen = 0;
	is_int(0, wb_rule_parse_word(&r, "prob=0", &seen, err, sizeof(err)), "prob=0 is taken");
	is_int(-1, wb_rule_parse_word(&r, "prob=5", &seen, err, sizeof(err)), "a key twice is not");
	is_str("option 'prob' given twice", err, "with the reason");
	is_int(-1, wb_rule_parse(&r, "write,all ioerr", err, sizeof(err)), "all only alone");
	is_int(-1, wb_rule_parse(&r, "write,,fua ioerr", err, sizeof(err)), "an empty class");
	is_int(-1, wb_rule_parse(&r, "write", err, sizeof(err)), "no status");
}

/* @doc's rows of the rst table after @anchor: "key yaml kind values default listed" */
static void test_readme_rst_table(const char *doc)
{
	const char *p = strstr(doc, "\n    key      YAML");
	char key[32], yaml[32], kind[32], values[64], dflt[32], listed[32], want[64];
	int rows = 0;

	ok(p != NULL, "README.rst has the key table");
	if (!p)
		return;
	p = strstr(p + 1, "\n    =");	/* the rule under the header */
	for (p = p ? strchr(p + 1, '\n') : NULL; p && strncmp(p, "\n    =", 6); p = strchr(p + 1, '\n')) {
		int k;

		if (sscanf(p, " %31s %31s %31s %63s %31s %31s", key, yaml, kind, values, dflt, listed) != 6)
			break;
		k = rows++;
		if (k >= WB_KEY__N) {
			ok(0, "README.rst's key table has a row for every key and no more (%s)", key);
			return;
		}
		is_str(wb_rule_keys[k].wire, key, "README.rst's row %d is key %s", k + 1, wb_rule_keys[k].wire);
		is_str(wb_rule_keys[k].yaml, yaml, "  its YAML name");
		is_str(kind_names[wb_rule_keys[k].kind], kind, "  its kind");
		is_str(wb_rule_keys[k].listed == WBERR_ABI_LISTED_ALWAYS ? "always" : "set", listed,
		       "  when list prints it");
		if (!is_number(k))
			continue;
		range_text(k, want, sizeof(want));
		is_str(want, values, "  its values");
		snprintf(want, sizeof(want), "%" PRIu64, wb_rule_keys[k].dflt);
		is_str(want, dflt, "  its default");
	}
	is_int(WB_KEY__N, rows, "README.rst's key table has a row per key");
}

/* the order of "key=" words in the line of @doc that starts with @start */
static void keys_in_line(const char *doc, const char *start, char *out, size_t len)
{
	const char *p = strstr(doc, start), *end;
	size_t o = 0;

	out[0] = 0;
	if (!p)
		return;
	end = strchr(++p, '\n');
	for (const char *q = p; q < end; q++) {
		const char *w = q;

		if (*q != '=')
			continue;
		while (w > p && (w[-1] >= 'a' && w[-1] <= 'z'))
			w--;
		if (w < q && o + (size_t)(q - w) + 4 < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s%.*s", o ? " " : "",
					      w > p && w[-1] == '[' ? "[" : "", (int)(q - w), w);
	}
}

static void test_readme_rst(void)
{
	char path[512], want[256], got[256];
	char *doc;
	size_t o = 0;

	snprintf(path, sizeof(path), "%s/dm-wberr/README.rst", TOP_DIR);
	doc = wb_read_file(path, NULL);
	ok(doc != NULL, "dm-wberr/README.rst is readable (%s)", path);
	if (!doc)
		return;
	test_readme_rst_table(doc);
	for (int k = 0; k < WB_KEY__N; k++)
		o += (size_t)snprintf(want + o, sizeof(want) - o, "%s[%s", k ? " " : "", wb_rule_keys[k].wire);
	keys_in_line(doc, "\nadd <ops> <status>", got, sizeof(got));
	is_str(want, got, "README.rst's add synopsis has every key, optional, in the table's order");
	o = 0;
	for (int k = 0; k < WB_KEY__N; k++)
		o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s%s", k ? " " : "",
				      wb_rule_keys[k].listed == WBERR_ABI_LISTED_SET ? "[" : "",
				      wb_rule_keys[k].wire);
	o += (size_t)snprintf(want + o, sizeof(want) - o, " matched fired");
	keys_in_line(doc, "\n      <id> <ops> <status>", got, sizeof(got));
	is_str(want, got, "README.rst's list line: the table's order, the SET keys in brackets");
	snprintf(want, sizeof(want), "(2 to %d)", 2 + WB_KEY__N);
	ok(strstr(doc, want) != NULL, "README.rst: a table-line rule has %s words", want);
	free(doc);
}

/* the value text of @key in scenarios/README.md's fault row */
static void fault_value(const char *row, const char *key, char *out, size_t len)
{
	char pat[48];
	const char *p, *end;

	out[0] = 0;
	snprintf(pat, sizeof(pat), " %s: ", key);
	p = strstr(row, pat);
	if (!p)
		return;
	p += strlen(pat);
	end = *p == '"' ? strchr(++p, '"') : p + strcspn(p, ",}");
	if (end)
		snprintf(out, len, "%.*s", (int)(end - p), p);
}

static void test_readme_md(void)
{
	char path[512], val[512], want[64];
	char *doc, *row, *nl;

	snprintf(path, sizeof(path), "%s/scenarios/README.md", TOP_DIR);
	doc = wb_read_file(path, NULL);
	ok(doc != NULL, "scenarios/README.md is readable (%s)", path);
	if (!doc)
		return;
	row = strstr(doc, "\n  fault:");
	ok(row != NULL, "scenarios/README.md has the fault step");
	if (row && (nl = strchr(row + 1, '\n')))
		*nl = 0;
	for (int k = 0; row && k < WB_KEY__N; k++) {
		const struct wb_rule_key_desc *d = &wb_rule_keys[k];

		fault_value(row, d->yaml, val, sizeof(val));
		ok(val[0] != 0, "scenarios/README.md's fault step has %s", d->yaml);
		if (is_number(k) && d->kind == WBERR_ABI_KIND_NUMBER) {
			range_text(k, want, sizeof(want));
			ok(strstr(val, want) != NULL, "  %s takes %s there (\"%s\")", d->yaml, want, val);
		}
		if (d->kind == WBERR_ABI_KIND_BOOL)
			ok(!strncmp(val, "boolean", 7), "  %s is a boolean there", d->yaml);
		if (strcmp(d->wire, d->yaml)) {
			snprintf(want, sizeof(want), "%s=", d->wire);
			ok(strstr(val, want) != NULL, "  %s says it is %s on the wire", d->yaml, want);
		}
		if (d->kind == WBERR_ABI_KIND_ACTION) {
			snprintf(want, sizeof(want), "1..%d ms", WBERR_ABI_DELAY_MAX_MS);
			ok(strstr(val, want) != NULL, "  %s: a delay of %s", d->yaml, want);
		}
	}
	free(doc);
}

int main(void)
{
	test_table();
	test_format();
	test_parse();
	test_readme_rst();
	test_readme_md();
	return tap_done();
}
