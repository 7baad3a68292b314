// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-msgfuzz: generate malformed dm-wberr messages from a seed and
 * (optionally) send each one to a device with the DM_TARGET_MSG ioctl.
 *
 *   wberr-msgfuzz print SEED COUNT LEN       print COUNT messages, one a line
 *   wberr-msgfuzz send DMNAME SEED COUNT LEN send them, report the outcome
 *   wberr-msgfuzz lines DMNAME               send each stdin line as a message
 *
 * LEN is the target length in sectors (so sectors= ranges can be made to
 * end just past it).  Every generated message is malformed by construction:
 * an unknown verb, a bad op class, a refused status, one bad or repeated
 * key=value, a wrong word count, a rule id that does not exist (ids >=
 * 1000000 are never allocated by the suite), or random words.  The
 * generator is a seeded xorshift64*, so a seed always gives the same
 * messages.
 *
 * "send" prints "sent=N einval=N other=N" and one "UNEXPECTED errno=...
 * msg=..." line for every message that did not fail with EINVAL.  Exit
 * status 0 when it ran, 2 on usage or control-device errors.
 *
 * "lines" (no fuzzing: a fast way to send thousands of messages) prints
 * "sent=N ok=N" and one "line L: errno=E msg=..." line per failure.
 *
 * "raw" sends one message with a result buffer of SIZE bytes, as no
 * libdevmapper caller can (it starts large and doubles on a full buffer),
 * and prints "full" or "fits" (DM_BUFFER_FULL_FLAG) then the answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_dmmsg.h"
#include "wb_names.h"
#include "wb_rand.h"
#include "wb_rule.h"

#define MSG_MAX 1024

static struct wb_rand rng;

static uint64_t rnd(void)
{
	return wb_rand_next(&rng);
}

static unsigned int rn(unsigned int n)
{
	return wb_rand_below(&rng, n);
}

static const char *const verbs[] = {
	"add", "remove", "clear", "list", "log", "log_clear", "release", "statuses",
};
/*
 * The valid words, from lib/c's tables (dm-wberr-abi.h): every op class,
 * then "all"; every status name, the alias and every status number.
 */
static const char *classes[8];
static size_t nr_classes;
static const char *statuses[64];
static size_t nr_statuses;
static char status_numbers[32][4];

static void init_words(void)
{
	size_t i;

	for (i = 0; wb_op_names[i].name; i++)
		classes[nr_classes++] = wb_op_names[i].name;
	for (i = 0; i < wb_nr_statuses; i++) {
		statuses[nr_statuses++] = wb_statuses[i].name;
		snprintf(status_numbers[i], sizeof(status_numbers[i]), "%d", wb_statuses[i].blk_sts);
		statuses[nr_statuses++] = status_numbers[i];
	}
	statuses[nr_statuses++] = wb_status_alias;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct msg {
	char buf[MSG_MAX];
	size_t len;
};

static void put(struct msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->len)
		m->buf[m->len++] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, MSG_MAX - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n < MSG_MAX - m->len ? (size_t)n : MSG_MAX - m->len - 1;
}

/* a word of printable characters that is none of @avoid */
static void garbage_word(char *w, size_t size, const char *const *avoid, size_t navoid)
{
	static const char alphabet[] =
		"abcdefghijklmnopqrstuvwxyz_0123456789=,:-+.ABCXYZ!#$%&*/?[]{}~";
	size_t len, i;

	for (;;) {
		len = 1 + rn(size - 2 < 20 ? size - 2 : 20);
		for (i = 0; i < len; i++)
			w[i] = alphabet[rn(sizeof(alphabet) - 1)];
		w[len] = '\0';
		for (i = 0; i < navoid; i++)
			if (!strcmp(w, avoid[i]))
				break;
		if (i == navoid && w[0] != '@')
			return;
	}
}

static void valid_ops(char *w, size_t size, int with_read)
{
	unsigned int mask, c;
	size_t n = 0;

	if (!with_read && !rn(6)) {
		snprintf(w, size, "all");
		return;
	}
	do
		mask = rn(64);
	while (!mask);
	if (with_read)
		mask |= 1;
	w[0] = '\0';
	for (c = 0; c < wb_nr_ops; c++)
		if (mask & (1U << c))
			n += snprintf(w + n, size - n, "%s%s", n ? "," : "", classes[c]);
}

static void bad_ops(char *w, size_t size)
{
	static const char *const fixed[] = {
		"writes", "Write", "READ", "read,", ",read", "read,,write",
		"read,read", "all,read", "write,all", "ALL", "flushes", "fua,fua",
		"discard,write_zeroes,discard", "zeroes", "write-zeroes", ",",
		"rd", "wr", "none", "0",
	};

	if (rn(3)) {
		snprintf(w, size, "%s", fixed[rn(N(fixed))]);
	} else {
		garbage_word(w, size, classes, nr_classes);
		/* a garbage word may still be a valid list: force a bad tail */
		strncat(w, ",x", size - strlen(w) - 1);
	}
}

static void bad_status(char *w, size_t size)
{
	static const char *const fixed[] = {
		"ok", "0", "11", "dm_requeue", "18", "20", "21", "255", "256",
		"-1", "+1", "0x1", "01x", "IOERR", "Timeout", "timeout1", "nexus2",
		"resv-conflict", "99999999999999999999", "18446744073709551615",
		"eio", "EIO", "", "requeue", "zone_resource",
	};

	if (rn(3)) {
		snprintf(w, size, "%s", fixed[rn(N(fixed))]);
		if (!w[0])
			snprintf(w, size, "-");
	} else {
		garbage_word(w, size, statuses, nr_statuses);
		/* numeric garbage could be a valid status number */
		strncat(w, "q", size - strlen(w) - 1);
	}
}

/* the rule keys: dm-wberr-abi.h's table (a test of add's word count relies
 * on there being as many as the target takes) */
#define NR_K WB_KEY__N

static void valid_kv(char *w, size_t size, unsigned int k, unsigned long long len)
{
	const struct wb_rule_key_desc *d = &wb_rule_keys[k];
	unsigned long long a, b, span;

	switch (d->kind) {
	case WBERR_ABI_KIND_RANGE:
		a = rnd() % len;
		b = a + rnd() % (len - a);
		snprintf(w, size, "%s=%llu-%llu", d->wire, a, b);
		break;
	case WBERR_ABI_KIND_NUMBER:
	case WBERR_ABI_KIND_BOOL:
		/* the whole range when it is small (prob, split), else its first 1000 */
		span = d->max - d->min <= WBERR_ABI_PPM ? d->max - d->min + 1 : 1000;
		snprintf(w, size, "%s=%llu", d->wire, (unsigned long long)d->min + rn((unsigned int)span));
		break;
	case WBERR_ABI_KIND_FLAGS: {
		/* distinct flags, each required or ('!') excluded */
		size_t n = 0, i;
		unsigned int nf = 1 + rn(3), start = rn((unsigned int)wb_nr_bio_flags);

		n += (size_t)snprintf(w, size, "%s=", d->wire);
		for (i = 0; i < nf; i++)
			n += (size_t)snprintf(w + n, size - n, "%s%s%s", i ? "," : "",
					      rn(2) ? "!" : "",
					      wb_bio_flag_names[(start + i) % wb_nr_bio_flags]);
		break;
	}
	default:
		/* never a drop: the ops may include read */
		switch (rn(4)) {
		case 0: snprintf(w, size, "action=fail"); break;
		case 1: snprintf(w, size, "action=delay:%u", 1 + rn(WBERR_ABI_DELAY_MAX_MS)); break;
		case 2: snprintf(w, size, "action=delay:%u:fail", 1 + rn(WBERR_ABI_DELAY_MAX_MS)); break;
		default: snprintf(w, size, "action=delay:%u:pass", 1 + rn(WBERR_ABI_DELAY_MAX_MS)); break;
		}
		break;
	}
}

/* a NUMBER key's value just outside its range, from the table */
static void out_of_range(char *w, size_t size)
{
	unsigned int k;

	do
		k = rn(NR_K);
	while (wb_rule_keys[k].kind != WBERR_ABI_KIND_NUMBER && wb_rule_keys[k].kind != WBERR_ABI_KIND_BOOL);
	if (wb_rule_keys[k].min && rn(2))
		snprintf(w, size, "%s=%llu", wb_rule_keys[k].wire, (unsigned long long)wb_rule_keys[k].min - 1);
	else if (wb_rule_keys[k].max == WBERR_ABI_U64_MAX)
		snprintf(w, size, "%s=18446744073709551616", wb_rule_keys[k].wire);
	else
		snprintf(w, size, "%s=%llu", wb_rule_keys[k].wire,
			 (unsigned long long)wb_rule_keys[k].max + 1 + rn(1000));
}

static void bad_kv(char *w, size_t size, unsigned long long len)
{
	char g[32];

	switch (rn(43)) {
	case 0: snprintf(w, size, "sectors=%llu", rnd() % len); break;
	case 1: snprintf(w, size, "sectors=%llu-", rnd() % len); break;
	case 2: snprintf(w, size, "sectors=-%llu", rnd() % len); break;
	case 3: snprintf(w, size, "sectors=%llu-%llu", len / 2 + 1, len / 2); break;
	case 4: snprintf(w, size, "sectors=0-%llu", len); break;
	case 5: snprintf(w, size, "sectors=%llu-%llu", len + rn(100), len + 200); break;
	case 6: snprintf(w, size, "sectors=a-b"); break;
	case 7: snprintf(w, size, "sectors=1-2-3"); break;
	case 8: snprintf(w, size, "skip=-1"); break;
	case 9: snprintf(w, size, "skip="); break;
	case 10: snprintf(w, size, "skip=1x"); break;
	case 11: snprintf(w, size, "count=18446744073709551616"); break;
	case 12: snprintf(w, size, "count=+1"); break;
	case 13: snprintf(w, size, "every=0"); break;
	case 14: snprintf(w, size, "prob=%u", 1000001 + rn(1000)); break;
	case 15: snprintf(w, size, "prob=0x10"); break;
	case 16: snprintf(w, size, "action="); break;
	case 17: snprintf(w, size, "action=delay"); break;
	case 18: snprintf(w, size, "action=delay:0"); break;
	case 19: snprintf(w, size, "action=delay:%u", WBERR_ABI_DELAY_MAX_MS + 1); break;
	case 20: snprintf(w, size, "action=delay:-5"); break;
	case 21: snprintf(w, size, "action=explode"); break;
	case 22: snprintf(w, size, "skip"); break;
	case 23: snprintf(w, size, "=5"); break;
	case 24: snprintf(w, size, "SKIP=1"); break;
	case 25: snprintf(w, size, "sectors=0-%llux", len - 1); break;
	case 26: snprintf(w, size, "action=Fail"); break;
	case 27: snprintf(w, size, "flags="); break;
	case 28: snprintf(w, size, "flags=meta,meta"); break;
	case 29: snprintf(w, size, "flags=sync,!sync"); break;
	case 30: snprintf(w, size, "flags=Meta"); break;
	case 31: snprintf(w, size, "flags=!"); break;
	case 32: snprintf(w, size, "flags=meta,"); break;
	case 33: snprintf(w, size, "flags=write"); break;
	case 34: snprintf(w, size, "split=2"); break;
	case 35: snprintf(w, size, "split="); break;
	case 36: snprintf(w, size, "split=yes"); break;
	case 37: snprintf(w, size, "action=delay:5:explode"); break;
	case 38: snprintf(w, size, "action=delay:5:"); break;
	case 39: snprintf(w, size, "action=pass"); break;
	case 40: snprintf(w, size, "action=delay::pass"); break;
	case 41: out_of_range(w, size); break;
	default: {
		unsigned int i;

		do {
			garbage_word(g, sizeof(g), NULL, 0);
			for (i = 0; i < NR_K; i++)
				if (!strcmp(g, wb_rule_keys[i].wire))
					break;
		} while (i < NR_K || strchr(g, '='));
		snprintf(w, size, "%s=%u", g, rn(10));
	}
	}
}

/* a random subset of distinct keys, in random order */
static unsigned int pick_keys(unsigned int *keys, unsigned int max)
{
	unsigned int n = rn(max + 1), i, j, t;
	unsigned int all[NR_K];

	for (i = 0; i < NR_K; i++)
		all[i] = i;

	for (i = NR_K - 1; i > 0; i--) {
		j = rn(i + 1);
		t = all[i];
		all[i] = all[j];
		all[j] = t;
	}
	for (i = 0; i < n; i++)
		keys[i] = all[i];
	return n;
}

/* up to @max distinct valid key=value words, in random order */
static void put_valid_keys(struct msg *m, unsigned int max, unsigned long long len)
{
	unsigned int keys[NR_K], nk, i;
	char w[64];

	nk = pick_keys(keys, max);
	for (i = 0; i < nk; i++) {
		valid_kv(w, sizeof(w), keys[i], len);
		put(m, "%s", w);
	}
}

/* Each msg_* generator makes one kind of malformed message. */

static void msg_bad_ops(struct msg *m, unsigned long long len)
{
	char a[64], b[64];

	bad_ops(a, sizeof(a));
	snprintf(b, sizeof(b), "%s", statuses[rn(nr_statuses)]);
	put(m, "add %s %s", a, b);
	put_valid_keys(m, 3, len);
}

static void msg_bad_status(struct msg *m, unsigned long long len)
{
	char a[64], b[64];

	valid_ops(a, sizeof(a), 0);
	bad_status(b, sizeof(b));
	put(m, "add %s %s", a, b);
	put_valid_keys(m, 3, len);
}

/* one bad key=value among good ones */
static void msg_bad_kv(struct msg *m, unsigned long long len)
{
	char a[64], w[64];
	unsigned int keys[NR_K], nk, i, bad_at;

	valid_ops(a, sizeof(a), 0);
	put(m, "add %s %s", a, statuses[rn(nr_statuses)]);
	nk = pick_keys(keys, 5);
	bad_at = rn(nk + 1);
	for (i = 0; i <= nk; i++) {
		if (i == bad_at) {
			bad_kv(w, sizeof(w), len);
			put(m, "%s", w);
		}
		if (i < nk) {
			valid_kv(w, sizeof(w), keys[i], len);
			put(m, "%s", w);
		}
	}
}

/* a key given twice */
static void msg_repeated_key(struct msg *m, unsigned long long len)
{
	char a[64], w[64];
	unsigned int i;

	valid_ops(a, sizeof(a), 0);
	put(m, "add %s %s", a, statuses[rn(nr_statuses)]);
	i = rn(NR_K);
	valid_kv(w, sizeof(w), i, len);
	put(m, "%s", w);
	valid_kv(w, sizeof(w), i, len);
	put(m, "%s", w);
}

/* drop on reads */
static void msg_drop_on_read(struct msg *m, unsigned long long len)
{
	char a[64];

	(void)len;
	valid_ops(a, sizeof(a), 1);
	if (rn(2))
		put(m, "add %s %s action=drop", a, statuses[rn(nr_statuses)]);
	else
		put(m, "add %s %s action=delay:%u:drop", a, statuses[rn(nr_statuses)],
		    1 + rn(WBERR_ABI_DELAY_MAX_MS));
}

/* wrong word count for add */
static void msg_add_word_count(struct msg *m, unsigned long long len)
{
	char a[64], w[64];
	unsigned int i;

	switch (rn(3)) {
	case 0:
		put(m, "add");
		break;
	case 1:
		valid_ops(a, sizeof(a), 0);
		put(m, "add %s", a);
		break;
	default:
		valid_ops(a, sizeof(a), 0);
		put(m, "add %s %s", a, statuses[rn(nr_statuses)]);
		for (i = 0; i < NR_K + 1 + rn(3); i++) {
			valid_kv(w, sizeof(w), i % NR_K, len);
			put(m, "%s", w);
		}
	}
}

static void msg_bad_remove(struct msg *m, unsigned long long len)
{
	char w[64];

	(void)len;
	switch (rn(6)) {
	case 0: put(m, "remove"); break;
	case 1: put(m, "remove %u", 1000000 + rn(1000000)); break;
	case 2: put(m, "remove 4294967296"); break;
	case 3: put(m, "remove -1"); break;
	case 4: put(m, "remove 1 2"); break;
	default:
		garbage_word(w, sizeof(w), NULL, 0);
		put(m, "remove %sz", w);
	}
}

/* verbs without arguments given some */
static void msg_extra_argument(struct msg *m, unsigned long long len)
{
	char w[64];

	(void)len;
	garbage_word(w, sizeof(w), NULL, 0);
	put(m, "%s %s", (const char *[]){ "clear", "list", "log_clear", "release", "statuses" }[rn(5)], w);
}

static void msg_bad_log(struct msg *m, unsigned long long len)
{
	(void)len;
	switch (rn(5)) {
	case 0: put(m, "log x"); break;
	case 1: put(m, "log 1 2"); break;
	case 2: put(m, "log -1"); break;
	case 3: put(m, "log 18446744073709551616"); break;
	default: put(m, "log 0x10"); break;
	}
}

/* unknown verbs, near misses first */
static void msg_unknown_verb(struct msg *m, unsigned long long len)
{
	static const char *const near[] = {
		"ADD", "Add", "adds", "List", "lists", "remove_all", "log-clear",
		"logclear", "CLEAR", "del", "delete", "status", "help", "reset",
	};
	char w[64];

	(void)len;
	if (rn(2))
		put(m, "%s", near[rn(N(near))]);
	else {
		garbage_word(w, sizeof(w), verbs, N(verbs));
		put(m, "%s", w);
	}
	if (rn(2))
		put(m, "write ioerr");
}

/* garbage words after a garbage verb */
static void msg_garbage(struct msg *m, unsigned long long len)
{
	char w[64];
	unsigned int i;

	(void)len;
	garbage_word(w, sizeof(w), verbs, N(verbs));
	put(m, "%s", w);
	for (i = rn(6); i; i--) {
		garbage_word(w, sizeof(w), NULL, 0);
		put(m, "%s", w);
	}
}

/* the kinds of malformed message, equally likely (one bad key=value twice as) */
static void (*const generators[])(struct msg *, unsigned long long) = {
	msg_bad_ops, msg_bad_status, msg_bad_kv, msg_bad_kv, msg_repeated_key,
	msg_drop_on_read, msg_add_word_count, msg_bad_remove, msg_extra_argument,
	msg_bad_log, msg_unknown_verb, msg_garbage,
};

static void gen(struct msg *m, unsigned long long len)
{
	m->len = 0;
	m->buf[0] = '\0';
	generators[rn(N(generators))](m, len);
}

/* one message at libdevmapper's first buffer size: 0 or the errno */
static int send_msg(int ctl, const char *name, const char *text)
{
	struct wb_dmmsg m = { 0 };
	int err = wb_dmmsg_sized(ctl, name, text, WB_DMMSG_MIN_BUF, &m);

	wb_dmmsg_free(&m);
	return err;
}

static void usage(void)
{
	fprintf(stderr, "usage: wberr-msgfuzz print SEED COUNT LEN\n"
			"       wberr-msgfuzz send DMNAME SEED COUNT LEN\n"
			"       wberr-msgfuzz lines DMNAME < MESSAGES\n"
			"       wberr-msgfuzz raw DMNAME SIZE MESSAGE\n");
	exit(2);
}

static int open_control(void)
{
	int ctl = open("/dev/mapper/control", O_RDWR);

	if (ctl < 0)
		perror("wberr-msgfuzz: /dev/mapper/control");
	return ctl;
}

/* "lines DMNAME": each stdin line sent as it is */
static int run_lines(int argc, char **argv)
{
	char line[MSG_MAX];
	unsigned long long n = 0, ok = 0;
	int ctl, err;

	if (argc != 3)
		usage();
	ctl = open_control();
	if (ctl < 0)
		return 2;
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		n++;
		err = send_msg(ctl, argv[2], line);
		if (!err)
			ok++;
		else
			printf("line %llu: errno=%d msg=%s\n", n, err, line);
	}
	printf("sent=%llu ok=%llu\n", n, ok);
	return 0;
}

/* "raw DMNAME SIZE MESSAGE": one message with a result buffer of SIZE bytes */
static int run_raw(int argc, char **argv)
{
	struct wb_dmmsg m = { 0 };
	size_t size;
	int ctl, err;

	if (argc != 5)
		usage();
	size = strtoul(argv[3], NULL, 0);
	if (size < sizeof(struct dm_target_msg) + strlen(argv[4]) + 1 ||
	    size > WB_DMMSG_MIN_BUF - sizeof(struct dm_ioctl))
		usage();
	ctl = open_control();
	if (ctl < 0)
		return 2;
	err = wb_dmmsg_sized(ctl, argv[2], argv[4], sizeof(struct dm_ioctl) + size, &m);
	if (err) {
		printf("errno=%d\n", err);
		wb_dmmsg_free(&m);
		return 1;
	}
	printf("%s\n", m.full ? "full" : "fits");
	if (m.reply)
		printf("%.*s", (int)size, m.reply);
	wb_dmmsg_free(&m);
	return 0;
}

static void print_generated(unsigned long long count, unsigned long long len)
{
	struct msg m;

	for (unsigned long long i = 0; i < count; i++) {
		gen(&m, len);
		printf("%s\n", m.buf);
	}
}

/* every generated message must be refused with EINVAL */
static void send_generated(int ctl, const char *name, unsigned long long count,
			   unsigned long long len)
{
	unsigned long long einval = 0, other = 0;
	struct msg m;
	int err;

	for (unsigned long long i = 0; i < count; i++) {
		gen(&m, len);
		err = send_msg(ctl, name, m.buf);
		if (err == EINVAL) {
			einval++;
		} else {
			other++;
			printf("UNEXPECTED errno=%d msg=%s\n", err, m.buf);
		}
	}
	printf("sent=%llu einval=%llu other=%llu\n", count, einval, other);
}

/* "print SEED COUNT LEN" and "send DMNAME SEED COUNT LEN" */
static int run_generated(int argc, char **argv)
{
	unsigned long long seed, count, len;
	int send = !strcmp(argv[1], "send"), ctl;

	if (!send && strcmp(argv[1], "print"))
		usage();
	if (argc != (send ? 6 : 5))
		usage();
	seed = strtoull(argv[2 + send], NULL, 0);
	count = strtoull(argv[3 + send], NULL, 0);
	len = strtoull(argv[4 + send], NULL, 0);
	if (len < 2)
		usage();
	wb_rand_seed(&rng, seed);
	if (!send) {
		print_generated(count, len);
		return 0;
	}
	ctl = open_control();
	if (ctl < 0)
		return 2;
	send_generated(ctl, argv[2], count, len);
	return 0;
}

int main(int argc, char **argv)
{
	init_words();
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "lines"))
		return run_lines(argc, argv);
	if (!strcmp(argv[1], "raw"))
		return run_raw(argc, argv);
	return run_generated(argc, argv);
}
