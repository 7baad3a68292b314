/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-wberr's rule grammar from userspace, in one place: the key table
 * (dm-wberr-abi.h's WBERR_ABI_KEY: wire and YAML names, kinds, ranges,
 * defaults), one rule as a struct, the "add" text made of it and a
 * "list" line read back into one.  wberr-run (its scenario parser
 * validates a fault step against the same table), wberr-stress and
 * wberr-rulemodel make their rules here and send them with wb_wberr;
 * wberr-msgfuzz draws its keys from the table.  No libdevmapper here.
 */
#ifndef WB_RULE_H
#define WB_RULE_H

#include <stddef.h>
#include <stdint.h>

enum wb_rule_key {
#define WBERR_ABI_KEY(sfx, ...) WB_KEY_##sfx,
#include "dm-wberr-abi.h"
	WB_KEY__N
};

/* one row of the key table */
struct wb_rule_key_desc {
	const char *wire;	/* "flags" */
	const char *yaml;	/* "bio_flags" */
	int kind;		/* WBERR_ABI_KIND_* */
	uint64_t min, max;	/* NUMBER and BOOL */
	uint64_t dflt;		/* NUMBER and BOOL */
	int listed;		/* WBERR_ABI_LISTED_* */
};
extern const struct wb_rule_key_desc wb_rule_keys[WB_KEY__N];
/* the key named @name (@len bytes) on the wire, or in YAML; -1 if none */
int wb_rule_key_by_wire(const char *name, size_t len);
int wb_rule_key_by_yaml(const char *name);

enum wb_rule_action {
#define WBERR_ABI_ACTION(sfx, name) WB_ACT_##sfx,
#include "dm-wberr-abi.h"
	WB_ACT__N
};
extern const char *const wb_rule_action_names[WB_ACT__N];

struct wb_rule {
	unsigned int ops;		/* WB_OP_* mask */
	char status[32];		/* a name, the alias, a number; wberr-run: "$status" */
	int has_sectors;		/* else the whole target */
	uint64_t first, last;		/* inclusive */
	uint64_t skip, count, every;
	uint64_t prob;			/* ppm */
	int action;			/* WB_ACT_*; PASS only after a delay */
	unsigned int delay_ms;		/* 0: act at once */
	unsigned int flags_set;		/* bits: wb_bio_flag_names[] index */
	unsigned int flags_clear;	/* the '!' ones */
	int split;
};

/* every key at its default (every=1, prob=1000000, ...), no ops, no status */
void wb_rule_init(struct wb_rule *r);
/* 1 when key @k of @r is at its default (the "add" message leaves it out) */
int wb_rule_key_is_default(const struct wb_rule *r, int k);
/* "key=value" of key @k of @r: its length, or -1 when it does not fit */
int wb_rule_format_key(const struct wb_rule *r, int k, char *buf, size_t len);
/* "<ops> <status>" and each key not at its default, in table order: what
 * "add" takes; 0, or -1 when it does not fit */
int wb_rule_format(const struct wb_rule *r, char *buf, size_t len);
/* what "list" prints for rule @id, up to " matched=": every ALWAYS key,
 * the SET ones when set, the status as given */
int wb_rule_format_listed(const struct wb_rule *r, unsigned int id, char *buf, size_t len);

/*
 * Parsers of the values, as dm-wberr takes them: 0, or -1 with the
 * reason in @err.  A key word "key=value" (each key once: *@seen has bit
 * k for key k); an action; a flags list ("meta,!sync").
 */
int wb_rule_parse_word(struct wb_rule *r, const char *word, unsigned int *seen,
		       char *err, size_t errlen);
int wb_rule_parse_action(struct wb_rule *r, const char *s);
int wb_rule_parse_flags(struct wb_rule *r, const char *s, char *err, size_t errlen);
/* one value of a NUMBER or BOOL key, strict decimal, in its range */
int wb_rule_parse_number(int k, const char *s, uint64_t *v);
/* sets key @k (a NUMBER or BOOL) of @r to @v */
void wb_rule_set_number(struct wb_rule *r, int k, uint64_t v);
uint64_t wb_rule_number(const struct wb_rule *r, int k);

/* "<ops> <status> [key=value...]" (an add message's words after "add") */
int wb_rule_parse(struct wb_rule *r, const char *text, char *err, size_t errlen);
/* a "list" line "<id> <rule> matched=<n> fired=<n>"; 0 or -1 */
int wb_rule_parse_listed(const char *line, unsigned int *id, struct wb_rule *r,
			 uint64_t *matched, uint64_t *fired);

#endif
