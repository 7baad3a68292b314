// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-rulemodel: a model-based test of dm-wberr's rule set.  Sends COUNT
 * random valid messages (add, remove, clear, list, and removes of ids that
 * do not exist) to a dm-wberr device while the caller runs I/O on it, and
 * keeps a userspace model of what the rule set must be:
 *
 *   wberr-rulemodel DMNAME SEED COUNT LEN [PAUSE_US]
 *
 * LEN is the target length in sectors; PAUSE_US (default 0) a pause after
 * each message, so that the caller's I/O meets many rule sets.
 * The statuses, and their numbers, are the kernel's: the device's
 * "statuses" reply (name=value in value order; 6.1 numbers some statuses
 * differently and lacks others), never a table of our own.
 *
 * Checked against the model:
 *  - every add is answered with the next id, every remove of a rule that
 *    exists succeeds and every other one fails with EINVAL;
 *  - after every message, "list" shows exactly the model's rules, each in
 *    its canonical form (ops in bit order or "all", the status by name,
 *    every key spelt out, delay:<ms>:fail as delay:<ms>, flags= in the
 *    log's order, split=1 only when set);
 *  - at the end, every fault-log entry belongs to a rule that existed and
 *    agrees with it (op class, flags, sectors, a split rule's piece inside
 *    its range, the status or "ok" for a drop; never a passed bio), and
 *    each rule still present has fired exactly as often as it is logged
 *    (none for a delay:<ms>:pass rule).  The device needs a log that
 *    cannot wrap during the run (log_size 65536).
 *
 * Prints one "MISMATCH ..." line per disagreement and a summary line
 * "messages=N adds=N removes=N bad_removes=N clears=N rules=N log=N
 * mismatches=N".  Exit status 0 when all agreed, 1 when not, 2 on usage or
 * device errors.  The generator is a seeded xorshift64*.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm-wberr-abi.h"
#include "wb_dm.h"
#include "wb_faultlog.h"
#include "wb_names.h"
#include "wb_rand.h"
#include "wb_rule.h"
#include "wb_wberr.h"

#define MAX_LIVE	64
#define OUT_MAX		(1 << 20)

/* one status of the device's "statuses" reply */
struct kstatus {
	char name[32];
	unsigned int value;		/* this kernel's blk_status_t */
};

/* a rule of the model: lib/c's wb_rule (its status by name), as "list" shows it */
struct mrule {
	unsigned int id;
	struct wb_rule r;
	const struct kstatus *status;
	int live;
	char canon[512];
};

static struct kstatus kstatuses[64];
static unsigned int nr_kstatuses;
static struct wb_rand rng;
static struct mrule *rules;		/* every rule ever added, id - 1 */
static unsigned int nr_rules;
static unsigned long mismatches;
static struct wb_wberr dev;		/* the device; its last response */

static uint64_t rnd(void)
{
	return wb_rand_next(&rng);
}

static unsigned int rn(unsigned int n)
{
	return wb_rand_below(&rng, n);
}

static void mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void mismatch(const char *fmt, ...)
{
	va_list ap;

	mismatches++;
	printf("MISMATCH ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* the flags worth matching on the I/O the test runs, as indexes */
static int flag_index(const char *name)
{
	for (size_t i = 0; i < wb_nr_bio_flags; i++)
		if (!strcmp(wb_bio_flag_names[i], name))
			return (int)i;
	return -1;
}

/* @r's key @k as a word of the add message */
static void word(const struct mrule *m, int k, char *w, size_t len)
{
	wb_rule_format_key(&m->r, k, w, len);
}

/* the add message's key=value words, in the order drawn */
struct add_words {
	char w[8][96];
	unsigned int n;
};

/* the next word to fill, counted */
static char *next_word(struct add_words *aw)
{
	return aw->w[aw->n++];
}

/* sectors=, half the time; most ranges in the sectors the I/O touches (0-4095) */
static void draw_range(struct mrule *m, uint64_t len, struct add_words *aw)
{
	struct wb_rule *r = &m->r;

	r->first = 0;
	r->last = len - 1;
	if (rn(2)) {
		uint64_t span = rn(4) ? 4096 : len;

		r->first = rnd() % span;
		r->last = r->first + rnd() % (rn(2) ? 64 : span - r->first);
		if (r->last >= len)
			r->last = len - 1;
		word(m, WB_KEY_SECTORS, next_word(aw), sizeof(aw->w[0]));
	}
}

/* skip=, count=, every= and prob=, each now and then */
static void draw_counters(struct mrule *m, struct add_words *aw)
{
	struct wb_rule *r = &m->r;

	if (rn(3) == 0) {
		r->skip = rn(4);
		word(m, WB_KEY_SKIP, next_word(aw), sizeof(aw->w[0]));
	}
	if (rn(3) == 0) {
		r->count = rn(6);
		word(m, WB_KEY_COUNT, next_word(aw), sizeof(aw->w[0]));
	}
	if (rn(3) == 0) {
		r->every = 1 + rn(3);
		word(m, WB_KEY_EVERY, next_word(aw), sizeof(aw->w[0]));
	}
	if (rn(4) == 0) {
		r->prob = rn(2) ? rn(1000001) : 1000000;
		word(m, WB_KEY_PROB, next_word(aw), sizeof(aw->w[0]));
	}
}

/* action=, half the time: fail, drop or pass, with or without a delay */
static void draw_action(struct mrule *m, struct add_words *aw)
{
	struct wb_rule *r = &m->r;
	unsigned int a;

	if (!rn(2))
		return;
	a = rn(5);
	if ((a == 1 || a == 3) && (r->ops & WB_OP_READ))
		a = 0;	/* a drop on reads is refused */
	r->action = a == 1 || a == 3 ? WB_ACT_DROP : a == 4 ? WB_ACT_PASS : WB_ACT_FAIL;
	r->delay_ms = a >= 2 ? 1 + rn(20) : 0;
	if (r->delay_ms && r->action == WB_ACT_FAIL && rn(2))
		snprintf(next_word(aw), sizeof(aw->w[0]), "action=delay:%u:fail", r->delay_ms);
	else
		word(m, WB_KEY_ACTION, next_word(aw), sizeof(aw->w[0]));
}

/* flags=, now and then: one or two distinct flags, each required or excluded */
static void draw_flags(struct mrule *m, struct add_words *aw)
{
	static const char *const flag_pool[] = { "sync", "idle", "nowait", "meta", "background", "fua" };
	struct wb_rule *r = &m->r;
	unsigned int nf, i;
	char *w;
	size_t n;

	if (rn(3) != 0)
		return;
	nf = 1 + rn(2);
	w = next_word(aw);
	/* in the order drawn, not the log's: the target takes any */
	n = (size_t)snprintf(w, sizeof(aw->w[0]), "flags=");
	for (i = 0; i < nf; i++) {
		int f = flag_index(flag_pool[rn(sizeof(flag_pool) / sizeof(flag_pool[0]))]);

		if ((r->flags_set | r->flags_clear) & (1U << f))
			continue;
		if (rn(3) == 0)
			r->flags_clear |= 1U << f;
		else
			r->flags_set |= 1U << f;
		n += (size_t)snprintf(w + n, sizeof(aw->w[0]) - n, "%s%s%s",
				      n > 6 ? "," : "", r->flags_clear & (1U << f) ? "!" : "",
				      wb_bio_flag_names[f]);
	}
}

/* split=, now and then */
static void draw_split(struct mrule *m, struct add_words *aw)
{
	struct wb_rule *r = &m->r;

	if (rn(3) == 0) {
		/* split=1 only for the classes it may cut (dm-wberr-abi.h) */
		r->split = !(r->ops & ~WB_OP_SPLIT) && rn(2);
		word(m, WB_KEY_SPLIT, next_word(aw), sizeof(aw->w[0]));
	}
}

/*
 * "OPS STATUS" then the words in random order; the status by name, by the
 * alias or by number.  The number has a buffer of its own: it was
 * formatted into w[7], which when all eight keys were drawn overwrote
 * split= (the message carried the number twice, about 1 add in 11,000).
 */
static void format_add(const struct mrule *m, struct add_words *aw, char *msg, size_t msize)
{
	unsigned int order[8], i, j, t;
	char ops[64], num[16];
	size_t n;

	for (i = 0; i < aw->n; i++)
		order[i] = i;
	for (i = aw->n; i > 1; i--) {
		j = rn(i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	wb_op_format(m->r.ops, ops, sizeof(ops));
	n = (size_t)snprintf(msg, msize, "%s %s", ops,
			     !strcmp(m->status->name, wb_status_alias_of) && rn(2) ? wb_status_alias :
			     rn(3) == 0 ? (snprintf(num, sizeof(num), "%u", m->status->value), num) :
			     m->status->name);
	for (i = 0; i < aw->n; i++)
		n += (size_t)snprintf(msg + n, msize - n, " %s", aw->w[order[i]]);
}

/* A random valid rule and the add message for it, keys in random order. */
static void gen_rule(struct mrule *m, uint64_t len, char *msg, size_t msize)
{
	struct wb_rule *r = &m->r;
	struct add_words aw = { .n = 0 };

	memset(m, 0, sizeof(*m));
	wb_rule_init(r);
	do
		r->ops = rn(64);
	while (!r->ops);
	m->status = &kstatuses[rn(nr_kstatuses)];
	snprintf(r->status, sizeof(r->status), "%s", m->status->name);
	draw_range(m, len, &aw);
	draw_counters(m, &aw);
	draw_action(m, &aw);
	draw_flags(m, &aw);
	draw_split(m, &aw);
	format_add(m, &aw, msg, msize);
}

/* a refusal other than EINVAL (which the caller judges) ends the run */
static int sent(int err)
{
	if (err && err != -EINVAL && err != -EPROTO) {
		fprintf(stderr, "wberr-rulemodel: message '%s': %s\n", dev.sent, wb_dm_error());
		exit(2);
	}
	return err;
}

/* the device's "statuses" reply into kstatuses[]; exits 2 when unusable */
static void load_statuses(void)
{
	char *word, *save = NULL, *eq;
	unsigned int v;

	if (sent(wb_wberr_message(&dev, "statuses"))) {
		fprintf(stderr, "wberr-rulemodel: the device refuses 'statuses' (dm-wberr older than 1.2?)\n");
		exit(2);
	}
	for (word = strtok_r(dev.resp, " \n", &save); word; word = strtok_r(NULL, " \n", &save)) {
		eq = strchr(word, '=');
		if (!eq || eq == word || (size_t)(eq - word) >= sizeof(kstatuses[0].name) ||
		    sscanf(eq + 1, "%u", &v) != 1 ||
		    nr_kstatuses == sizeof(kstatuses) / sizeof(kstatuses[0])) {
			fprintf(stderr, "wberr-rulemodel: bad word '%s' in the statuses reply\n", word);
			exit(2);
		}
		*eq = '\0';
		snprintf(kstatuses[nr_kstatuses].name, sizeof(kstatuses[0].name), "%s", word);
		kstatuses[nr_kstatuses++].value = v;
	}
	if (!nr_kstatuses) {
		fprintf(stderr, "wberr-rulemodel: the statuses reply is empty\n");
		exit(2);
	}
	printf("statuses=%u, the last %s=%u\n", nr_kstatuses,
	       kstatuses[nr_kstatuses - 1].name, kstatuses[nr_kstatuses - 1].value);
}

/* "list" against the model's live rules, in id order; each line read back
 * by lib/c's parser must give the model's rule again */
static void check_list(unsigned long step)
{
	unsigned int next = 0, id;
	uint64_t matched, fired;
	struct wb_rule back;
	char *line, *save = NULL, *m, again[512];

	if (sent(wb_wberr_message(&dev, "list")))
		mismatch("step %lu: list refused", step);
	for (line = strtok_r(dev.resp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (next < nr_rules && !rules[next].live)
			next++;
		if (wb_rule_parse_listed(line, &id, &back, &matched, &fired) ||
		    wb_rule_format_listed(&back, id, again, sizeof(again)) || strncmp(line, again, strlen(again)))
			mismatch("step %lu: list line '%s' does not read back ('%s')", step, line, again);
		m = strstr(line, " matched=");
		if (m)
			*m = '\0';
		if (next == nr_rules) {
			mismatch("step %lu: list has '%s', the model no more rules", step, line);
			return;
		}
		if (strcmp(line, rules[next].canon))
			mismatch("step %lu: list has '%s', the model '%s'", step, line,
				 rules[next].canon);
		next++;
	}
	while (next < nr_rules && !rules[next].live)
		next++;
	if (next < nr_rules)
		mismatch("step %lu: list lacks '%s'", step, rules[next].canon);
}

static int has_flag(const char *flags, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = flags; *p; p = strchr(p, '|') ? strchr(p, '|') + 1 : p + strlen(p))
		if (!strncmp(p, name, l) && (p[l] == '|' || !p[l]))
			return 1;
	return 0;
}

struct log_check {
	unsigned long *logged;		/* entries per rule */
	unsigned long n;
	uint64_t expect_seq;
};

/* one log entry against the rule it names (wb_wberr_log's callback) */
static int check_entry(void *arg, const char *line, const struct wb_fault *f)
{
	struct log_check *lc = arg;
	const struct mrule *m;
	const struct wb_rule *r;
	int class_bit;

	if (!f) {
		mismatch("log line '%s' does not parse", line);
		return 1;
	}
	lc->n++;
	if (f->seq != lc->expect_seq)
		mismatch("log seq %" PRIu64 " after %" PRIu64 " (the log wrapped?)", f->seq, lc->expect_seq);
	lc->expect_seq = f->seq + 1;
	if (!f->rule || f->rule > nr_rules) {
		mismatch("log '%s': no rule %u was ever added", line, f->rule);
		return 0;
	}
	m = &rules[f->rule - 1];
	r = &m->r;
	lc->logged[f->rule - 1]++;
	class_bit = wb_name_lookup(wb_op_names, f->opclass);
	if (class_bit < 0 || !(r->ops & (unsigned int)class_bit))
		mismatch("log '%s': op %s is not in rule '%s'", line, f->opclass, m->canon);
	for (size_t i = 0; i < wb_nr_bio_flags; i++) {
		int has = has_flag(f->flags, wb_bio_flag_names[i]);

		if (((r->flags_set >> i) & 1) && !has)
			mismatch("log '%s': lacks %s, rule '%s'", line, wb_bio_flag_names[i], m->canon);
		if (((r->flags_clear >> i) & 1) && has)
			mismatch("log '%s': has %s, rule '%s'", line, wb_bio_flag_names[i], m->canon);
	}
	if (strcmp(f->opclass, "flush")) {
		uint64_t last = f->sector + (f->nr ? f->nr : 1) - 1;

		if (last < r->first || f->sector > r->last)
			mismatch("log '%s': outside rule '%s'", line, m->canon);
		else if (r->split && (f->sector < r->first || last > r->last))
			mismatch("log '%s': a split rule's piece sticks out of '%s'", line, m->canon);
	}
	if (r->action == WB_ACT_PASS)
		mismatch("log '%s': a passed bio is never logged ('%s')", line, m->canon);
	else if (strcmp(f->status, r->action == WB_ACT_DROP ? "ok" : r->status))
		mismatch("log '%s': status %s, rule '%s'", line, f->status, m->canon);
	return 0;
}

/* every log entry against the rule it names; counts per rule into @logged */
static unsigned long check_log(unsigned long *logged)
{
	struct log_check lc = { .logged = logged };
	uint64_t from = 0;
	int rc = wb_wberr_log(&dev, &from, 0, check_entry, &lc);

	if (rc < 0 && sent(rc))
		mismatch("log %" PRIu64 " refused", from);
	return lc.n;
}

/* each live rule's fired= against its log entries */
static void check_fired(const unsigned long *logged)
{
	char *line, *save = NULL;
	unsigned int id;
	uint64_t matched, fired;
	struct wb_rule r;

	if (sent(wb_wberr_message(&dev, "list")))
		mismatch("final list refused");
	for (line = strtok_r(dev.resp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (wb_rule_parse_listed(line, &id, &r, &matched, &fired) || !id || id > nr_rules) {
			mismatch("final list line '%s'", line);
			continue;
		}
		if (rules[id - 1].r.action == WB_ACT_PASS ? logged[id - 1] != 0 : fired != logged[id - 1])
			mismatch("rule %u fired %" PRIu64 " times, logged %lu ('%s')", id, fired,
				 logged[id - 1], rules[id - 1].canon);
	}
}

struct counts {
	unsigned long adds, removes, bad_removes, clears;
	unsigned int live, expect_id;
};

/* a random rule added, and to the model; exits 2 on a device not new */
static void step_add(struct counts *c, unsigned long i, uint64_t len)
{
	struct mrule *m = &rules[nr_rules];
	unsigned int id;
	char msg[1024];
	int err;

	gen_rule(m, len, msg, sizeof(msg));
	err = sent(wb_wberr_add_text(&dev, msg, &id));
	if (err) {
		mismatch("step %lu: 'add %s' refused (%d)", i, msg, err);
		return;
	}
	if (c->expect_id && id != c->expect_id)
		mismatch("step %lu: add answered id %u, want %u", i, id, c->expect_id);
	/* the model indexes rules by id - 1 */
	if (nr_rules == 0 && id != 1) {
		fprintf(stderr, "wberr-rulemodel: needs a new device (first id %u)\n", id);
		exit(2);
	}
	m->id = id;
	m->live = 1;
	wb_rule_format_listed(&m->r, id, m->canon, sizeof(m->canon));
	nr_rules++;
	c->live++;
	c->adds++;
	c->expect_id = id + 1;
}

/* a live rule removed, picked at random */
static void step_remove(struct counts *c, unsigned long i)
{
	unsigned int k = rn(c->live), j;

	for (j = 0; j < nr_rules; j++)
		if (rules[j].live && !k--)
			break;
	if (sent(wb_wberr_remove(&dev, rules[j].id)))
		mismatch("step %lu: '%s' refused", i, dev.sent);
	rules[j].live = 0;
	c->live--;
	c->removes++;
}

/* a rule that does not exist (removed, or never added): refused with EINVAL */
static void step_bad_remove(struct counts *c, unsigned long i)
{
	unsigned int id = nr_rules && rn(2) ? 1 + rn(nr_rules) : 1000000 + rn(1000);

	if (id <= nr_rules && rules[id - 1].live)
		return;
	if (sent(wb_wberr_remove(&dev, id)) != -EINVAL)
		mismatch("step %lu: '%s' of no rule was not refused with EINVAL", i, dev.sent);
	c->bad_removes++;
}

static void step_clear(struct counts *c, unsigned long i)
{
	if (sent(wb_wberr_clear(&dev)))
		mismatch("step %lu: clear refused", i);
	for (unsigned int j = 0; j < nr_rules; j++)
		rules[j].live = 0;
	c->live = 0;
	c->clears++;
}

int main(int argc, char **argv)
{
	unsigned long count, i, *logged, nlog, pause_us;
	struct counts c = { 0 };
	uint64_t len;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: wberr-rulemodel DMNAME SEED COUNT LEN [PAUSE_US]\n");
		return 2;
	}
	wb_rand_seed(&rng, strtoull(argv[2], NULL, 0));
	count = strtoul(argv[3], NULL, 0);
	len = strtoull(argv[4], NULL, 0);
	pause_us = argc == 6 ? strtoul(argv[5], NULL, 0) : 0;
	rules = calloc(count + 1, sizeof(*rules));
	logged = calloc(count + 1, sizeof(*logged));
	if (wb_wberr_open(&dev, argv[1], OUT_MAX) || !rules || !logged || len < 2)
		return 2;
	load_statuses();

	for (i = 0; i < count; i++) {
		unsigned int what = rn(100);

		if (what < 60 && c.live < MAX_LIVE)
			step_add(&c, i, len);
		else if (what < 85 && c.live)
			step_remove(&c, i);
		else if (what < 95)
			step_bad_remove(&c, i);
		else
			step_clear(&c, i);
		check_list(i);
		if (pause_us)
			usleep((useconds_t)pause_us);
	}

	nlog = check_log(logged);
	check_fired(logged);
	printf("messages=%lu adds=%lu removes=%lu bad_removes=%lu clears=%lu rules=%u log=%lu mismatches=%lu\n",
	       count, c.adds, c.removes, c.bad_removes, c.clears, c.live, nlog, mismatches);
	wb_wberr_close(&dev);
	free(rules);
	free(logged);
	return mismatches ? 1 : 0;
}
