// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML schema's tables (schema.h) against scenarios/README.md: the
 * top-level keys with their types, ranges, defaults and descriptions, the
 * required ones, the keys every step takes, the inner mappings (matrix,
 * on_kernel, content, a program's expect) and a program's keys in the
 * worked example.  A key added to a table and not to the README, or the
 * other way round, fails here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "schema.h"
#include "wb_sys.h"
#include "wb_test.h"

static char *readme;

/* the line of @doc that starts at @p, into @buf */
static const char *line_at(const char *p, char *buf, size_t len)
{
	size_t n = strcspn(p, "\n");

	snprintf(buf, len, "%.*s", (int)n, p);
	return p[n] ? p + n + 1 : p + n;
}

/* the key of a line indented by exactly @indent spaces ("  name: ..."), or "" */
static void key_of(const char *line, int indent, char key[32])
{
	int n = 0;

	key[0] = 0;
	for (int i = 0; i < indent; i++)
		if (line[i] != ' ')
			return;
	if (sscanf(line + indent, "%31[a-z_]:%n", key, &n) != 1 || !n)
		key[0] = 0;
}

/* what one row's README line must say of its type and range */
static void check_type(const struct ykey *k, const char *line)
{
	char want[160];

	switch (k->type) {
	case Y_NAME:
		snprintf(want, sizeof(want), "type: name");
		break;
	case Y_STR:
		snprintf(want, sizeof(want), "type: string");
		break;
	case Y_U64:
		snprintf(want, sizeof(want), "type: integer, minimum: %llu, maximum: %llu, default: %llu",
			 (unsigned long long)k->min, (unsigned long long)k->max, (unsigned long long)k->dflt);
		break;
	case Y_BOOL:
		snprintf(want, sizeof(want), "type: boolean, default: %s", k->dflt ? "true" : "false");
		break;
	case Y_ENUM: {
		size_t o = (size_t)snprintf(want, sizeof(want), "enum: [");

		for (int i = 0; i < k->nnames; i++)
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", i ? ", " : "", k->names[i]);
		snprintf(want + o, sizeof(want) - o, "], default: %s", k->names[k->dflt]);
		break;
	}
	default:
		return;
	}
	ok(strstr(line, want) != NULL, "  %s: the README says %s", k->name, want);
}

static void check_doc(const struct ykey *k, const char *line)
{
	if (k->doc)
		ok(strstr(line, k->doc) != NULL, "  %s: the README says \"%s\"", k->name, k->doc);
}

/* the keys at @indent from @p on, until a line indented less; checked against @t */
static const char *check_block(const struct ytable *t, const char *p, int indent, const char *what)
{
	char line[1024], key[32];
	int i = 0;

	while (*p) {
		const char *next = line_at(p, line, sizeof(line));

		if (strspn(line, " ") < (size_t)indent || (line[0] == '#' && indent))
			break;
		key_of(line, indent, key);
		p = next;
		if (!key[0])
			continue;
		if (i == t->n) {
			ok(0, "%s: the README's key %s is in the table", what, key);
			continue;
		}
		is_str(t->keys[i].name, key, "%s: key %d is %s", what, i + 1, t->keys[i].name);
		check_type(&t->keys[i], line);
		check_doc(&t->keys[i], line);
		i++;
	}
	is_int(t->n, i, "%s: the README has every key of the table", what);
	return p;
}

static void test_top_level(void)
{
	const char *p = strstr(readme, "\nproperties:\n"), *req = strstr(readme, "\nrequired: [");
	char want[256];
	size_t o = 0;

	ok(p && req, "the README has the scenario's properties and required keys");
	if (!p || !req)
		return;
	check_block(&scenario_schema, p + strlen("\nproperties:\n"), 2, "scenario");
	o = (size_t)snprintf(want, sizeof(want), "\nrequired: [");
	for (int i = 0, n = 0; i < scenario_schema.n; i++)
		if (scenario_schema.keys[i].need && !scenario_schema.keys[i].need[0])
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", n++ ? ", " : "",
					      scenario_schema.keys[i].name);
	snprintf(want + o, sizeof(want) - o, "]\noneOf: [{required: [steps]}, {required: [program]}]\n");
	ok(!strncmp(req, want, strlen(want)), "the README's required keys are the table's, and steps or program");
	p = strstr(readme, "\n  matrix:\n");
	ok(p != NULL, "the README has matrix");
	if (p)
		check_block(&matrix_schema, strstr(p, "    properties:\n") + strlen("    properties:\n"), 6, "matrix");
}

/* "{a, b, c*}" or "{a: x, b: y}": the keys, "*" dropped, against @t */
static void check_inline(const struct ytable *t, const char *p, const char *what)
{
	char got[256] = "", want[256] = "";
	size_t o = 0, g = 0;
	const char *end = p ? strchr(p, '}') : NULL;

	for (int i = 0; i < t->n; i++)
		o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", i ? " " : "", t->keys[i].name);
	for (const char *q = p ? p + 1 : NULL; q && q < end; q++) {
		char key[32];
		int n = 0;

		if (sscanf(q, " %31[a-z_]%n", key, &n) != 1)
			break;
		g += (size_t)snprintf(got + g, sizeof(got) - g, "%s%s", g ? " " : "", key);
		q += n;
		q += strcspn(q, ",}") - 1;
		if (q[1] == '}')
			break;
		q++;
	}
	is_str(want, got, "%s: the README's keys are the table's", what);
}

static void test_step(void)
{
	const char *p = strstr(readme, "\n# step: a mapping");
	char line[512], key[32], want[256] = "", got[256] = "";
	size_t o = 0, g = 0;

	ok(p != NULL, "the README lists the keys every step takes");
	if (!p)
		return;
	for (int i = 0; i < step_schema.n; i++)
		if (step_schema.keys[i].flags & YK_COMMON)
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", o ? " " : "", step_schema.keys[i].name);
	for (p = line_at(p + 1, line, sizeof(line)); !strncmp(line, "# ", 2); p = line_at(p, line, sizeof(line))) {
		const struct ykey *k;

				int n = 0;

		/* "#   key   (...": a key's own line, not a continuation */
		if (strncmp(line, "#   ", 4) || sscanf(line + 4, "%31[a-z_]%n", key, &n) != 1 ||
		    line[4 + n + strspn(line + 4 + n, " ")] != '(' || !(k = schema_key(&step_schema, key)))
			continue;
		g += (size_t)snprintf(got + g, sizeof(got) - g, "%s%s", g ? " " : "", key);
		check_doc(k, line);
	}
	is_str(want, got, "every step's keys: the README's are the table's");
	/* on_kernel ({"M.m"|patched: {expect, ...}}: the inner mapping's keys */
	p = strstr(readme, "on_kernel ({");
	p = p ? strstr(p, ": {") : NULL;
	check_inline(&on_kernel_schema, p ? p + 2 : NULL, "on_kernel");
	check_inline(&content_schema, strchr(strstr(readme, "content: \"{"), '{'), "content");
}

static void test_program(void)
{
	const char *p = strstr(readme, "\nprogram:\n  needs:"), *e;
	char line[512], key[32], want[128];
	int i = 0;

	ok(p != NULL, "the README has the program example");
	if (!p)
		return;
	p = strchr(p + 1, '\n') + 1;	/* the line after "program:" */
	for (p = line_at(p, line, sizeof(line)); line[0] == ' '; p = line_at(p, line, sizeof(line))) {
		const struct ykey *k;
		const char *comment = strstr(line, "# ");

		key_of(line, 2, key);
		if (!key[0])
			continue;
		k = i < program_schema.n ? &program_schema.keys[i] : NULL;
		is_str(k ? k->name : "(none)", key, "program: key %d is %s", i + 1, k ? k->name : "(none)");
		i++;
		if (!k)
			continue;
		check_doc(k, comment ? comment : "");
		if (k->type == Y_U64) {
			snprintf(want, sizeof(want), "%llu..%llu", (unsigned long long)k->min, (unsigned long long)k->max);
			ok(comment && strstr(comment, want), "  %s: %s", k->name, want);
			snprintf(want, sizeof(want), "(default %llu)", (unsigned long long)k->dflt);
			ok(comment && strstr(comment, want), "  %s: %s", k->name, want);
		}
	}
	is_int(program_schema.n, i, "program: the example has every key of the table");
	e = strstr(readme, "\n  expect: {program:");
	ok(e != NULL, "the example has a program's expect");
	if (!e)
		return;
	check_inline(&prog_expect_schema, strchr(e, '{'), "a program's expect");
	{
		size_t o = (size_t)snprintf(want, sizeof(want), "# the defaults are ");

		for (int k = 0; k < prog_expect_schema.n; k++)
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", k ? ", " : "",
					      prog_expect_schema.keys[k].names[prog_expect_schema.keys[k].dflt]);
		line_at(e + 1, line, sizeof(line));
		ok(strstr(line, want) != NULL, "a program's expect: %s", want);
	}
}

int main(void)
{
	const char *top = getenv("TOP");
	char path[512];

	snprintf(path, sizeof(path), "%s/scenarios/README.md", top ? top : TOP_DIR);
	readme = wb_read_file(path, NULL);
	ok(readme != NULL, "scenarios/README.md is readable (%s)", path);
	if (!readme)
		return tap_done();
	test_top_level();
	test_step();
	test_program();
	free(readme);
	return tap_done();
}
