/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The YAML schema of a scenario file as tables, one per mapping: its keys,
 * each with its type, range, default, where its value goes and what
 * scenarios/README.md says of it.  parse.c walks a mapping by its table
 * (every key known, none twice, the required ones there) instead of a
 * loop of its own per mapping; a refusal of an unknown key names the
 * table's keys; tests/test_parse.c checks the README's schema against the
 * tables.  The keys a step takes besides the common ones are ops.h's
 * (an op's row), and a fault's rule keys dm-wberr-abi.h's (wb_rule.h).
 */
#ifndef WBERR_SCHEMA_H
#define WBERR_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

struct pctx;

enum ytype {
	Y_NAME,		/* [A-Za-z0-9_.-]+ into char[size] */
	Y_STR,		/* a string into char[size] */
	Y_U64,		/* an integer (k/m/g suffix) in [min, max] into an unsigned of size */
	Y_BOOL,		/* true/yes, false/no into an int */
	Y_ENUM,		/* one of names[] into an int (its index) */
	Y_RULE,		/* dm-wberr's rule key rule_key, into a struct wb_rule */
	Y_FN,		/* parsed by fn */
	Y_NODE,		/* kept for later (nodes[]): steps, program, faults, op */
};

/* ykey.flags */
#define YK_COMMON	1	/* step: every op takes it */
#define YK_OP		2	/* step: the op itself, found before the others */

struct ykey {
	const char *name;
	enum ytype type;
	size_t at, size;		/* the field the value fills, in the table's struct */
	uint64_t min, max, dflt;	/* Y_U64 (dflt: Y_BOOL and Y_ENUM too) */
	const char *const *names;	/* Y_ENUM */
	int nnames;
	int rule_key;			/* Y_RULE: WB_KEY_* */
	int (*fn)(struct pctx *c, yaml_node_t *v, void *obj);	/* Y_FN */
	const char *need;		/* required: "" ("missing key '<name>'") or the refusal; NULL: optional */
	const char *doc;		/* what scenarios/README.md says of it, or NULL */
	unsigned flags;			/* YK_* */
};

struct ytable {
	const char *name;		/* the mapping, for messages */
	const struct ykey *keys;
	int n;
	int key_path;			/* the key joins the path (steps[0].fd) for its value */
};

/* the top level (a scenario), a step, a program, and their inner mappings */
extern const struct ytable scenario_schema, step_schema, program_schema;
extern const struct ytable matrix_schema, content_schema, on_kernel_schema, prog_expect_schema;

/* the row named @name of @t, or NULL */
const struct ykey *schema_key(const struct ytable *t, const char *name);

#endif
