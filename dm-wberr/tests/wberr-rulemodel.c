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

#define MAX_LIVE	64
#define OUT_MAX		(1 << 20)

enum action { ACT_FAIL, ACT_DROP, ACT_PASS };

/* one status of the device's "statuses" reply */
struct kstatus {
	char name[32];
	unsigned int value;		/* this kernel's blk_status_t */
};

struct mrule {
	unsigned int id;
	unsigned int classes;		/* WB_OP_* bits */
	const struct kstatus *status;
	uint64_t first, last, skip, count, every;
	unsigned int prob, delay_ms;
	enum action action;
	unsigned int flags_set, flags_clear;	/* bits: wb_bio_flag_names index */
	int split, live;
	char canon[512];
};

static struct kstatus kstatuses[64];
static unsigned int nr_kstatuses;
static struct wb_rand rng;
static struct mrule *rules;		/* every rule ever added, id - 1 */
static unsigned int nr_rules;
static unsigned long mismatches;
static char *out;

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

static void format_flags(const struct mrule *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < wb_nr_bio_flags; i++)
		if ((r->flags_set | r->flags_clear) & (1U << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s", n ? "," : "",
					      r->flags_clear & (1U << i) ? "!" : "",
					      wb_bio_flag_names[i]);
}

static void format_action(const struct mrule *r, char *buf, size_t len)
{
	static const char *const names[] = { "fail", "drop", "pass" };

	if (!r->delay_ms)
		snprintf(buf, len, "%s", names[r->action]);
	else if (r->action == ACT_FAIL)
		snprintf(buf, len, "delay:%u", r->delay_ms);
	else
		snprintf(buf, len, "delay:%u:%s", r->delay_ms, names[r->action]);
}

/* what "list" prints for @r, up to " matched=" */
static void canonical(struct mrule *r)
{
	char ops[64], act[32], flags[128];
	int n;

	wb_op_format(r->classes, ops, sizeof(ops));
	format_action(r, act, sizeof(act));
	format_flags(r, flags, sizeof(flags));
	n = snprintf(r->canon, sizeof(r->canon),
		     "%u %s %s sectors=%" PRIu64 "-%" PRIu64 " skip=%" PRIu64 " count=%" PRIu64
		     " every=%" PRIu64 " prob=%u action=%s",
		     r->id, ops, r->status->name, r->first, r->last, r->skip, r->count,
		     r->every, r->prob, act);
	if (flags[0])
		n += snprintf(r->canon + n, sizeof(r->canon) - (size_t)n, " flags=%s", flags);
	if (r->split)
		snprintf(r->canon + n, sizeof(r->canon) - (size_t)n, " split=1");
}

/* A random valid rule and the add message for it, keys in random order. */
static void gen_rule(struct mrule *r, uint64_t len, char *msg, size_t msize)
{
	static const char *const flag_pool[] = { "sync", "idle", "nowait", "meta", "background", "fua" };
	char words[8][96], ops[64];
	unsigned int nw = 0, order[8], i, j, t;
	size_t n;

	memset(r, 0, sizeof(*r));
	do
		r->classes = rn(64);
	while (!r->classes);
	r->status = &kstatuses[rn(nr_kstatuses)];
	r->first = 0;
	r->last = len - 1;
	r->every = 1;
	r->prob = 1000000;

	if (rn(2)) {	/* most ranges in the sectors the I/O touches (0-4095) */
		uint64_t span = rn(4) ? 4096 : len;

		r->first = rnd() % span;
		r->last = r->first + rnd() % (rn(2) ? 64 : span - r->first);
		if (r->last >= len)
			r->last = len - 1;
		snprintf(words[nw++], sizeof(words[0]), "sectors=%" PRIu64 "-%" PRIu64, r->first, r->last);
	}
	if (rn(3) == 0) {
		r->skip = rn(4);
		snprintf(words[nw++], sizeof(words[0]), "skip=%" PRIu64, r->skip);
	}
	if (rn(3) == 0) {
		r->count = rn(6);
		snprintf(words[nw++], sizeof(words[0]), "count=%" PRIu64, r->count);
	}
	if (rn(3) == 0) {
		r->every = 1 + rn(3);
		snprintf(words[nw++], sizeof(words[0]), "every=%" PRIu64, r->every);
	}
	if (rn(4) == 0) {
		r->prob = rn(2) ? rn(1000001) : 1000000;
		snprintf(words[nw++], sizeof(words[0]), "prob=%u", r->prob);
	}
	if (rn(2)) {
		unsigned int a = rn(5);

		if ((a == 1 || a == 3) && (r->classes & WB_OP_READ))
			a = 0;	/* a drop on reads is refused */
		r->action = a == 1 || a == 3 ? ACT_DROP : a == 4 ? ACT_PASS : ACT_FAIL;
		r->delay_ms = a >= 2 ? 1 + rn(20) : 0;
		if (r->delay_ms && r->action == ACT_FAIL && rn(2))
			snprintf(words[nw++], sizeof(words[0]), "action=delay:%u:fail", r->delay_ms);
		else {
			char act[32];

			format_action(r, act, sizeof(act));
			snprintf(words[nw++], sizeof(words[0]), "action=%s", act);
		}
	}
	if (rn(3) == 0) {
		unsigned int nf = 1 + rn(2);

		n = (size_t)snprintf(words[nw], sizeof(words[0]), "flags=");
		for (i = 0; i < nf; i++) {
			int f = flag_index(flag_pool[rn(sizeof(flag_pool) / sizeof(flag_pool[0]))]);

			if ((r->flags_set | r->flags_clear) & (1U << f))
				continue;
			if (rn(3) == 0)
				r->flags_clear |= 1U << f;
			else
				r->flags_set |= 1U << f;
			n += (size_t)snprintf(words[nw] + n, sizeof(words[0]) - n, "%s%s%s",
					      n > 6 ? "," : "", r->flags_clear & (1U << f) ? "!" : "",
					      wb_bio_flag_names[f]);
		}
		nw++;
	}
	if (rn(3) == 0) {
		/* split=1 only for the classes it may cut (dm-wberr-abi.h) */
		r->split = !(r->classes & ~WB_OP_SPLIT) && rn(2);
		snprintf(words[nw++], sizeof(words[0]), "split=%d", r->split);
	}

	for (i = 0; i < nw; i++)
		order[i] = i;
	for (i = nw; i > 1; i--) {
		j = rn(i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	wb_op_format(r->classes, ops, sizeof(ops));
	n = (size_t)snprintf(msg, msize, "add %s %s", ops,
			     !strcmp(r->status->name, wb_status_alias_of) && rn(2) ? wb_status_alias :
			     rn(3) == 0 ? (snprintf(words[7], sizeof(words[7]), "%u", r->status->value),
					   words[7]) : r->status->name);
	for (i = 0; i < nw; i++)
		n += (size_t)snprintf(msg + n, msize - n, " %s", words[order[i]]);
}

static int send(const char *dm, const char *msg)
{
	int err = wb_dm_message(dm, msg, out, OUT_MAX);

	if (err && err != -EINVAL) {
		fprintf(stderr, "wberr-rulemodel: message '%s': %s\n", msg, wb_dm_error());
		exit(2);
	}
	return err;
}

/* the device's "statuses" reply into kstatuses[]; exits 2 when unusable */
static void load_statuses(const char *dm)
{
	char *word, *save = NULL, *eq;
	unsigned int v;

	if (send(dm, "statuses")) {
		fprintf(stderr, "wberr-rulemodel: the device refuses 'statuses' (dm-wberr older than 1.2?)\n");
		exit(2);
	}
	for (word = strtok_r(out, " \n", &save); word; word = strtok_r(NULL, " \n", &save)) {
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

/* "list" against the model's live rules, in id order */
static void check_list(const char *dm, unsigned long step)
{
	unsigned int next = 0;
	char *line, *save = NULL, *m;

	if (send(dm, "list"))
		mismatch("step %lu: list refused", step);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (next < nr_rules && !rules[next].live)
			next++;
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

/* every log entry against the rule it names; counts per rule into @logged */
static unsigned long check_log(const char *dm, unsigned long *logged)
{
	uint64_t from = 0, expect_seq = 0;
	unsigned long n = 0;
	char msg[64], *line, *save;
	struct wb_fault f;

	for (;;) {
		snprintf(msg, sizeof(msg), "log %" PRIu64, from);
		if (send(dm, msg)) {
			mismatch("log %" PRIu64 " refused", from);
			return n;
		}
		if (!out[0])
			return n;
		save = NULL;
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			const struct mrule *r;
			int class_bit;

			if (wb_fault_parse(line, &f)) {
				mismatch("log line '%s' does not parse", line);
				return n;
			}
			n++;
			from = f.seq + 1;
			if (f.seq != expect_seq)
				mismatch("log seq %" PRIu64 " after %" PRIu64 " (the log wrapped?)",
					 f.seq, expect_seq);
			expect_seq = f.seq + 1;
			if (!f.rule || f.rule > nr_rules) {
				mismatch("log '%s': no rule %u was ever added", line, f.rule);
				continue;
			}
			r = &rules[f.rule - 1];
			logged[f.rule - 1]++;
			class_bit = wb_name_lookup(wb_op_names, f.opclass);
			if (class_bit < 0 || !(r->classes & (unsigned int)class_bit))
				mismatch("log '%s': op %s is not in rule '%s'", line, f.opclass, r->canon);
			for (size_t i = 0; i < wb_nr_bio_flags; i++) {
				int has = has_flag(f.flags, wb_bio_flag_names[i]);

				if (((r->flags_set >> i) & 1) && !has)
					mismatch("log '%s': lacks %s, rule '%s'", line,
						 wb_bio_flag_names[i], r->canon);
				if (((r->flags_clear >> i) & 1) && has)
					mismatch("log '%s': has %s, rule '%s'", line,
						 wb_bio_flag_names[i], r->canon);
			}
			if (strcmp(f.opclass, "flush")) {
				uint64_t last = f.sector + (f.nr ? f.nr : 1) - 1;

				if (last < r->first || f.sector > r->last)
					mismatch("log '%s': outside rule '%s'", line, r->canon);
				else if (r->split && (f.sector < r->first || last > r->last))
					mismatch("log '%s': a split rule's piece sticks out of '%s'",
						 line, r->canon);
			}
			if (r->action == ACT_PASS)
				mismatch("log '%s': a passed bio is never logged ('%s')", line, r->canon);
			else if (strcmp(f.status, r->action == ACT_DROP ? "ok" : r->status->name))
				mismatch("log '%s': status %s, rule '%s'", line, f.status, r->canon);
		}
	}
}

/* each live rule's fired= against its log entries */
static void check_fired(const char *dm, const unsigned long *logged)
{
	char *line, *save = NULL, *m;
	unsigned int id;
	unsigned long fired;

	if (send(dm, "list"))
		mismatch("final list refused");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		m = strstr(line, " fired=");
		if (sscanf(line, "%u", &id) != 1 || !m || sscanf(m, " fired=%lu", &fired) != 1 ||
		    !id || id > nr_rules) {
			mismatch("final list line '%s'", line);
			continue;
		}
		if (rules[id - 1].action == ACT_PASS ? logged[id - 1] != 0 : fired != logged[id - 1])
			mismatch("rule %u fired %lu times, logged %lu ('%s')", id, fired,
				 logged[id - 1], rules[id - 1].canon);
	}
}

int main(int argc, char **argv)
{
	unsigned long count, i, adds = 0, removes = 0, bad_removes = 0, clears = 0;
	unsigned long *logged, nlog, pause_us;
	unsigned int live = 0, expect_id;
	char msg[1024];
	const char *dm;
	uint64_t len;
	int err;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: wberr-rulemodel DMNAME SEED COUNT LEN [PAUSE_US]\n");
		return 2;
	}
	dm = argv[1];
	wb_rand_seed(&rng, strtoull(argv[2], NULL, 0));
	count = strtoul(argv[3], NULL, 0);
	len = strtoull(argv[4], NULL, 0);
	pause_us = argc == 6 ? strtoul(argv[5], NULL, 0) : 0;
	out = malloc(OUT_MAX);
	rules = calloc(count + 1, sizeof(*rules));
	logged = calloc(count + 1, sizeof(*logged));
	if (!out || !rules || !logged || len < 2)
		return 2;

	expect_id = 0;
	load_statuses(dm);

	for (i = 0; i < count; i++) {
		unsigned int what = rn(100);

		if (what < 60 && live < MAX_LIVE) {
			struct mrule *r = &rules[nr_rules];
			unsigned int id;

			gen_rule(r, len, msg, sizeof(msg));
			err = send(dm, msg);
			if (err || sscanf(out, "%u", &id) != 1) {
				mismatch("step %lu: '%s' refused (%d)", i, msg, err);
				continue;
			}
			if (expect_id && id != expect_id)
				mismatch("step %lu: add answered id %u, want %u", i, id, expect_id);
			/* the model indexes rules by id - 1 */
			if (nr_rules == 0 && id != 1) {
				fprintf(stderr, "wberr-rulemodel: needs a new device (first id %u)\n", id);
				return 2;
			}
			r->id = id;
			r->live = 1;
			canonical(r);
			nr_rules++;
			live++;
			adds++;
			expect_id = id + 1;
		} else if (what < 85 && live) {
			unsigned int k = rn(live), j;

			for (j = 0; j < nr_rules; j++)
				if (rules[j].live && !k--)
					break;
			snprintf(msg, sizeof(msg), "remove %u", rules[j].id);
			if (send(dm, msg))
				mismatch("step %lu: '%s' refused", i, msg);
			rules[j].live = 0;
			live--;
			removes++;
		} else if (what < 95) {
			unsigned int id = nr_rules && rn(2) ? 1 + rn(nr_rules) : 1000000 + rn(1000);

			if (id <= nr_rules && rules[id - 1].live)
				continue;
			snprintf(msg, sizeof(msg), "remove %u", id);
			if (send(dm, msg) != -EINVAL)
				mismatch("step %lu: '%s' of no rule was not refused with EINVAL", i, msg);
			bad_removes++;
		} else {
			if (send(dm, "clear"))
				mismatch("step %lu: clear refused", i);
			for (unsigned int j = 0; j < nr_rules; j++)
				rules[j].live = 0;
			live = 0;
			clears++;
		}
		check_list(dm, i);
		if (pause_us)
			usleep((useconds_t)pause_us);
	}

	nlog = check_log(dm, logged);
	check_fired(dm, logged);
	printf("messages=%lu adds=%lu removes=%lu bad_removes=%lu clears=%lu rules=%u log=%lu mismatches=%lu\n",
	       count, adds, removes, bad_removes, clears, live, nlog, mismatches);
	free(out);
	free(rules);
	free(logged);
	return mismatches ? 1 : 0;
}
