// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-wberr: a device-mapper target that fails chosen bios with a chosen
 * blk_status_t.
 *
 * The target remaps like dm-linear.  Rules, given in the table line or
 * added at run time with "dmsetup message", pick bios by op class, sector
 * range and bio flags, decide when to fire (skip, every, count, seeded
 * probability) and what to do (complete with the status, complete with
 * success without writing, optionally after holding the bio, or hold the
 * bio and then pass it on).  A rule may split a bio at its range, so that
 * only the sectors inside fail.  Every failed or dropped bio is recorded in
 * a bounded log, and every firing in the wberr_fault tracepoint.
 *
 * See README.rst next to this file for the table, message and status
 * syntax.
 */

#include <linux/device-mapper.h>

#include <linux/module.h>
#include <linux/init.h>
#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/bio.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/timer.h>
#include <linux/timerqueue.h>
#include <linux/workqueue.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/refcount.h>
#include <linux/sort.h>
#include <linux/utsname.h>

/* dm-wberr-abi.h has no include guard: each include expands one list */
#include "dm-wberr-abi.h"

#define DM_MSG_PREFIX "wberr"

#define WBERR_LOG_SIZE_DEFAULT	1024
#define WBERR_LOG_SIZE_MAX	65536
#define WBERR_MAX_RULES		4096
/* the largest sector filter of a snapshot: 32 KiB, 64 bits a rule */
#define WBERR_FILTER_BITS_MAX	(WBERR_MAX_RULES * 64)
/* snapshot bytes a burst of messages may leave waiting for RCU */
#define WBERR_SNAP_PENDING_MAX	(8UL << 20)
#define WBERR_DELAY_MAX_MS	WBERR_ABI_DELAY_MAX_MS
/* candidates collected by the range index before falling back to a scan */
#define WBERR_MAX_CANDIDATES	16
/* log entries copied out of the spinlock at a time */
#define WBERR_LOG_BATCH		32
#define WBERR_NR_STATUS		WBERR_ABI_NR_STATUS
/* words of one table-line rule: <ops> <status> and one word per key */
#define WBERR_RULE_MAX_WORDS	(2 + WBERR_NR_KEYS)

/* Op classes a rule can match, in the bit order of dm-wberr-abi.h. */
enum wberr_class {
#define WBERR_ABI_OP(sfx, ...)	WBERR_##sfx,
#include "dm-wberr-abi.h"
	WBERR_NR_CLASSES
};

#define WBERR_ALL_CLASSES	((1U << WBERR_NR_CLASSES) - 1)
#define WBERR_DATA_CLASSES	(WBERR_ALL_CLASSES & ~BIT(WBERR_FLUSH))
#define WBERR_NO_CLASS		WBERR_NR_CLASSES

static const char * const wberr_class_names[WBERR_NR_CLASSES] = {
#define WBERR_ABI_OP(sfx, name)						\
	[WBERR_##sfx] = #name,
#include "dm-wberr-abi.h"
};

/*
 * The classes split=1 may cut (dm-wberr-abi.h): dm core forbids
 * dm_accept_partial_bio() on a bio it sends through
 * __send_duplicate_bios(), which serves every discard and write-zeroes
 * bio (cutting one works today only because num_*_bios is 1), and an
 * empty flush has no sectors.
 */
static const bool wberr_class_splits[WBERR_NR_CLASSES] = {
#define WBERR_ABI_SPLIT_OP(sfx)						\
	[WBERR_##sfx] = true,
#include "dm-wberr-abi.h"
};

/*
 * The statuses a rule may complete a bio with, by name, each with the
 * value this kernel gives it: the numbering always comes from the
 * blk_types.h being built against (6.1 and 6.12 differ from 14 on).
 * Deliberately absent: BLK_STS_OK (the error would vanish),
 * BLK_STS_DM_REQUEUE (dm core requeues or rewrites it), values
 * blk_status_to_errno() maps to 0, and anything past blk_errors[].
 *
 * Older kernels lack some of the names dm-wberr-abi.h lists:
 * BLK_STS_RESV_CONFLICT was BLK_STS_NEXUS before 6.5 (the same status and
 * errno, renamed); BLK_STS_DURATION_LIMIT (6.5) and BLK_STS_INVAL (6.10)
 * do not exist.  Those get WBERR_STS_ABSENT, never a number of our own:
 * they stay out of wberr_status_names[] and wberr_parse_status() refuses
 * them by name.  A kernel that has every status the shared header lists
 * (6.12, whose numbering the header records for userspace) must number
 * them as the header does: BUILD_BUG_ON_ZERO keeps the header honest.
 */
#define WBERR_STS_ABSENT	((__force blk_status_t)0xff)

#if defined(BLK_STS_DURATION_LIMIT) && defined(BLK_STS_INVAL)
#define WBERR_STS_ALL_NAMED	1
#else
#define WBERR_STS_ALL_NAMED	0
#endif
#ifndef BLK_STS_RESV_CONFLICT
#define BLK_STS_RESV_CONFLICT	BLK_STS_NEXUS
#endif
#ifndef BLK_STS_DURATION_LIMIT
#define BLK_STS_DURATION_LIMIT	WBERR_STS_ABSENT
#endif
#ifndef BLK_STS_INVAL
#define BLK_STS_INVAL		WBERR_STS_ABSENT
#endif

static const struct wberr_status {
	const char *name;
	blk_status_t status;	/* WBERR_STS_ABSENT: not in this kernel */
} wberr_statuses[] = {
#define WBERR_ABI_STATUS(nr, name, sfx, ...)				\
	{ #name, (__force blk_status_t)((__force u8)BLK_STS_##sfx +	\
		BUILD_BUG_ON_ZERO(WBERR_STS_ALL_NAMED &&		\
				  (__force u8)BLK_STS_##sfx != (nr))) },
#include "dm-wberr-abi.h"
};

/* Indexed by this kernel's blk_status_t values; set up by dm_wberr_init(). */
static const char *wberr_status_names[WBERR_NR_STATUS] __ro_after_init;
/* the largest of them: this kernel's last blk_status_t */
static unsigned int wberr_status_last __ro_after_init;

static int __init wberr_status_init(void)
{
	unsigned int i, v;

	for (i = 0; i < ARRAY_SIZE(wberr_statuses); i++) {
		if (wberr_statuses[i].status == WBERR_STS_ABSENT)
			continue;
		v = (__force u8)wberr_statuses[i].status;
		if (v >= WBERR_NR_STATUS || wberr_status_names[v]) {
			DMERR("status %s has value %u, which is taken or past %u",
			      wberr_statuses[i].name, v, WBERR_NR_STATUS - 1);
			return -EINVAL;
		}
		wberr_status_names[v] = wberr_statuses[i].name;
		wberr_status_last = max(wberr_status_last, v);
	}
	return 0;
}

/* The bio flags a rule can require or exclude, as the log prints them. */
static const struct {
	blk_opf_t flag;
	const char *name;
} wberr_flags[] = {
#define WBERR_ABI_FLAG(sfx, name)	{ REQ_##sfx, #name },
#include "dm-wberr-abi.h"
};

static void wberr_format_flags(blk_opf_t opf, char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < ARRAY_SIZE(wberr_flags); i++)
		if (opf & wberr_flags[i].flag)
			n += scnprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				       wberr_flags[i].name);
	if (!n)
		strscpy(buf, "-", len);
}

/*
 * What a rule does with a bio once it fires (after delay_ms, if set), in
 * the order of dm-wberr-abi.h: fail completes it with the status, drop
 * with success and unwritten, pass remaps it (only after a delay),
 * pass_then_fail remaps it and completes it with the status.
 */
enum wberr_action {
#define WBERR_ABI_ACTION(sfx, ...)	WBERR_ACT_##sfx,
#include "dm-wberr-abi.h"
	WBERR_NR_ACTIONS
};

static const char * const wberr_action_names[WBERR_NR_ACTIONS] = {
#define WBERR_ABI_ACTION(sfx, name)					\
	[WBERR_ACT_##sfx] = #name,
#include "dm-wberr-abi.h"
};

/* The keys of a rule, in the order "list" prints them (dm-wberr-abi.h). */
enum wberr_key {
#define WBERR_ABI_KEY(sfx, ...)	WBERR_KEY_##sfx,
#include "dm-wberr-abi.h"
	WBERR_NR_KEYS
};

/*
 * Each key's name in a message, the kind of its value (WBERR_ABI_KIND_*),
 * the values a NUMBER or BOOL takes, its value when not given and when
 * "list" prints it (WBERR_ABI_LISTED_*).
 */
static const struct wberr_key_desc {
	const char *name;
	unsigned int kind;
	u64 min;
	u64 max;
	u64 dflt;
	unsigned int listed;
} wberr_keys[WBERR_NR_KEYS] = {
/* the YAML name is userspace's: moved last, where "..." drops it */
#define WBERR_ABI_KEY(sfx, wire, yaml, ...)				\
	WBERR_KEY_DESC(sfx, wire, __VA_ARGS__, yaml)
#define WBERR_KEY_DESC(sfx, wire, kind, min, max, dflt, listed, ...)	\
	[WBERR_KEY_##sfx] = { #wire, WBERR_ABI_KIND_##kind, min, max,	\
			      dflt, WBERR_ABI_LISTED_##listed },
#include "dm-wberr-abi.h"
#undef WBERR_KEY_DESC
};

/*
 * "sectors=, skip=, ..., " for the refusal of an unknown key, which prints
 * all but the last ", ".  The suffix moves last, where "..." drops it.
 */
static const char wberr_key_list[] =
#define WBERR_ABI_KEY(sfx, ...)		WBERR_KEY_OPTION(__VA_ARGS__, sfx)
#define WBERR_KEY_OPTION(wire, ...)	#wire "=, "
#include "dm-wberr-abi.h"
#undef WBERR_KEY_OPTION
	;

/*
 * The last sector of a rule given no sectors=: the whole target, whatever
 * its length, also after a keep_rules reload into a longer or a shorter
 * one.  No bio reaches past a target, so matching needs no clamp; "list"
 * prints the target's own last sector.
 */
#define WBERR_TARGET_END	((sector_t)-1)

struct wberr_rule {
	struct rcu_head rcu;
	unsigned int id;
	unsigned int classes;		/* BIT(enum wberr_class) mask */
	blk_opf_t flags_set;		/* flags the bio must carry */
	blk_opf_t flags_clear;		/* flags it must not carry */
	bool split;			/* fail only the sectors in range */
	blk_status_t status;
	enum wberr_action action;
	unsigned int delay_ms;		/* 0: act at once */
	u32 prob;			/* parts per million */
	sector_t first;			/* inclusive, target-relative */
	sector_t last;			/* or WBERR_TARGET_END */
	u64 skip;
	u64 count;			/* 0 = unlimited */
	u64 every;
	atomic64_t matched;
	atomic64_t fired;
};

/* One entry of a per-class range index, sorted by @first. */
struct wberr_range {
	sector_t first;
	sector_t last;
	sector_t maxlast;		/* max of @last over entries [0, i] */
	struct wberr_rule *rule;
};

/*
 * An immutable set of rules.  Messages build a new one and publish it with
 * rcu_assign_pointer(); map reads it under rcu_read_lock().  Rules are
 * shared between consecutive snapshots (their counters are atomics).
 */
struct wberr_snapshot {
	struct rcu_head rcu;
	struct wberr_rules *set;	/* for the RCU callback's accounting */
	size_t size;			/* bytes, as allocated */
	unsigned int nr;
	unsigned int nr_split;		/* rules with split=1 */
	struct wberr_rule **rules;			/* id order */
	unsigned int nr_class[WBERR_NR_CLASSES];
	struct wberr_range *index[WBERR_NR_CLASSES];	/* by first sector */
	/*
	 * Where the rules' ranges lie, coarsely, for map to let most bios
	 * through without looking for a rule (wberr_may_match()): bit b is
	 * set when a range of a data class touches the sectors
	 * [b << filter_shift, (b + 1) << filter_shift).  Past the last bit
	 * only a rule without sectors= (to the target's end, whatever its
	 * length) reaches: filter_beyond says whether there is one.  Flush
	 * rules set no bit: only empty bios match them, and map sends every
	 * empty bio on.  filter_bits is a power of 2, 64 per rule.
	 */
	unsigned long *filter;
	unsigned int filter_bits;
	unsigned int filter_shift;
	bool filter_beyond;
	/*
	 * The class indexes, one after the other, then the rules array, then
	 * the filter.
	 * Typed, so that the sector_t fields get their alignment (a void *
	 * array is only pointer-aligned: 4 bytes on 32-bit, where a u64 may
	 * need 8); a pointer or a long needs no more than a range.
	 */
	struct wberr_range ranges[];
};

struct wberr_log_entry {
	u64 seq;
	u64 ns;
	sector_t sector;
	unsigned int nr_sectors;
	unsigned int rule_id;
	blk_opf_t opf;
	u8 class;
	u8 status;
};

/*
 * A rule set.  A target has its own, except that a table loaded with
 * keep_rules shares the set of the live target it replaces, so that the
 * rules (ids, counters) go on across the table swap without a gap.
 */
struct wberr_rules {
	refcount_t ref;
	struct wberr_snapshot __rcu *snap;
	struct mutex lock;		/* serialises snapshot updates, users */
	/*
	 * The targets sharing the set (wberr_c.set_node): a rule added must
	 * fit each, the live table and one loaded with keep_rules alike.
	 */
	struct list_head users;
	atomic_long_t snap_pending;	/* bytes of snapshots awaiting RCU */
	unsigned int next_id;
};

struct wberr_c {
	struct dm_dev *dev;
	sector_t start;
	struct dm_target *ti;
	struct wberr_rules *rules;
	struct list_head set_node;	/* on rules->users */

	/* the registry keep_rules searches (wberr_targets) */
	struct list_head node;
	struct mapped_device *md;
	u64 resumed;			/* resume generation, 0 = never */

	unsigned int log_size;
	u64 seed;
	/* the optional arguments as given, echoed by "dmsetup table" */
	unsigned int nr_opt_args;
	char *opt_args;

	atomic64_t draws;		/* PRNG stream position */

	u64 __percpu *bios_seen;
	atomic64_t bios_dropped;
	atomic64_t failed[WBERR_NR_STATUS];

	spinlock_t log_lock;		/* protects log, log_next, log_first */
	struct wberr_log_entry *log;
	u64 log_next;			/* seq of the next entry */
	u64 log_first;			/* first seq still visible */

	spinlock_t delay_lock;		/* protects the six below */
	struct timerqueue_head held;	/* held bios, by expiry */
	bool suspending;		/* presuspend .. resume: hold nothing */
	bool released;			/* "release" .. resume: hold nothing */
	u64 stretch_start;		/* ktime_get() ns; 0: none */
	u64 stretch_end;		/* ktime_get() ns (wberr_hold_until()) */
	u64 stretch_len;		/* ns, from max_hold_secs */
	struct timer_list delay_timer;
	struct work_struct delay_work;
	struct workqueue_struct *wq;
};

/* Per-bio state of a bio a rule fired for. */
struct wberr_bio {
	/* on wberr_c.held while held; expires in ktime_get() time */
	struct timerqueue_node node;
	unsigned long acct_start;	/* jiffies, from wberr_acct_start() */
	bool acct;
	enum wberr_action action;
	blk_status_t status;
};

/*
 * Every constructed target, so that a keep_rules constructor can find the
 * live target it replaces (dm exports no way to look at the live table).
 */
static LIST_HEAD(wberr_targets);
static DEFINE_MUTEX(wberr_targets_lock);
static u64 wberr_resume_gen;		/* under wberr_targets_lock */

#define CREATE_TRACE_POINTS
#include "wberr_trace.h"

/* ------------------------------------------------------------------------ */
/* Parsing helpers                                                          */
/* ------------------------------------------------------------------------ */

/*
 * Strict decimal: digits only, no sign, no base prefix, no trailing
 * newline, no overflow.  kstrtou64() accepts "+1", "0x1" (base 0) and a
 * trailing "\n", which would make "list" output disagree with what was
 * typed.
 */
static int wberr_parse_u64(const char *s, u64 *res)
{
	u64 v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (check_mul_overflow(v, (u64)10, &v) ||
		    check_add_overflow(v, (u64)(*s - '0'), &v))
			return -EINVAL;
	}
	*res = v;
	return 0;
}

static int wberr_parse_sector(const char *s, sector_t *res)
{
	u64 v;

	if (wberr_parse_u64(s, &v) || v != (sector_t)v)
		return -EINVAL;
	*res = v;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Constructor / destructor                                                 */
/* ------------------------------------------------------------------------ */

static void wberr_delay_timer_fn(struct timer_list *t);
static void wberr_delay_work_fn(struct work_struct *work);

static int wberr_parse_rule(struct wberr_c *wc, const char *what,
			    unsigned int argc, char **argv,
			    struct wberr_rule *r);
static struct wberr_snapshot *
wberr_build_snapshot_all(struct wberr_rules *set, struct wberr_rule **rules,
			 unsigned int nr);
static void wberr_leave_rules(struct wberr_c *wc);

static struct wberr_rules *wberr_new_rules(void)
{
	struct wberr_rules *set = kzalloc(sizeof(*set), GFP_KERNEL);

	if (!set)
		return NULL;
	refcount_set(&set->ref, 1);
	mutex_init(&set->lock);
	INIT_LIST_HEAD(&set->users);
	set->next_id = 1;
	return set;
}

/* Make @wc a user of @set, which it holds a reference to. */
static void wberr_join_rules(struct wberr_c *wc, struct wberr_rules *set)
{
	lockdep_assert_held(&set->lock);
	wc->rules = set;
	list_add(&wc->set_node, &set->users);
}

/*
 * keep_rules: share the rule set of the live wberr target that starts at
 * the same sector of this device, the one resumed last (a table swap
 * destroys the table it replaces only after resuming the new one).  Its
 * rules must fit the new target.
 */
static int wberr_keep_rules(struct dm_target *ti, struct wberr_c *wc)
{
	struct wberr_c *live = NULL, *it;
	struct wberr_snapshot *snap;
	unsigned int i;
	int r = 0;

	mutex_lock(&wberr_targets_lock);
	list_for_each_entry(it, &wberr_targets, node)
		if (it->md == wc->md && it->ti->begin == ti->begin &&
		    it->resumed && (!live || it->resumed > live->resumed))
			live = it;
	if (!live) {
		mutex_unlock(&wberr_targets_lock);
		ti->error = "keep_rules: no live wberr target starts at this sector of the device";
		return -EINVAL;
	}
	mutex_lock(&live->rules->lock);
	snap = rcu_dereference_protected(live->rules->snap,
					 lockdep_is_held(&live->rules->lock));
	for (i = 0; snap && i < snap->nr; i++) {
		if (snap->rules[i]->last != WBERR_TARGET_END &&
		    snap->rules[i]->last >= ti->len) {
			DMERR("keep_rules: rule %u ends at %llu, past the new target (%llu)",
			      snap->rules[i]->id,
			      (unsigned long long)snap->rules[i]->last,
			      (unsigned long long)ti->len);
			ti->error = "keep_rules: a kept rule ends past the new target";
			r = -EINVAL;
			break;
		}
	}
	if (!r) {
		refcount_inc(&live->rules->ref);
		wberr_join_rules(wc, live->rules);
	}
	mutex_unlock(&live->rules->lock);
	mutex_unlock(&wberr_targets_lock);
	return r;
}

/* Where the optional arguments go while they are parsed. */
struct wberr_opt_rules {
	struct wberr_rule **rules;	/* the table's rules, in order */
	unsigned int nr;
	bool keep;			/* keep_rules */
};

/*
 * The optional arguments' words, after their count: log_size <n>,
 * seed <u64>, keep_rules, and rule <#words> <ops> <status>
 * [<key>=<value>...], in any order.  Each rule is parsed into @opt.
 */
static int wberr_parse_opt_words(struct dm_target *ti, struct wberr_c *wc,
				 struct dm_arg_set *as, unsigned int argc,
				 struct wberr_opt_rules *opt)
{
	static const struct dm_arg _rule_words[] = {
		{2, WBERR_RULE_MAX_WORDS,
		 "Invalid rule word count (2 to 10: <ops> <status> [<key>=<value>...])"},
	};
	bool have_log_size = false, have_seed = false;
	struct wberr_rule tmpl;
	unsigned int words;
	const char *key;
	u64 v;
	int r;

	/* a key added to dm-wberr-abi.h changes the "2 to 10" above */
	BUILD_BUG_ON(WBERR_RULE_MAX_WORDS != 10);
	while (argc) {
		key = dm_shift_arg(as);
		argc--;

		if (!strcmp(key, "keep_rules")) {
			if (opt->keep) {
				ti->error = "Duplicate keep_rules";
				return -EINVAL;
			}
			opt->keep = true;
			continue;
		}
		if (!argc) {
			ti->error = "Missing value after an optional argument";
			return -EINVAL;
		}
		if (!strcmp(key, "rule")) {
			r = dm_read_arg(_rule_words, as, &words, &ti->error);
			if (r)
				return r;
			if (words > --argc) {
				ti->error = "A rule has fewer words than its count";
				return -EINVAL;
			}
			r = wberr_parse_rule(wc, "rule", words, as->argv, &tmpl);
			if (r) {
				ti->error = "Invalid rule (the reason is in the kernel log)";
				return r;
			}
			opt->rules[opt->nr] = kmemdup(&tmpl, sizeof(tmpl), GFP_KERNEL);
			if (!opt->rules[opt->nr]) {
				ti->error = "Cannot allocate a rule";
				return -ENOMEM;
			}
			opt->nr++;
			dm_consume_args(as, words);
			argc -= words;
			continue;
		}

		argc--;
		if (!strcmp(key, "log_size")) {
			if (have_log_size) {
				ti->error = "Duplicate log_size";
				return -EINVAL;
			}
			if (wberr_parse_u64(dm_shift_arg(as), &v) || v < 1 ||
			    v > WBERR_LOG_SIZE_MAX) {
				ti->error = "Invalid log_size (1..65536)";
				return -EINVAL;
			}
			wc->log_size = v;
			have_log_size = true;
		} else if (!strcmp(key, "seed")) {
			if (have_seed) {
				ti->error = "Duplicate seed";
				return -EINVAL;
			}
			if (wberr_parse_u64(dm_shift_arg(as), &v)) {
				ti->error = "Invalid seed (decimal u64)";
				return -EINVAL;
			}
			wc->seed = v;
			have_seed = true;
		} else {
			ti->error = "Unknown optional argument (log_size, seed, keep_rules, rule)";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Publish the table's rules, ids from 1, in one snapshot.  No bio or
 * message can reach the target yet: its table is not live.  On success
 * the snapshot owns the rules.
 */
static int wberr_add_table_rules(struct dm_target *ti, struct wberr_c *wc,
				 struct wberr_opt_rules *opt)
{
	struct wberr_rules *set = wc->rules;
	struct wberr_snapshot *snap;
	unsigned int i;

	if (opt->nr > WBERR_MAX_RULES) {
		ti->error = "More rules than the maximum (4096)";
		return -EINVAL;
	}
	mutex_lock(&set->lock);
	for (i = 0; i < opt->nr; i++)
		opt->rules[i]->id = set->next_id++;
	snap = wberr_build_snapshot_all(set, opt->rules, opt->nr);
	if (IS_ERR(snap)) {
		set->next_id = 1;
		mutex_unlock(&set->lock);
		ti->error = "Cannot allocate the rule set";
		return PTR_ERR(snap);
	}
	rcu_assign_pointer(set->snap, snap);
	mutex_unlock(&set->lock);
	opt->nr = 0;
	return 0;
}

/*
 * The optional arguments: <#opt_args> and the words above.  Rules are
 * added in the order given (ids from 1) and are active from the first bio
 * after resume.  The words are kept to echo them back verbatim.
 */
static int wberr_parse_opt_args(struct dm_target *ti, struct wberr_c *wc,
				struct dm_arg_set *as)
{
	static const struct dm_arg _args[] = {
		{0, 8192, "Invalid number of optional arguments"},
	};
	struct wberr_opt_rules opt = { };
	char **opt_argv = as->argv + 1;
	unsigned int argc, i;
	size_t len = 0;
	int r;

	if (!as->argc)
		return 0;

	r = dm_read_arg_group(_args, as, &argc, &ti->error);
	if (r)
		return r;
	if (!argc)
		return 0;
	wc->nr_opt_args = argc;
	for (i = 0; i < argc; i++)
		len += strlen(opt_argv[i]) + 1;
	wc->opt_args = kmalloc(len, GFP_KERNEL);
	/* a rule takes 4 words at least: rule <#words> <ops> <status> */
	opt.rules = kvmalloc_array(argc / 4 + 1, sizeof(*opt.rules), GFP_KERNEL);
	if (!wc->opt_args || !opt.rules) {
		kvfree(opt.rules);
		ti->error = "Cannot allocate the table arguments";
		return -ENOMEM;
	}
	/* the words joined by single spaces */
	for (i = 0, len = 0; i < argc; i++)
		len += sprintf(wc->opt_args + len, "%s%s", i ? " " : "",
			       opt_argv[i]);

	r = wberr_parse_opt_words(ti, wc, as, argc, &opt);
	if (!r && as->argc) {
		ti->error = "Unexpected arguments after the optional arguments";
		r = -EINVAL;
	}
	if (!r && opt.keep && opt.nr) {
		/* the rules would change the live table before the swap */
		ti->error = "keep_rules and rule cannot be combined";
		r = -EINVAL;
	}
	if (!r && opt.nr)
		r = wberr_add_table_rules(ti, wc, &opt);
	for (i = 0; i < opt.nr; i++)
		kfree(opt.rules[i]);
	kvfree(opt.rules);
	if (!r && opt.keep) {
		wberr_leave_rules(wc);
		r = wberr_keep_rules(ti, wc);
	}
	return r;
}

static void wberr_free_snapshot_now(struct wberr_snapshot *snap)
{
	unsigned int i;

	if (!snap)
		return;
	for (i = 0; i < snap->nr; i++)
		kfree(snap->rules[i]);
	kvfree(snap);
}

static void wberr_put_rules(struct wberr_rules *set)
{
	if (!set || !refcount_dec_and_test(&set->ref))
		return;
	/* snapshot callbacks still queued account into @set */
	if (atomic_long_read(&set->snap_pending))
		rcu_barrier();
	wberr_free_snapshot_now(rcu_dereference_protected(set->snap, true));
	mutex_destroy(&set->lock);
	kfree(set);
}

/* Stop using the rule set (if any) and drop the reference to it. */
static void wberr_leave_rules(struct wberr_c *wc)
{
	struct wberr_rules *set = wc->rules;

	if (!set)
		return;
	mutex_lock(&set->lock);
	list_del(&wc->set_node);
	mutex_unlock(&set->lock);
	wc->rules = NULL;
	wberr_put_rules(set);
}

static void wberr_dtr(struct dm_target *ti)
{
	struct wberr_c *wc = ti->private;

	/*
	 * Under the lock even to test it: a neighbour's list_del() rewrites
	 * wc->node.next while the node is on the list.
	 */
	mutex_lock(&wberr_targets_lock);
	list_del_init(&wc->node);
	mutex_unlock(&wberr_targets_lock);
	timer_shutdown_sync(&wc->delay_timer);
	if (wc->wq) {
		cancel_work_sync(&wc->delay_work);
		destroy_workqueue(wc->wq);
	}
	/* No bio can be held here: presuspend drained them (see below). */
	WARN_ON_ONCE(timerqueue_getnext(&wc->held));

	wberr_leave_rules(wc);
	kfree(wc->opt_args);
	kvfree(wc->log);
	free_percpu(wc->bios_seen);
	if (wc->dev)
		dm_put_device(ti, wc->dev);
	kfree(wc);
}

/*
 * Construct a wberr mapping:
 *   <dev_path> <offset> [<#opt_args> <opt_args>...]
 */
static int wberr_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	const char *devname, *offset;
	struct wberr_rules *set;
	struct wberr_c *wc;
	int r;

	/*
	 * A refusal's reason goes in ti->error only: dm core logs it
	 * (dm_table_add_target()), once.
	 */
	if (argc < 2) {
		ti->error = "Requires <dev> <offset> [<#opt_args> <opt_args>...]";
		return -EINVAL;
	}

	wc = kzalloc(sizeof(*wc), GFP_KERNEL);
	if (!wc) {
		ti->error = "Cannot allocate context";
		return -ENOMEM;
	}
	ti->private = wc;
	wc->ti = ti;
	wc->md = dm_table_get_md(ti->table);
	INIT_LIST_HEAD(&wc->node);
	wc->log_size = WBERR_LOG_SIZE_DEFAULT;
	spin_lock_init(&wc->log_lock);
	spin_lock_init(&wc->delay_lock);
	timerqueue_init_head(&wc->held);
	timer_setup(&wc->delay_timer, wberr_delay_timer_fn, 0);
	INIT_WORK(&wc->delay_work, wberr_delay_work_fn);

	r = -ENOMEM;
	set = wberr_new_rules();
	if (!set) {
		ti->error = "Cannot allocate the rule set";
		goto bad;
	}
	mutex_lock(&set->lock);
	wberr_join_rules(wc, set);
	mutex_unlock(&set->lock);

	devname = dm_shift_arg(&as);
	offset = dm_shift_arg(&as);
	if (wberr_parse_sector(offset, &wc->start)) {
		ti->error = "Invalid device offset (decimal sectors)";
		r = -EINVAL;
		goto bad;
	}

	r = dm_get_device(ti, devname, dm_table_get_mode(ti->table), &wc->dev);
	if (r) {
		ti->error = "Device lookup failed";
		goto bad;
	}

	r = wberr_parse_opt_args(ti, wc, &as);
	if (r)
		goto bad;

	r = -ENOMEM;
	wc->log = kvcalloc(wc->log_size, sizeof(*wc->log), GFP_KERNEL);
	if (!wc->log) {
		ti->error = "Cannot allocate fault log";
		goto bad;
	}
	wc->bios_seen = alloc_percpu(u64);
	if (!wc->bios_seen) {
		ti->error = "Cannot allocate counters";
		goto bad;
	}
	wc->wq = alloc_workqueue("dm-wberr", WQ_MEM_RECLAIM, 0);
	if (!wc->wq) {
		ti->error = "Cannot allocate workqueue";
		goto bad;
	}

	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	ti->num_write_zeroes_bios = 1;
	/* advertise a write cache so empty flushes reach map on any device */
	ti->flush_supported = true;
	/*
	 * A failed or dropped bio is ended inside map, before map returns
	 * DM_MAPIO_SUBMITTED.  Without this flag dm core would call
	 * dm_start_io_acct(io, clone) on the clone afterwards, and a clone
	 * that is not embedded in its dm_io is already freed by then.
	 */
	ti->accounts_remapped_io = true;
	ti->per_io_data_size = sizeof(struct wberr_bio);

	mutex_lock(&wberr_targets_lock);
	list_add(&wc->node, &wberr_targets);
	mutex_unlock(&wberr_targets_lock);
	return 0;

bad:
	wberr_dtr(ti);
	return r;
}

/* ------------------------------------------------------------------------ */
/* Rule snapshots                                                           */
/* ------------------------------------------------------------------------ */

static struct wberr_snapshot *wberr_alloc_snapshot(struct wberr_rules *set,
						   unsigned int nr,
						   const unsigned int *nr_class)
{
	unsigned int bits = clamp_t(unsigned int, roundup_pow_of_two(nr) * 64,
				    BITS_PER_LONG, WBERR_FILTER_BITS_MAX);
	struct wberr_snapshot *snap;
	unsigned int c, nr_ranges = 0;
	size_t size;

	BUILD_BUG_ON(__alignof__(struct wberr_rule *) >
		     __alignof__(struct wberr_range));
	BUILD_BUG_ON(__alignof__(unsigned long) >
		     __alignof__(struct wberr_rule *));
	for (c = 0; c < WBERR_NR_CLASSES; c++)
		nr_ranges += nr_class[c];
	size = struct_size(snap, ranges, nr_ranges) +
	       nr * sizeof(struct wberr_rule *) +
	       BITS_TO_LONGS(bits) * sizeof(unsigned long);

	snap = kvzalloc(size, GFP_KERNEL);
	if (!snap)
		return NULL;

	nr_ranges = 0;
	for (c = 0; c < WBERR_NR_CLASSES; c++) {
		snap->nr_class[c] = nr_class[c];
		snap->index[c] = snap->ranges + nr_ranges;
		nr_ranges += nr_class[c];
	}
	snap->rules = (struct wberr_rule **)(snap->ranges + nr_ranges);
	snap->filter = (unsigned long *)(snap->rules + nr);
	snap->filter_bits = bits;
	snap->nr = nr;
	snap->set = set;
	snap->size = size;
	return snap;
}

/*
 * The sector filter (struct wberr_snapshot): the bits cover the sectors
 * up to the last one any data class's range ends at (or starts at, for a
 * range to the target's end).
 */
static void wberr_filter_build(struct wberr_snapshot *snap)
{
	sector_t cover = 0;
	unsigned int c, i, shift;

	for (c = 0; c < WBERR_NR_CLASSES; c++) {
		for (i = 0; c != WBERR_FLUSH && i < snap->nr_class[c]; i++) {
			struct wberr_range *e = &snap->index[c][i];

			cover = max(cover, e->last == WBERR_TARGET_END ?
					   e->first : e->last);
			snap->filter_beyond |= e->last == WBERR_TARGET_END;
		}
	}
	/* the cover's last sector >> shift is below filter_bits */
	shift = max_t(int, fls64(cover) - ilog2(snap->filter_bits), 0);
	snap->filter_shift = shift;
	for (c = 0; c < WBERR_NR_CLASSES; c++) {
		for (i = 0; c != WBERR_FLUSH && i < snap->nr_class[c]; i++) {
			struct wberr_range *e = &snap->index[c][i];
			unsigned int b0 = e->first >> shift;
			unsigned int b1 = e->last == WBERR_TARGET_END ?
					  snap->filter_bits - 1 : e->last >> shift;

			bitmap_set(snap->filter, b0, b1 - b0 + 1);
		}
	}
}

/*
 * Finish the sorted class indexes: the running maximum of the last
 * sectors, which lets map stop its backward walk early, and the filter.
 */
static void wberr_index_finish(struct wberr_snapshot *snap)
{
	unsigned int c, i;

	for (c = 0; c < WBERR_NR_CLASSES; c++) {
		struct wberr_range *idx = snap->index[c];
		sector_t maxlast = 0;

		for (i = 0; i < snap->nr_class[c]; i++) {
			maxlast = max(maxlast, idx[i].last);
			idx[i].maxlast = maxlast;
		}
	}
	wberr_filter_build(snap);
}

/**
 * wberr_build_snapshot() - derive a new rule set from the current one
 * @set: the rule set
 * @old: the published snapshot (may be NULL)
 * @add: a rule to append (its id is above every id in @old), or NULL
 * @drop: a rule of @old to leave out, or NULL
 *
 * Copies @old in O(n), keeping each per-class range index sorted by first
 * sector (the new rule is inserted at its place, after those with the
 * same first sector: ids increase), and finishes the index.
 *
 * Return: the new snapshot, NULL when it would be empty, or an ERR_PTR.
 */
static struct wberr_snapshot *wberr_build_snapshot(struct wberr_rules *set,
						   struct wberr_snapshot *old,
						   struct wberr_rule *add,
						   struct wberr_rule *drop)
{
	unsigned int nr_class[WBERR_NR_CLASSES] = { 0 };
	struct wberr_snapshot *snap;
	unsigned int nr = 0, c, i, j;

	if (old) {
		nr = old->nr;
		memcpy(nr_class, old->nr_class, sizeof(nr_class));
	}
	for (c = 0; c < WBERR_NR_CLASSES; c++) {
		if (add && (add->classes & BIT(c)))
			nr_class[c]++;
		if (drop && (drop->classes & BIT(c)))
			nr_class[c]--;
	}
	nr = nr + !!add - !!drop;
	if (!nr)
		return NULL;

	snap = wberr_alloc_snapshot(set, nr, nr_class);
	if (!snap)
		return ERR_PTR(-ENOMEM);

	j = 0;
	for (i = 0; old && i < old->nr; i++)
		if (old->rules[i] != drop)
			snap->rules[j++] = old->rules[i];
	if (add)
		snap->rules[j++] = add;
	for (i = 0; i < nr; i++)
		snap->nr_split += snap->rules[i]->split;

	for (c = 0; c < WBERR_NR_CLASSES; c++) {
		struct wberr_range *dst = snap->index[c];
		bool inserted = !add || !(add->classes & BIT(c));
		unsigned int n_old = old ? old->nr_class[c] : 0;

		j = 0;
		for (i = 0; i <= n_old; i++) {
			struct wberr_range *src = i < n_old ? &old->index[c][i] : NULL;

			if (!inserted && (!src || src->first > add->first)) {
				dst[j].first = add->first;
				dst[j].last = add->last;
				dst[j].rule = add;
				j++;
				inserted = true;
			}
			if (src && src->rule != drop)
				dst[j++] = *src;
		}
	}
	wberr_index_finish(snap);
	return snap;
}

/* Index order: by first sector, then by id (as wberr_build_snapshot()). */
static int wberr_range_cmp(const void *a, const void *b)
{
	const struct wberr_range *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->rule->id < y->rule->id ? -1 : x->rule->id > y->rule->id;
}

/**
 * wberr_build_snapshot_all() - a snapshot of @nr rules at once
 * @set: the rule set
 * @rules: the rules, in id order
 * @nr: how many (at least one)
 *
 * For the table line's rules: one snapshot in O(n log n), where adding
 * them one by one would copy the growing set n times.
 *
 * Return: the snapshot, or an ERR_PTR.
 */
static struct wberr_snapshot *
wberr_build_snapshot_all(struct wberr_rules *set, struct wberr_rule **rules,
			 unsigned int nr)
{
	unsigned int nr_class[WBERR_NR_CLASSES] = { 0 };
	unsigned int pos[WBERR_NR_CLASSES] = { 0 };
	struct wberr_snapshot *snap;
	unsigned int c, i;

	for (i = 0; i < nr; i++)
		for (c = 0; c < WBERR_NR_CLASSES; c++)
			nr_class[c] += !!(rules[i]->classes & BIT(c));
	snap = wberr_alloc_snapshot(set, nr, nr_class);
	if (!snap)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < nr; i++) {
		struct wberr_rule *r = rules[i];

		snap->rules[i] = r;
		snap->nr_split += r->split;
		for (c = 0; c < WBERR_NR_CLASSES; c++) {
			struct wberr_range *e;

			if (!(r->classes & BIT(c)))
				continue;
			e = &snap->index[c][pos[c]++];
			e->first = r->first;
			e->last = r->last;
			e->rule = r;
		}
	}
	for (c = 0; c < WBERR_NR_CLASSES; c++)
		sort(snap->index[c], nr_class[c], sizeof(struct wberr_range),
		     wberr_range_cmp, NULL);
	wberr_index_finish(snap);
	return snap;
}

/* ------------------------------------------------------------------------ */
/* The I/O path                                                             */
/* ------------------------------------------------------------------------ */

static unsigned int wberr_bio_class(struct bio *bio)
{
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return WBERR_READ;
	case REQ_OP_WRITE:
		/*
		 * dm core sends a target the preflush of a flush bio as its
		 * own empty bio and the data (if any) later without
		 * REQ_PREFLUSH, so only empty preflushes are "flush".
		 */
		if ((bio->bi_opf & REQ_PREFLUSH) && !bio_sectors(bio))
			return WBERR_FLUSH;
		if (bio->bi_opf & REQ_FUA)
			return WBERR_FUA;
		return WBERR_WRITE;
	case REQ_OP_DISCARD:
		return WBERR_DISCARD;
	case REQ_OP_WRITE_ZEROES:
		return WBERR_WRITE_ZEROES;
	default:
		return WBERR_NO_CLASS;
	}
}

/* splitmix64 of the stream position: stateless, so draws need no lock */
static u64 wberr_rand(struct wberr_c *wc)
{
	u64 z = wc->seed + (u64)atomic64_inc_return(&wc->draws) *
		0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * wberr_rule_fires() - count a match of @r and decide whether it fires
 * @wc: target context (PRNG)
 * @r: a rule whose op classes and range match the bio
 *
 * Match number m (1-based) is a candidate when m > skip and
 * (m - skip) is a multiple of every.  A candidate fires if the rule has
 * not yet fired count times (count 0 = no limit) and the probability draw
 * passes.  The draw is taken only for candidates of rules with prob below
 * 1000000, so the stream of draws (and hence a run) is reproducible for a
 * given seed and bio sequence.
 *
 * Return: true if the rule fires for this bio.
 */
static bool wberr_rule_fires(struct wberr_c *wc, struct wberr_rule *r)
{
	u64 m = atomic64_inc_return(&r->matched);
	u64 rem;

	if (m <= r->skip)
		return false;
	if (r->every > 1) {
		div64_u64_rem(m - r->skip, r->every, &rem);
		if (rem)
			return false;
	}
	if (r->count && (u64)atomic64_read(&r->fired) >= r->count)
		return false;
	if (r->prob < WBERR_ABI_PPM) {
		u64 draw;

		div64_u64_rem(wberr_rand(wc), WBERR_ABI_PPM, &draw);
		if (draw >= r->prob)
			return false;
	}
	if (r->count)
		return atomic64_add_unless(&r->fired, 1, r->count);
	atomic64_inc(&r->fired);
	return true;
}

static void wberr_sort_by_id(struct wberr_rule **v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		struct wberr_rule *r = v[i];

		for (j = i; j > 0 && v[j - 1]->id > r->id; j--)
			v[j] = v[j - 1];
		v[j] = r;
	}
}

static bool wberr_flags_match(struct wberr_rule *r, blk_opf_t opf)
{
	return (opf & r->flags_set) == r->flags_set && !(opf & r->flags_clear);
}

static bool wberr_rule_matches(struct wberr_rule *r, unsigned int class,
			       blk_opf_t opf, sector_t first, sector_t last)
{
	if (!(r->classes & BIT(class)) || !wberr_flags_match(r, opf))
		return false;
	return class == WBERR_FLUSH || (r->first <= last && r->last >= first);
}

/* The number of entries of a class index whose range starts at or before @last. */
static unsigned int wberr_index_upto(struct wberr_range *idx, unsigned int n,
				     sector_t last)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (idx[mid].first <= last)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * wberr_split_end() - where to cut a bio for the split=1 rules it meets
 * @snap: current rule snapshot
 * @class: op class of the bio (read, write or fua)
 * @opf: the bio's flags
 * @first: first target-relative sector of the bio
 * @last: last target-relative sector of the bio
 * @block: the logical block size of the device below, in sectors
 *
 * A split rule fails only the sectors of its range: the bio is cut so
 * that its first piece lies wholly inside or wholly outside the range of
 * every split rule that could match it, and dm core sends the rest to map
 * again.  Cutting before any rule counts a match keeps each rule's
 * matched and fired counts per piece.
 *
 * The cut falls on a logical block boundary of the device below: the
 * range is rounded outward to whole blocks, as a medium error on that
 * device fails whole blocks.  A piece that is not whole blocks would be
 * failed by blk-mq with BLK_STS_IOERR (bio_unaligned() in
 * blk_mq_submit_bio()) instead of reaching the device.  The bio itself is
 * whole blocks (dm stacks the largest logical block size of its devices)
 * and so is the target's offset into the device (dm-table.c
 * device_area_is_invalid()), so rounding target-relative sectors is enough;
 * and for such a bio the rounded range overlaps it exactly when the range
 * does.  The size is read here, not at table load, so that a rule kept
 * across a reload onto another device follows it.
 *
 * Return: the last sector of the first piece (@last: no cut).
 */
static sector_t wberr_split_end(struct wberr_snapshot *snap,
				unsigned int class, blk_opf_t opf,
				sector_t first, sector_t last, sector_t block)
{
	struct wberr_range *idx = snap->index[class];
	sector_t end = last;
	int k;

	k = (int)wberr_index_upto(idx, snap->nr_class[class], last) - 1;
	for (; k >= 0 && idx[k].maxlast >= first; k--) {
		struct wberr_rule *r = idx[k].rule;

		if (!r->split || idx[k].last < first || !wberr_flags_match(r, opf))
			continue;
		if (round_down(r->first, block) > first)
			end = min(end, round_down(r->first, block) - 1);
		else if (r->last < end)	/* so r->last + 1 does not wrap */
			end = min(end, round_up(r->last + 1, block) - 1);
	}
	return end;
}

/**
 * wberr_find_rule() - the first rule, in id order, that fires for a bio
 * @wc: target context
 * @snap: current rule snapshot
 * @class: op class of the bio
 * @opf: the bio's flags
 * @first: first target-relative sector of the bio
 * @last: last target-relative sector of the bio
 *
 * Every rule up to the firing one that matches the bio counts the match.
 * Rules after the firing one do not see the bio.  For data bios a binary
 * search in the class's range index finds the rules overlapping the bio
 * in O(log n) when ranges are disjoint; empty flushes have no sector and
 * are matched by op class alone.
 *
 * Return: the rule that fired, or NULL.
 */
static struct wberr_rule *wberr_find_rule(struct wberr_c *wc,
					  struct wberr_snapshot *snap,
					  unsigned int class, blk_opf_t opf,
					  sector_t first, sector_t last)
{
	struct wberr_rule *cand[WBERR_MAX_CANDIDATES];
	struct wberr_range *idx = snap->index[class];
	unsigned int n = snap->nr_class[class];
	unsigned int nr_cand = 0, i;
	int k;

	if (!n)
		return NULL;
	if (class == WBERR_FLUSH)
		goto scan;
	/* the bio lies before every range or after all of them */
	if (idx[0].first > last || idx[n - 1].maxlast < first)
		return NULL;

	k = (int)wberr_index_upto(idx, n, last) - 1;
	for (; k >= 0 && idx[k].maxlast >= first; k--) {
		if (idx[k].last < first || !wberr_flags_match(idx[k].rule, opf))
			continue;
		if (nr_cand == WBERR_MAX_CANDIDATES)
			goto scan;
		cand[nr_cand++] = idx[k].rule;
	}
	if (!nr_cand)
		return NULL;

	wberr_sort_by_id(cand, nr_cand);
	for (i = 0; i < nr_cand; i++)
		if (wberr_rule_fires(wc, cand[i]))
			return cand[i];
	return NULL;

scan:
	for (i = 0; i < snap->nr; i++) {
		struct wberr_rule *r = snap->rules[i];

		if (wberr_rule_matches(r, class, opf, first, last) &&
		    wberr_rule_fires(wc, r))
			return r;
	}
	return NULL;
}

static u32 wberr_log_slot(struct wberr_c *wc, u64 seq)
{
	u32 slot;

	div_u64_rem(seq, wc->log_size, &slot);
	return slot;
}

static void wberr_log_fault(struct wberr_c *wc, unsigned int rule_id,
			    struct bio *bio, unsigned int class,
			    sector_t sector, blk_status_t status)
{
	struct wberr_log_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&wc->log_lock, flags);
	e = &wc->log[wberr_log_slot(wc, wc->log_next)];
	e->seq = wc->log_next++;
	e->ns = ktime_get_ns();
	e->rule_id = rule_id;
	e->class = class;
	e->opf = bio->bi_opf;
	e->sector = class == WBERR_FLUSH ? 0 : sector;
	e->nr_sectors = bio_sectors(bio);
	e->status = (__force u8)status;
	spin_unlock_irqrestore(&wc->log_lock, flags);
}

/*
 * dm core accounts a bio that a target takes over when the target remaps
 * it through dm_submit_bio_remap(), or, at completion, when it ends
 * without error (__dm_io_complete()).  A bio that wberr fails, at once or
 * after holding it, would be missing from /sys/block/dm-N/stat, so wberr
 * accounts it against the dm disk itself, a held bio from the moment it
 * is held.  Never for a bio ended with BLK_STS_OK: dm core counts that.
 * Return: whether the bio was accounted (@start is then set).
 */
static bool wberr_acct_start(struct wberr_c *wc, struct bio *bio,
			     unsigned long *start)
{
	struct gendisk *disk = dm_disk(wc->md);

	/*
	 * As dm core decides: 6.12 accounts only with the queue's io_stat
	 * feature (dm_io_acct()); 6.1 has no such feature flag, never sets
	 * QUEUE_FLAG_IO_STAT on a dm queue and accounts every bio anyway.
	 */
#ifdef BLK_FEAT_IO_STAT
	if (!blk_queue_io_stat(disk->queue))
		return false;
#endif
#ifdef WBERR_ACCT_START_TAKES_SECTORS	/* before 6.3 (Kbuild) */
	*start = bdev_start_io_acct(disk->part0, bio_sectors(bio), bio_op(bio),
				    jiffies);
#else
	*start = bdev_start_io_acct(disk->part0, bio_op(bio), jiffies);
#endif
	return true;
}

/* Account the end of @bio (if @acct) and complete it with @status. */
static void wberr_end_bio(struct wberr_c *wc, struct bio *bio,
			  blk_status_t status, bool acct, unsigned long start)
{
#ifdef WBERR_ACCT_START_TAKES_SECTORS
	if (acct)
		bdev_end_io_acct(dm_disk(wc->md)->part0, bio_op(bio), start);
#else
	if (acct)
		bdev_end_io_acct(dm_disk(wc->md)->part0, bio_op(bio),
				 bio_sectors(bio), start);
#endif
	bio->bi_status = status;
	bio_endio(bio);
}

static void wberr_remap(struct wberr_c *wc, struct bio *bio)
{
	bio_set_dev(bio, wc->dev->bdev);
	/* not an empty flush (zone bios never come: no DM_TARGET_ZONED_HM) */
	if (bio_sectors(bio))
		bio->bi_iter.bi_sector =
			wc->start + dm_target_offset(wc->ti, bio->bi_iter.bi_sector);
}

/* Do what the rule that fired for @bio says, now. */
static void wberr_finish(struct wberr_c *wc, struct bio *bio,
			 struct wberr_bio *wb)
{
	switch (wb->action) {
	case WBERR_ACT_PASS_THEN_FAIL:	/* wberr_end_io() fails it */
	case WBERR_ACT_PASS:
		/*
		 * Only a held bio gets here, from the timer's work, a message
		 * or presuspend, which may sleep.  REQ_NOWAIT said its
		 * submitter must not block; left on, it makes the device below
		 * fail the bio with BLK_STS_AGAIN when it has no free tag, as
		 * when a thousand held bios expire together.
		 */
		bio->bi_opf &= ~REQ_NOWAIT;
		/* dm core accounts it from here, as it does for dm-delay */
		wberr_remap(wc, bio);
		dm_submit_bio_remap(bio, NULL);
		break;
	case WBERR_ACT_DROP:
		/* ended without error: dm core accounts it */
		wberr_end_bio(wc, bio, BLK_STS_OK, false, 0);
		break;
	default:
		wberr_end_bio(wc, bio, wb->status, wb->acct, wb->acct_start);
		break;
	}
}

/*
 * Arm the delay timer for a held bio expiring at @expires (ktime_get()
 * ns).  The timer counts jiffies, and jiffies may lag the clock when
 * ticks come late (a loaded host under TCG: a 3000 ms hold measured 2998
 * ms), so the timer may fire before @expires; wberr_release_delayed()
 * then finds the bio not yet expired and arms the timer again.
 */
static void wberr_arm_delay_timer(struct wberr_c *wc, ktime_t expires,
				  ktime_t now)
{
	u64 left = expires > now ? expires - now : 0;

	timer_reduce(&wc->delay_timer, jiffies + nsecs_to_jiffies(left) + 1);
}

static struct bio *wberr_held_bio(struct timerqueue_node *node)
{
	return dm_bio_from_per_bio_data(container_of(node, struct wberr_bio,
						     node),
					sizeof(struct wberr_bio));
}

/**
 * wberr_release_delayed() - finish held bios
 * @wc: target context
 * @all: finish every held bio, not only the expired ones
 *
 * Held bios wait in a timerqueue (an rbtree with its leftmost node cached)
 * in expiry order, so a timer run takes off only the expired ones, each in
 * O(log n), and finds the next expiry at once; @all takes the whole tree
 * in one assignment.  Walking every held bio under the irq-disabling lock
 * at each expiry, as a list would need with rules of different delays,
 * costs O(n) per expiry with thousands held.  Re-arms the timer for the
 * earliest bio still held.  Bios are finished outside the lock, in expiry
 * order (through bi_next: a held clone is not on any other list).
 */
static void wberr_release_delayed(struct wberr_c *wc, bool all)
{
	struct bio_list done = BIO_EMPTY_LIST;
	struct timerqueue_node *node;
	struct timerqueue_head taken;
	ktime_t now = ktime_get();
	struct bio *bio;

	timerqueue_init_head(&taken);
	spin_lock_irq(&wc->delay_lock);
	if (all) {
		taken = wc->held;
		timerqueue_init_head(&wc->held);
	} else {
		while ((node = timerqueue_getnext(&wc->held)) &&
		       node->expires <= now) {
			timerqueue_del(&wc->held, node);
			bio_list_add(&done, wberr_held_bio(node));
		}
		if (node)
			wberr_arm_delay_timer(wc, node->expires, now);
	}
	spin_unlock_irq(&wc->delay_lock);

	while ((node = timerqueue_getnext(&taken))) {
		timerqueue_del(&taken, node);
		bio_list_add(&done, wberr_held_bio(node));
	}
	while ((bio = bio_list_pop(&done)))
		wberr_finish(wc, bio, dm_per_bio_data(bio, sizeof(struct wberr_bio)));
}

static void wberr_delay_timer_fn(struct timer_list *t)
{
	struct wberr_c *wc = from_timer(wc, t, delay_timer);

	queue_work(wc->wq, &wc->delay_work);
}

static void wberr_delay_work_fn(struct work_struct *work)
{
	wberr_release_delayed(container_of(work, struct wberr_c, delay_work),
			      false);
}

static void wberr_trace_fault(struct wberr_c *wc, struct bio *bio,
			      unsigned int id, unsigned int class,
			      enum wberr_action action, blk_status_t status,
			      unsigned int ms)
{
	char flags[96];

	wberr_format_flags(bio->bi_opf, flags, sizeof(flags));
	trace_wberr_fault(disk_devt(dm_disk(wc->md)), id,
			  class == WBERR_FLUSH ? 0 : bio->bi_iter.bi_sector,
			  bio_sectors(bio), wberr_class_names[class], flags,
			  wberr_action_names[action],
			  action == WBERR_ACT_FAIL ?
			  wberr_status_names[(__force u8)status] : "ok", ms);
}

/*
 * How long a device may hold bios at a stretch, and how long it must have
 * held none before it starts another, in seconds: max_hold_secs, by
 * default the longest delay (60 s).  It may only be lowered, so that the
 * bound stays below the default hung-task timeout (120 s); a test that
 * lowers hung_task_timeout_secs lowers it in proportion.  0 is refused
 * rather than read as "hold nothing": "release" says that, per device.
 */
#define WBERR_MAX_HOLD_SECS_DEFAULT	60
static_assert(WBERR_MAX_HOLD_SECS_DEFAULT * MSEC_PER_SEC == WBERR_DELAY_MAX_MS);

static unsigned int max_hold_secs = WBERR_MAX_HOLD_SECS_DEFAULT;

/**
 * wberr_set_max_hold_secs() - set max_hold_secs, if the value is sane
 * @val: the new value, as written to the parameter (a newline may follow)
 * @kp: the parameter
 *
 * Called at module load and for a write to
 * /sys/module/dm_wberr/parameters/max_hold_secs.  A refused value changes
 * nothing, and the kernel log says why.  A new value applies from the
 * next stretch of each device on (wberr_hold_until()).
 *
 * Return: 0, or -EINVAL for a value that is not 1 to the default.
 */
static int wberr_set_max_hold_secs(const char *val,
				   const struct kernel_param *kp)
{
	unsigned int secs;

	if (kstrtouint(val, 0, &secs)) {
		DMERR("max_hold_secs: '%.*s' refused: not a number of seconds",
		      (int)strcspn(val, "\n"), val);
		return -EINVAL;
	}
	if (secs < 1 || secs > WBERR_MAX_HOLD_SECS_DEFAULT) {
		DMERR("max_hold_secs: %u refused: a device holds bios for 1 to %u s at a stretch",
		      secs, WBERR_MAX_HOLD_SECS_DEFAULT);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, secs);
	return 0;
}

static const struct kernel_param_ops wberr_max_hold_secs_ops = {
	.set = wberr_set_max_hold_secs,
	.get = param_get_uint,
};

/**
 * wberr_hold_until() - until when a bio may be held, if at all
 * @wc: target context, delay_lock held
 * @now: ktime_get()
 * @ms: the rule's delay
 *
 * A bound per bio does not bound a waiter: it often waits for a chain of
 * bios, each sent when the one before it completed (an ext4 fsync waits
 * for its data, then for jbd2's journal blocks, an empty preflush and the
 * FUA commit record), and three 60 s holds in a row outlast the 120 s
 * hung-task timeout.  So the device holds bios for at most max_hold_secs
 * (the stretch's length, read when it starts) at a stretch.  A stretch
 * starts with a hold when no bio has been held for the length of the last
 * one; every bio held in it is finished by its end, the bios after it are
 * acted on at once until that length has passed since the last held one
 * was due, and a new stretch may then start.  A chain of bios sent one
 * after the other is held for at most one stretch's length in all, and
 * the device holds bios in at most half of any period of twice that.
 * Nothing is held between presuspend and resume, nor from "release" to
 * the next resume.
 *
 * The clock is ktime_get()'s, as CLOCK_MONOTONIC in userspace: a bio is
 * held at least @ms by the clock its submitter reads (the timer's jiffies
 * only wake wberr_release_delayed(), which checks the clock).
 *
 * Return: the expiry in ktime_get() ns, or 0 to act at once.
 */
static u64 wberr_hold_until(struct wberr_c *wc, u64 now, unsigned int ms)
{
	u64 until = now + (u64)ms * NSEC_PER_MSEC;

	lockdep_assert_held(&wc->delay_lock);
	if (wc->suspending || wc->released)
		return 0;
	if (!wc->stretch_start ||
	    now > wc->stretch_end + wc->stretch_len) {
		wc->stretch_start = now;
		wc->stretch_end = now;
		wc->stretch_len = (u64)READ_ONCE(max_hold_secs) * NSEC_PER_SEC;
	}
	if (now >= wc->stretch_start + wc->stretch_len)
		return 0;
	until = min(until, wc->stretch_start + wc->stretch_len);
	wc->stretch_end = max(wc->stretch_end, until);
	return until;
}

/**
 * wberr_hold() - hold a bio a rule fired for, if it may be held
 * @wc: target context
 * @bio: the bio
 * @wb: its per-bio data (action and status set)
 * @id: the rule's id, for the tracepoint
 * @class: the bio's op class, for the tracepoint
 * @ms: the rule's delay
 *
 * The wberr_fault event is emitted here, under the lock, with the hold
 * the bio gets: the bio can be finished as soon as it is in the queue.
 *
 * Return: true if the bio is held; false to act on it now (the caller
 * emits the event, with delay_ms=0).
 */
static bool wberr_hold(struct wberr_c *wc, struct bio *bio,
		       struct wberr_bio *wb, unsigned int id,
		       unsigned int class, unsigned int ms)
{
	unsigned long flags;
	u64 now, until;

	spin_lock_irqsave(&wc->delay_lock, flags);
	now = ktime_get();
	until = wberr_hold_until(wc, now, ms);
	if (!until) {
		spin_unlock_irqrestore(&wc->delay_lock, flags);
		return false;
	}
	if (trace_wberr_fault_enabled())
		wberr_trace_fault(wc, bio, id, class, wb->action, wb->status,
				  div_u64(until - now, NSEC_PER_MSEC));
	timerqueue_init(&wb->node);
	wb->node.expires = until;
	timerqueue_add(&wc->held, &wb->node);
	wberr_arm_delay_timer(wc, until, now);
	spin_unlock_irqrestore(&wc->delay_lock, flags);
	return true;
}

/**
 * wberr_inject() - apply the rules to a bio
 * @ti: the target
 * @wc: target context
 * @bio: the bio being mapped
 *
 * Called only when at least one rule exists.  Looks the rule up under RCU
 * and copies what it needs, so nothing here sleeps or takes a lock shared
 * with the pass-through path.  A split rule may first shorten the bio
 * (dm_accept_partial_bio()); what is decided then is for the piece.
 *
 * Not inlined: wberr_map() stays a short function without this one's
 * stack frame and saved registers, which every bio would pay for.
 *
 * Return: true if the bio was taken over (ended or held), false to remap.
 */
static noinline bool wberr_inject(struct dm_target *ti, struct wberr_c *wc,
				  struct bio *bio)
{
	unsigned int class = wberr_bio_class(bio);
	enum wberr_action action = WBERR_ACT_FAIL;
	blk_status_t status = BLK_STS_OK;
	struct wberr_snapshot *snap;
	sector_t first = 0, last = 0, end;
	struct wberr_rule *r = NULL;
	unsigned int id = 0, ms = 0;
	struct wberr_bio *wb;

	if (class == WBERR_NO_CLASS)
		return false;
	if (class != WBERR_FLUSH) {
		first = dm_target_offset(ti, bio->bi_iter.bi_sector);
		last = first + max(bio_sectors(bio), 1U) - 1;
	}

	rcu_read_lock();
	snap = rcu_dereference(wc->rules->snap);
	if (snap && snap->nr_split && class != WBERR_NO_CLASS &&
	    wberr_class_splits[class]) {
		end = wberr_split_end(snap, class, bio->bi_opf, first, last,
				      bdev_logical_block_size(wc->dev->bdev) >>
				      SECTOR_SHIFT);
		if (end < last) {
			dm_accept_partial_bio(bio, end - first + 1);
			last = end;
		}
	}
	if (snap)
		r = wberr_find_rule(wc, snap, class, bio->bi_opf, first, last);
	if (r) {
		id = r->id;
		action = r->action;
		status = r->status;
		ms = r->delay_ms;
	}
	rcu_read_unlock();
	if (!r)
		return false;
	wb = dm_per_bio_data(bio, sizeof(*wb));
	wb->action = action;
	wb->status = status;

	/*
	 * A REQ_POLLED bio is not held: its submitter polls for the
	 * completion (io_uring IOPOLL: io_iopoll_check() calls bio_poll()
	 * in a loop), and a held clone gives the poll nothing to find
	 * (dm_poll_bio() returns 0 at once), so the poller would spin on a
	 * CPU for the whole delay (3.9 s of CPU for a 3 s delay, measured).
	 * The rule acts at once, as during a suspend.
	 */
	if (bio->bi_opf & REQ_POLLED)
		ms = 0;

	/*
	 * A bio held and then passed on is not a fault the log or the
	 * counters record: it reaches the device.
	 */
	wb->acct = false;
	if (wb->action != WBERR_ACT_PASS) {
		/* status reads these counters in the opposite order: see there */
		smp_mb__before_atomic();
		if (wb->action == WBERR_ACT_DROP) {
			atomic64_inc(&wc->bios_dropped);
			wberr_log_fault(wc, id, bio, class, first, BLK_STS_OK);
		} else {
			atomic64_inc(&wc->failed[(__force u8)wb->status]);
			wberr_log_fault(wc, id, bio, class, first, wb->status);
			/* a remapped bio is dm core's to account */
			if (wb->action != WBERR_ACT_PASS_THEN_FAIL)
				wb->acct = wberr_acct_start(wc, bio,
							    &wb->acct_start);
		}
	}
	if (ms && wberr_hold(wc, bio, wb, id, class, ms))
		return true;
	if (trace_wberr_fault_enabled())
		wberr_trace_fault(wc, bio, id, class, wb->action, wb->status, 0);
	if (wb->action == WBERR_ACT_PASS ||
	    wb->action == WBERR_ACT_PASS_THEN_FAIL)
		return false;
	wberr_finish(wc, bio, wb);
	return true;
}

/**
 * wberr_may_match() - could a rule match this bio?
 * @ti: the target
 * @wc: target context
 * @bio: the bio being mapped
 *
 * False when the bio has sectors, lies in one bucket of the snapshot's
 * sector filter and no range touches that bucket: most bios, when the
 * rules cover little of the device.  Then no rule can match it (a data
 * class matches only by range), so no rule counts it either.  A bio that
 * spans buckets and an empty one (a flush, matched by class) go to
 * wberr_inject().  With 1,000 rules of 8 sectors spread over a 2 GiB
 * region, a 4 KiB direct write costs 50 instructions more than through
 * dm-linear this way, 279 when each bio searched the class index
 * (docs/measurements.md, 2026-12-07).
 *
 * Return: false when no rule can match the bio.
 */
static inline bool wberr_may_match(struct dm_target *ti, struct wberr_c *wc,
				   struct bio *bio)
{
	unsigned int sectors = bio_sectors(bio);
	struct wberr_snapshot *snap;
	sector_t first;
	bool may = false;
	u64 b;

	if (!sectors)
		return true;
	first = dm_target_offset(ti, bio->bi_iter.bi_sector);
	rcu_read_lock();
	snap = rcu_dereference(wc->rules->snap);
	if (snap) {
		b = first >> snap->filter_shift;
		if (b != (first + sectors - 1) >> snap->filter_shift)
			may = true;
		else if (b >= snap->filter_bits)
			may = snap->filter_beyond;
		else
			may = test_bit(b, snap->filter);
	}
	rcu_read_unlock();
	return may;
}

static int wberr_map(struct dm_target *ti, struct bio *bio)
{
	struct wberr_bio *wb = dm_per_bio_data(bio, sizeof(*wb));
	struct wberr_c *wc = ti->private;

	this_cpu_inc(*wc->bios_seen);
	/*
	 * wberr_end_io() reads the action of every bio, a rule fired for it
	 * or not, and per-bio data is not zeroed: no rule is a plain remap.
	 */
	wb->action = WBERR_ACT_PASS;

	/* pass-through unless a rule exists: one pointer test */
	if (unlikely(rcu_access_pointer(wc->rules->snap)) &&
	    wberr_may_match(ti, wc, bio) && wberr_inject(ti, wc, bio))
		return DM_MAPIO_SUBMITTED;

	wberr_remap(wc, bio);
	return DM_MAPIO_REMAPPED;
}

/**
 * wberr_end_io() - complete a pass_then_fail bio with its rule's status
 * @ti: the target
 * @bio: the clone, done by the device below (or ended by wberr_inject())
 * @error: its status, which dm core passes on to the original bio
 *
 * Called by dm core's clone_endio() for every clone map() saw.  A bio
 * whose rule said pass_then_fail was remapped and has been executed by
 * the device (a write is on it); it completes as if it had failed with
 * the rule's status, the failure of a command the device executed, as
 * NVMe's fault injector makes one.  A status the device set itself stays.
 * Nothing to account: a remapped bio is dm core's to account, and
 * wberr_inject() counted and logged the fault when the rule fired.
 *
 * Return: DM_ENDIO_DONE, always.
 */
static int wberr_end_io(struct dm_target *ti, struct bio *bio,
			blk_status_t *error)
{
	struct wberr_bio *wb = dm_per_bio_data(bio, sizeof(*wb));

	if (wb->action == WBERR_ACT_PASS_THEN_FAIL && !*error)
		*error = wb->status;
	return DM_ENDIO_DONE;
}

/* ------------------------------------------------------------------------ */
/* Suspend / resume                                                         */
/* ------------------------------------------------------------------------ */

/*
 * Finish every held bio now, so that a suspend (and so a table swap or a
 * device removal) never waits out a delay rule.  Until resume, delay rules
 * act on their bios at once.
 */
static void wberr_presuspend(struct dm_target *ti)
{
	struct wberr_c *wc = ti->private;

	spin_lock_irq(&wc->delay_lock);
	wc->suspending = true;
	spin_unlock_irq(&wc->delay_lock);
	timer_delete_sync(&wc->delay_timer);
	cancel_work_sync(&wc->delay_work);
	wberr_release_delayed(wc, true);
}

static void wberr_presuspend_undo(struct dm_target *ti)
{
	struct wberr_c *wc = ti->private;

	spin_lock_irq(&wc->delay_lock);
	wc->suspending = false;
	spin_unlock_irq(&wc->delay_lock);
}

/*
 * The "release" message: the way out of a suspend presuspend does not see
 * (dm-stats' internal suspend, a device stacked above).  Finishing what is
 * held is not enough: such a suspend sends new bios (a file system frozen
 * above writes and flushes, one step after the other), which would be
 * held again.  So nothing is held until the next resume.
 */
static void wberr_release(struct wberr_c *wc)
{
	spin_lock_irq(&wc->delay_lock);
	wc->released = true;
	spin_unlock_irq(&wc->delay_lock);
	wberr_release_delayed(wc, true);
}

static void wberr_resume(struct dm_target *ti)
{
	struct wberr_c *wc = ti->private;

	mutex_lock(&wberr_targets_lock);
	wc->resumed = ++wberr_resume_gen;
	mutex_unlock(&wberr_targets_lock);
	spin_lock_irq(&wc->delay_lock);
	wc->suspending = false;
	wc->released = false;
	wc->stretch_start = 0;	/* a resume starts afresh */
	spin_unlock_irq(&wc->delay_lock);
}

/* ------------------------------------------------------------------------ */
/* Status                                                                   */
/* ------------------------------------------------------------------------ */

static u64 wberr_log_entries(struct wberr_c *wc)
{
	u64 oldest = wc->log_next > wc->log_size ?
		     wc->log_next - wc->log_size : 0;

	return wc->log_next - max(oldest, wc->log_first);
}

static void wberr_status(struct dm_target *ti, status_type_t type,
			 unsigned int status_flags, char *result,
			 unsigned int maxlen)
{
	struct wberr_c *wc = ti->private;
	u64 seen = 0, failed = 0, by_status[WBERR_NR_STATUS], dropped;
	struct wberr_snapshot *snap;
	unsigned int rules, sz = 0, i;
	u64 entries, next;
	bool any = false;
	int cpu;

	switch (type) {
	case STATUSTYPE_INFO:
		/*
		 * No lock covers all the counters, so they are read in the
		 * reverse order of their updates (map counts a bio seen,
		 * then failed or dropped, then logs it; wberr_inject()
		 * orders the first two): every line satisfies
		 * next <= failed + dropped <= seen, and failed is the sum of
		 * the per-status counts it prints.
		 */
		spin_lock_irq(&wc->log_lock);
		entries = wberr_log_entries(wc);
		next = wc->log_next;
		spin_unlock_irq(&wc->log_lock);
		for (i = 0; i < WBERR_NR_STATUS; i++) {
			by_status[i] = atomic64_read(&wc->failed[i]);
			failed += by_status[i];
		}
		dropped = atomic64_read(&wc->bios_dropped);
		smp_rmb();	/* pairs with smp_mb__before_atomic() in inject */
		for_each_possible_cpu(cpu)
			seen += *per_cpu_ptr(wc->bios_seen, cpu);
		rcu_read_lock();
		snap = rcu_dereference(wc->rules->snap);
		rules = snap ? snap->nr : 0;
		rcu_read_unlock();

		DMEMIT("%llu %llu %llu %u %llu %llu", seen, failed, dropped,
		       rules, entries, next);
		for (i = 0; i < WBERR_NR_STATUS; i++) {
			if (!by_status[i])
				continue;
			DMEMIT(" %s:%llu", wberr_status_names[i], by_status[i]);
			any = true;
		}
		if (!any)
			DMEMIT(" -");
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("%s %llu", wc->dev->name, (unsigned long long)wc->start);
		if (wc->nr_opt_args)
			DMEMIT(" %u %s", wc->nr_opt_args, wc->opt_args);
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",device_name=%s,start=%llu,log_size=%u,seed=%llu;",
		       wc->dev->name, (unsigned long long)wc->start,
		       wc->log_size, wc->seed);
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */
/* ------------------------------------------------------------------------ */

#define WBERR_MSG_ERR(wc, fmt, ...)					\
	DMERR_LIMIT("%s: " fmt,						\
		    dm_device_name((wc)->md), ##__VA_ARGS__)

/* The value of key @k of @r, if its kind is NUMBER or BOOL. */
static u64 wberr_rule_number(const struct wberr_rule *r, enum wberr_key k)
{
	switch (k) {
	case WBERR_KEY_SKIP:
		return r->skip;
	case WBERR_KEY_COUNT:
		return r->count;
	case WBERR_KEY_EVERY:
		return r->every;
	case WBERR_KEY_PROB:
		return r->prob;
	case WBERR_KEY_SPLIT:
		return r->split;
	case WBERR_KEY_SECTORS:
	case WBERR_KEY_ACTION:
	case WBERR_KEY_FLAGS:
	case WBERR_NR_KEYS:
		break;
	}
	return 0;
}

/*
 * Store @v, within key @k's min and max, if its kind is NUMBER or BOOL.
 * Every case is spelled out so that a key added to dm-wberr-abi.h without
 * a field here draws a -Wswitch warning.
 */
static void wberr_rule_set_number(struct wberr_rule *r, enum wberr_key k,
				  u64 v)
{
	switch (k) {
	case WBERR_KEY_SKIP:
		r->skip = v;
		break;
	case WBERR_KEY_COUNT:
		r->count = v;
		break;
	case WBERR_KEY_EVERY:
		r->every = v;
		break;
	case WBERR_KEY_PROB:
		r->prob = v;	/* at most WBERR_ABI_PPM */
		break;
	case WBERR_KEY_SPLIT:
		r->split = v;
		break;
	case WBERR_KEY_SECTORS:
	case WBERR_KEY_ACTION:
	case WBERR_KEY_FLAGS:
	case WBERR_NR_KEYS:
		break;
	}
}

static bool wberr_key_is_number(enum wberr_key k)
{
	return wberr_keys[k].kind == WBERR_ABI_KIND_NUMBER ||
	       wberr_keys[k].kind == WBERR_ABI_KIND_BOOL;
}

/*
 * A rule with every key at its default: the NUMBER and BOOL keys' dflt in
 * dm-wberr-abi.h, the whole target (RANGE), fail (ACTION), any bio (FLAGS).
 */
static void wberr_rule_init(struct wberr_rule *r)
{
	enum wberr_key k;

	memset(r, 0, sizeof(*r));
	r->last = WBERR_TARGET_END;
	r->action = WBERR_ACT_FAIL;
	for (k = 0; k < WBERR_NR_KEYS; k++)
		if (wberr_key_is_number(k))
			wberr_rule_set_number(r, k, wberr_keys[k].dflt);
}

/*
 * Rule parsing is shared by the "add" message and the table line's
 * "rule" argument; @what (add, rule) starts every refusal's reason.
 */
static int wberr_parse_ops(struct wberr_c *wc, const char *what,
			   const char *s, unsigned int *classes)
{
	const char *p = s, *end;
	unsigned int mask = 0, c;
	size_t len;

	if (!strcmp(s, "all")) {
		*classes = WBERR_ALL_CLASSES;
		return 0;
	}
	for (;;) {
		end = strchrnul(p, ',');
		len = end - p;
		for (c = 0; c < WBERR_NR_CLASSES; c++)
			if (strlen(wberr_class_names[c]) == len &&
			    !strncmp(p, wberr_class_names[c], len))
				break;
		if (c == WBERR_NR_CLASSES) {
			WBERR_MSG_ERR(wc,
				      "%s: bad op class '%.*s' in '%.64s' (read, write, fua, flush, discard, write_zeroes or all alone)",
				      what, (int)min_t(size_t, len, 32), p, s);
			return -EINVAL;
		}
		if (mask & BIT(c)) {
			WBERR_MSG_ERR(wc, "%s: op class '%s' repeated in '%.64s'",
				      what, wberr_class_names[c], s);
			return -EINVAL;
		}
		mask |= BIT(c);
		if (!*end)
			break;
		p = end + 1;
	}
	*classes = mask;
	return 0;
}

static int wberr_parse_status(struct wberr_c *wc, const char *what,
			      const char *s, blk_status_t *status)
{
	unsigned int i;
	u64 v;

	if (!strcmp(s, WBERR_ABI_STATUS_ALIAS))
		s = WBERR_ABI_STATUS_ALIAS_OF;
	for (i = 0; i < ARRAY_SIZE(wberr_statuses); i++) {
		if (strcmp(s, wberr_statuses[i].name))
			continue;
		if (wberr_statuses[i].status == WBERR_STS_ABSENT) {
			WBERR_MSG_ERR(wc, "%s: status '%s' does not exist in this kernel (%s)",
				      what, s, init_utsname()->release);
			return -EINVAL;
		}
		*status = wberr_statuses[i].status;
		return 0;
	}

	if (!strcmp(s, "ok")) {
		v = (__force u8)BLK_STS_OK;
	} else if (!strcmp(s, "dm_requeue")) {
		v = (__force u8)BLK_STS_DM_REQUEUE;
	} else if (wberr_parse_u64(s, &v)) {
		WBERR_MSG_ERR(wc, "%s: unknown status '%.64s'", what, s);
		return -EINVAL;
	}

	if (v == (__force u8)BLK_STS_OK) {
		WBERR_MSG_ERR(wc, "%s: status '%.64s' is success: the error would vanish",
			      what, s);
		return -EINVAL;
	}
	if (v == (__force u8)BLK_STS_DM_REQUEUE) {
		WBERR_MSG_ERR(wc, "%s: status '%.64s' is dm core's requeue request, not an error",
			      what, s);
		return -EINVAL;
	}
	if (v > wberr_status_last) {
		WBERR_MSG_ERR(wc, "%s: status '%.64s' is past the last blk_status_t (%u)",
			      what, s, wberr_status_last);
		return -EINVAL;
	}
#ifdef BLK_STS_ZONE_RESOURCE	/* before 6.5 */
	if (v == (__force u8)BLK_STS_ZONE_RESOURCE) {
		WBERR_MSG_ERR(wc,
			      "%s: status '%.64s' is BLK_STS_ZONE_RESOURCE, which dm-wberr does not offer",
			      what, s);
		return -EINVAL;
	}
#endif
	if (!wberr_status_names[v]) {
		WBERR_MSG_ERR(wc,
			      "%s: status '%.64s' is an unused value: blk_status_to_errno() gives 0",
			      what, s);
		return -EINVAL;
	}
	*status = (__force blk_status_t)v;
	return 0;
}

/* A RANGE key, @name=@val: <first>-<last> within the target */
static int wberr_parse_sectors(struct wberr_c *wc, const char *what,
			       const char *name, const char *val,
			       struct wberr_rule *r)
{
	char buf[48];
	char *dash;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		goto bad;
	dash = strchr(buf, '-');
	if (!dash)
		goto bad;
	*dash = '\0';
	if (wberr_parse_sector(buf, &r->first) ||
	    wberr_parse_sector(dash + 1, &r->last) || r->first > r->last)
		goto bad;
	if (r->last >= wc->ti->len) {
		WBERR_MSG_ERR(wc, "%s: %s=%.64s ends past the target (%llu sectors)",
			      what, name, val, (unsigned long long)wc->ti->len);
		return -EINVAL;
	}
	return 0;
bad:
	WBERR_MSG_ERR(wc, "%s: bad %s='%.64s' (want <first>-<last>, first <= last)",
		      what, name, val);
	return -EINVAL;
}

/* The action called @s (dm-wberr-abi.h), or -1. */
static int wberr_action_by_name(const char *s)
{
	unsigned int a;

	for (a = 0; a < WBERR_NR_ACTIONS; a++)
		if (!strcmp(s, wberr_action_names[a]))
			return a;
	return -1;
}

/*
 * An ACTION key, @name=@val: an action other than pass (which only
 * follows a delay), or delay:<ms>[:<action>], where the action is fail
 * when not given; pass_then_fail may stand alone or follow a delay.
 */
static int wberr_parse_action(struct wberr_c *wc, const char *what,
			      const char *name, const char *val,
			      struct wberr_rule *r)
{
	char buf[32], *then;
	int action;
	u64 ms;

	r->delay_ms = 0;
	action = wberr_action_by_name(val);
	if (action >= 0 && action != WBERR_ACT_PASS) {
		r->action = action;
		return 0;
	}
	if (strncmp(val, "delay:", 6) || strscpy(buf, val + 6, sizeof(buf)) < 0)
		goto bad;
	then = strchr(buf, ':');
	if (then)
		*then++ = '\0';
	if (wberr_parse_u64(buf, &ms) || ms < 1 || ms > WBERR_DELAY_MAX_MS)
		goto bad;
	action = then ? wberr_action_by_name(then) : WBERR_ACT_FAIL;
	if (action < 0)
		goto bad;
	r->delay_ms = ms;
	r->action = action;
	return 0;
bad:
	WBERR_MSG_ERR(wc, "%s: bad %s='%.64s' (%s, %s, %s or delay:<1..%u ms>[:%s|:%s|:%s|:%s])",
		      what, name, val, wberr_action_names[WBERR_ACT_FAIL],
		      wberr_action_names[WBERR_ACT_DROP],
		      wberr_action_names[WBERR_ACT_PASS_THEN_FAIL],
		      WBERR_DELAY_MAX_MS, wberr_action_names[WBERR_ACT_FAIL],
		      wberr_action_names[WBERR_ACT_DROP],
		      wberr_action_names[WBERR_ACT_PASS],
		      wberr_action_names[WBERR_ACT_PASS_THEN_FAIL]);
	return -EINVAL;
}

/* A FLAGS key, @name=<flag>[,<flag>...]: each required, or excluded with '!' */
static int wberr_parse_flags(struct wberr_c *wc, const char *what,
			     const char *name, const char *val,
			     struct wberr_rule *r)
{
	const char *p = val, *end, *flag;
	blk_opf_t *mask;
	unsigned int i;
	size_t len;

	for (;;) {
		end = strchrnul(p, ',');
		mask = &r->flags_set;
		flag = p;
		if (*flag == '!') {
			mask = &r->flags_clear;
			flag++;
		}
		len = end - flag;
		for (i = 0; i < ARRAY_SIZE(wberr_flags); i++)
			if (strlen(wberr_flags[i].name) == len &&
			    !strncmp(flag, wberr_flags[i].name, len))
				break;
		if (i == ARRAY_SIZE(wberr_flags)) {
			WBERR_MSG_ERR(wc,
				      "%s: bad flag '%.*s' in %s='%.64s' (sync, meta, prio, fua, preflush, rahead, background, nowait, idle, polled, nounmap, each may start with '!')",
				      what, (int)min_t(size_t, end - p, 32), p,
				      name, val);
			return -EINVAL;
		}
		if ((r->flags_set | r->flags_clear) & wberr_flags[i].flag) {
			WBERR_MSG_ERR(wc, "%s: flag '%s' repeated in %s='%.64s'",
				      what, wberr_flags[i].name, name, val);
			return -EINVAL;
		}
		*mask |= wberr_flags[i].flag;
		if (!*end)
			break;
		p = end + 1;
	}
	return 0;
}

/* What a NUMBER or BOOL key takes, for its refusal: "every >= 1" */
static void wberr_format_key_range(const struct wberr_key_desc *key,
				   char *buf, size_t len)
{
	if (key->kind == WBERR_ABI_KIND_BOOL)
		scnprintf(buf, len, "%s %llu or %llu", key->name, key->min,
			  key->max);
	else if (key->max != WBERR_ABI_U64_MAX)
		scnprintf(buf, len, "%s %llu..%llu", key->name, key->min,
			  key->max);
	else if (key->min)
		scnprintf(buf, len, "%s >= %llu", key->name, key->min);
	else
		strscpy(buf, "decimal u64", len);
}

/*
 * One <key>=<value> word: the key and its value's kind, limits and hint
 * come from dm-wberr-abi.h's WBERR_ABI_KEY table.
 */
static int wberr_parse_key(struct wberr_c *wc, const char *what,
			   const char *arg, struct wberr_rule *r,
			   unsigned int *seen)
{
	const char *eq = strchr(arg, '=');
	const struct wberr_key_desc *key;
	enum wberr_key k;
	const char *val;
	char hint[48];
	u64 v;

	for (k = 0; eq && k < WBERR_NR_KEYS; k++)
		if (strlen(wberr_keys[k].name) == eq - arg &&
		    !strncmp(arg, wberr_keys[k].name, eq - arg))
			break;
	if (!eq || k == WBERR_NR_KEYS) {
		WBERR_MSG_ERR(wc, "%s: unknown option '%.64s' (%.*s)",
			      what, arg, (int)sizeof(wberr_key_list) - 3,
			      wberr_key_list);
		return -EINVAL;
	}
	key = &wberr_keys[k];
	if (*seen & BIT(k)) {
		WBERR_MSG_ERR(wc, "%s: option '%s' given twice", what,
			      key->name);
		return -EINVAL;
	}
	*seen |= BIT(k);
	val = eq + 1;

	switch (key->kind) {
	case WBERR_ABI_KIND_RANGE:
		return wberr_parse_sectors(wc, what, key->name, val, r);
	case WBERR_ABI_KIND_ACTION:
		return wberr_parse_action(wc, what, key->name, val, r);
	case WBERR_ABI_KIND_FLAGS:
		return wberr_parse_flags(wc, what, key->name, val, r);
	default:	/* NUMBER, BOOL */
		break;
	}

	if (wberr_parse_u64(val, &v) || v < key->min || v > key->max) {
		wberr_format_key_range(key, hint, sizeof(hint));
		WBERR_MSG_ERR(wc, "%s: bad value in '%.64s' (%s)", what, arg,
			      hint);
		return -EINVAL;
	}
	wberr_rule_set_number(r, k, v);
	return 0;
}

/**
 * wberr_parse_rule() - parse <ops> <status> [<key>=<value>...]
 * @wc: target context (the target's length bounds sectors=)
 * @what: "add" or "rule", for the refusal's reason
 * @argc: number of words
 * @argv: the words
 * @r: the rule to fill in (everything but the id)
 *
 * Return: 0, or -EINVAL with the reason in the kernel log.
 */
static int wberr_parse_rule(struct wberr_c *wc, const char *what,
			    unsigned int argc, char **argv,
			    struct wberr_rule *r)
{
	unsigned int seen = 0, i;
	int ret;

	if (argc < 2 || argc > WBERR_RULE_MAX_WORDS) {
		WBERR_MSG_ERR(wc, "%s: wants <ops> <status> [key=value...], got %u words",
			      what, argc);
		return -EINVAL;
	}
	wberr_rule_init(r);

	ret = wberr_parse_ops(wc, what, argv[0], &r->classes);
	if (ret)
		return ret;
	ret = wberr_parse_status(wc, what, argv[1], &r->status);
	if (ret)
		return ret;
	for (i = 2; i < argc; i++) {
		ret = wberr_parse_key(wc, what, argv[i], r, &seen);
		if (ret)
			return ret;
	}
	if (r->action == WBERR_ACT_DROP && (r->classes & BIT(WBERR_READ))) {
		WBERR_MSG_ERR(wc,
			      "%s: action=drop cannot apply to reads (nor delay:<ms>:drop: they would return stale memory)",
			      what);
		return -EINVAL;
	}
	for (i = 0; r->split && i < WBERR_NR_CLASSES; i++) {
		if ((r->classes & BIT(i)) && !wberr_class_splits[i]) {
			WBERR_MSG_ERR(wc,
				      "%s: split=1 applies to read, write and fua only (dm core cannot cut a discard or write_zeroes bio; a flush has no sectors)",
				      what);
			return -EINVAL;
		}
	}
	return 0;
}

static void wberr_snapshot_free_rcu(struct rcu_head *head)
{
	struct wberr_snapshot *snap =
		container_of(head, struct wberr_snapshot, rcu);

	atomic_long_sub(snap->size, &snap->set->snap_pending);
	kvfree(snap);	/* vfree() defers itself in softirq context */
}

/* Free @snap after a grace period, counting it as pending until then. */
static void wberr_free_snapshot_rcu(struct wberr_rules *set,
				    struct wberr_snapshot *snap)
{
	atomic_long_add(snap->size, &set->snap_pending);
	call_rcu(&snap->rcu, wberr_snapshot_free_rcu);
}

/*
 * Each add or remove copies the rule set (up to ~0.8 MB for 4096 rules)
 * and frees the old copy after a grace period.  A burst of messages can
 * outrun grace periods and leave hundreds of megabytes waiting; past
 * WBERR_SNAP_PENDING_MAX bytes the sender waits for the callbacks instead.
 * Called without the set's lock: rcu_barrier() sleeps for grace periods.
 */
static void wberr_bound_snapshot_pending(struct wberr_rules *set)
{
	if (atomic_long_read(&set->snap_pending) > WBERR_SNAP_PENDING_MAX)
		rcu_barrier();
}

/* Publish @snap and free @old (and @gone, if any) after a grace period. */
static void wberr_publish(struct wberr_rules *set, struct wberr_snapshot *snap,
			  struct wberr_snapshot *old, struct wberr_rule *gone)
{
	rcu_assign_pointer(set->snap, snap);
	if (gone)
		kfree_rcu(gone, rcu);
	if (old)
		wberr_free_snapshot_rcu(set, old);
}

/*
 * Does @r fit every target sharing @set?  Parsing checked it against the
 * target the message came to; between a keep_rules load and its resume
 * the loaded table shares the set and may be shorter.
 */
static bool wberr_fits_users(struct wberr_c *wc, const char *what,
			     struct wberr_rules *set, struct wberr_rule *r)
{
	struct wberr_c *user;

	lockdep_assert_held(&set->lock);
	if (r->last == WBERR_TARGET_END)
		return true;
	list_for_each_entry(user, &set->users, set_node) {
		if (r->last >= user->ti->len) {
			WBERR_MSG_ERR(wc,
				      "%s: sectors=%llu-%llu ends past a table that shares these rules (%llu sectors)",
				      what, (unsigned long long)r->first,
				      (unsigned long long)r->last,
				      (unsigned long long)user->ti->len);
			return false;
		}
	}
	return true;
}

/**
 * wberr_add_rule() - give a parsed rule an id and publish it
 * @wc: target context
 * @what: "add" or "rule", for the refusal's reason
 * @tmpl: the parsed rule
 * @id: set to the new rule's id
 *
 * Return: 0, -EINVAL when the rule ends past a target sharing the rules,
 * -ENOSPC past WBERR_MAX_RULES rules, or -ENOMEM.
 */
static int wberr_add_rule(struct wberr_c *wc, const char *what,
			  struct wberr_rule *tmpl, unsigned int *id)
{
	struct wberr_rules *set = wc->rules;
	struct wberr_snapshot *old, *snap;
	struct wberr_rule *r;

	r = kmemdup(tmpl, sizeof(*tmpl), GFP_KERNEL);
	if (!r)
		return -ENOMEM;

	mutex_lock(&set->lock);
	old = rcu_dereference_protected(set->snap, lockdep_is_held(&set->lock));
	if (old && old->nr >= WBERR_MAX_RULES) {
		mutex_unlock(&set->lock);
		kfree(r);
		WBERR_MSG_ERR(wc, "%s: already %u rules, the maximum", what,
			      WBERR_MAX_RULES);
		return -ENOSPC;
	}
	if (set->next_id == UINT_MAX) {
		mutex_unlock(&set->lock);
		kfree(r);
		WBERR_MSG_ERR(wc, "%s: rule ids exhausted; reload the table",
			      what);
		return -ENOSPC;
	}
	if (!wberr_fits_users(wc, what, set, r)) {
		mutex_unlock(&set->lock);
		kfree(r);
		return -EINVAL;
	}
	r->id = set->next_id;
	snap = wberr_build_snapshot(set, old, r, NULL);
	if (IS_ERR(snap)) {
		mutex_unlock(&set->lock);
		kfree(r);
		return PTR_ERR(snap);
	}
	/*
	 * The id, not r->id after unlock: once the lock is dropped a
	 * concurrent "clear" or "remove <id>" may free @r (dm-ioctl does not
	 * serialise target messages, and this is no RCU read section).
	 */
	*id = set->next_id++;
	wberr_publish(set, snap, old, NULL);
	mutex_unlock(&set->lock);
	wberr_bound_snapshot_pending(set);
	return 0;
}

static int wberr_msg_add(struct wberr_c *wc, unsigned int argc, char **argv,
			 char *result, unsigned int maxlen)
{
	struct wberr_rule tmpl;
	unsigned int sz = 0, id;
	int ret;

	ret = wberr_parse_rule(wc, "add", argc - 1, argv + 1, &tmpl);
	if (!ret)
		ret = wberr_add_rule(wc, "add", &tmpl, &id);
	if (ret)
		return ret;
	DMEMIT("%u", id);
	return 1;
}

static int wberr_parse_id(struct wberr_c *wc, const char *s, unsigned int *id)
{
	u64 v;

	if (wberr_parse_u64(s, &v) || v > UINT_MAX) {
		WBERR_MSG_ERR(wc, "remove: bad rule id '%.64s'", s);
		return -EINVAL;
	}
	*id = v;
	return 0;
}

static int wberr_msg_remove(struct wberr_c *wc, unsigned int argc,
			    char **argv)
{
	struct wberr_rules *set = wc->rules;
	struct wberr_snapshot *old, *snap;
	struct wberr_rule *gone = NULL;
	unsigned int id, i;
	int ret;

	if (argc != 2) {
		WBERR_MSG_ERR(wc, "remove: wants exactly one rule id");
		return -EINVAL;
	}
	ret = wberr_parse_id(wc, argv[1], &id);
	if (ret)
		return ret;

	mutex_lock(&set->lock);
	old = rcu_dereference_protected(set->snap, lockdep_is_held(&set->lock));
	for (i = 0; old && i < old->nr; i++)
		if (old->rules[i]->id == id)
			gone = old->rules[i];
	if (!gone) {
		mutex_unlock(&set->lock);
		WBERR_MSG_ERR(wc, "remove: no rule %u", id);
		return -EINVAL;
	}
	snap = wberr_build_snapshot(set, old, NULL, gone);
	if (IS_ERR(snap)) {
		mutex_unlock(&set->lock);
		return PTR_ERR(snap);
	}
	wberr_publish(set, snap, old, gone);
	mutex_unlock(&set->lock);
	wberr_bound_snapshot_pending(set);
	return 0;
}

static void wberr_clear_rules(struct wberr_rules *set)
{
	struct wberr_snapshot *old;
	unsigned int i;

	mutex_lock(&set->lock);
	old = rcu_dereference_protected(set->snap, lockdep_is_held(&set->lock));
	rcu_assign_pointer(set->snap, NULL);
	for (i = 0; old && i < old->nr; i++)
		kfree_rcu(old->rules[i], rcu);
	if (old)
		wberr_free_snapshot_rcu(set, old);
	mutex_unlock(&set->lock);
}

static void wberr_format_classes(unsigned int classes, char *buf, size_t len)
{
	unsigned int c;
	size_t n = 0;

	if (classes == WBERR_ALL_CLASSES) {
		strscpy(buf, "all", len);
		return;
	}
	buf[0] = '\0';
	for (c = 0; c < WBERR_NR_CLASSES; c++)
		if (classes & BIT(c))
			n += scnprintf(buf + n, len - n, "%s%s", n ? "," : "",
				       wberr_class_names[c]);
}

/* A rule's flags= value: required flags by name, excluded ones with '!'. */
static void wberr_format_rule_flags(const struct wberr_rule *r, char *buf,
				    size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(wberr_flags); i++)
		if ((r->flags_set | r->flags_clear) & wberr_flags[i].flag)
			n += scnprintf(buf + n, len - n, "%s%s%s",
				       n ? "," : "",
				       r->flags_clear & wberr_flags[i].flag ?
				       "!" : "", wberr_flags[i].name);
}

/* A rule's action= value: fail, drop, pass_then_fail, or delay:<ms>[:<action>] */
static void wberr_format_action(const struct wberr_rule *r, char *buf,
				size_t len)
{
	if (!r->delay_ms)
		strscpy(buf, wberr_action_names[r->action], len);
	else if (r->action == WBERR_ACT_FAIL)
		scnprintf(buf, len, "delay:%u", r->delay_ms);
	else
		scnprintf(buf, len, "delay:%u:%s", r->delay_ms,
			  wberr_action_names[r->action]);
}

/* Is key @k of @r at its default (wberr_rule_init())? */
static bool wberr_key_is_default(const struct wberr_rule *r,
				 enum wberr_key k)
{
	switch (wberr_keys[k].kind) {
	case WBERR_ABI_KIND_RANGE:
		return !r->first && r->last == WBERR_TARGET_END;
	case WBERR_ABI_KIND_ACTION:
		return r->action == WBERR_ACT_FAIL && !r->delay_ms;
	case WBERR_ABI_KIND_FLAGS:
		return !(r->flags_set | r->flags_clear);
	default:	/* NUMBER, BOOL */
		return wberr_rule_number(r, k) == wberr_keys[k].dflt;
	}
}

/* The value of key @k of @r as "list" prints it, after "<key>=". */
static void wberr_format_key(struct wberr_c *wc, const struct wberr_rule *r,
			     enum wberr_key k, char *buf, size_t len)
{
	switch (wberr_keys[k].kind) {
	case WBERR_ABI_KIND_RANGE:
		scnprintf(buf, len, "%llu-%llu", (unsigned long long)r->first,
			  (unsigned long long)min(r->last, wc->ti->len - 1));
		break;
	case WBERR_ABI_KIND_ACTION:
		wberr_format_action(r, buf, len);
		break;
	case WBERR_ABI_KIND_FLAGS:
		wberr_format_rule_flags(r, buf, len);
		break;
	default:	/* NUMBER, BOOL */
		scnprintf(buf, len, "%llu", wberr_rule_number(r, k));
		break;
	}
}

/*
 * One line per rule: the keys in dm-wberr-abi.h's order, each listed
 * ALWAYS or, listed SET (the keys added in 1.1), when not at its default.
 * When the lines do not fit, the text is cut at
 * maxlen, which makes dm-ioctl flag DM_BUFFER_FULL_FLAG; libdevmapper
 * then repeats the message with a larger buffer, so "dmsetup message"
 * always prints the whole list.
 */
static int wberr_msg_list(struct wberr_c *wc, char *result,
			  unsigned int maxlen)
{
	struct wberr_snapshot *snap;
	unsigned int sz = 0, i;
	char ops[64], val[128];
	enum wberr_key k;

	if (maxlen)
		result[0] = '\0';
	rcu_read_lock();
	snap = rcu_dereference(wc->rules->snap);
	for (i = 0; snap && i < snap->nr && sz < maxlen; i++) {
		struct wberr_rule *r = snap->rules[i];

		wberr_format_classes(r->classes, ops, sizeof(ops));
		DMEMIT("%u %s %s ", r->id, ops,
		       wberr_status_names[(__force u8)r->status]);
		for (k = 0; k < WBERR_NR_KEYS; k++) {
			if (wberr_keys[k].listed == WBERR_ABI_LISTED_SET &&
			    wberr_key_is_default(r, k))
				continue;
			wberr_format_key(wc, r, k, val, sizeof(val));
			DMEMIT("%s=%s ", wberr_keys[k].name, val);
		}
		DMEMIT("matched=%llu fired=%llu\n",
		       (u64)atomic64_read(&r->matched),
		       (u64)atomic64_read(&r->fired));
	}
	rcu_read_unlock();
	return 1;
}

/*
 * Entries with seq >= @from, oldest first, as many whole lines as fit
 * without filling the buffer (a full buffer would make libdevmapper repeat
 * the message); the caller pages on with the next seq.  Entries are copied
 * out in batches so the log lock is never held while formatting.
 */
static int wberr_msg_log(struct wberr_c *wc, unsigned int argc, char **argv,
			 char *result, unsigned int maxlen)
{
	struct wberr_log_entry *batch;
	unsigned int sz = 0, n, i;
	char line[192], flags[96];
	u64 from = 0, seq, oldest;
	bool full = false;
	int len;

	if (argc > 2 || (argc == 2 && wberr_parse_u64(argv[1], &from))) {
		WBERR_MSG_ERR(wc, "log: wants an optional decimal <from_seq>, got '%.64s'",
			      argc > 1 ? argv[1] : "");
		return -EINVAL;
	}
	batch = kmalloc_array(WBERR_LOG_BATCH, sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return -ENOMEM;

	if (maxlen)
		result[0] = '\0';
	seq = from;
	while (!full) {
		spin_lock_irq(&wc->log_lock);
		oldest = wc->log_next - wberr_log_entries(wc);
		seq = max(seq, oldest);
		for (n = 0; n < WBERR_LOG_BATCH && seq + n < wc->log_next; n++)
			batch[n] = wc->log[wberr_log_slot(wc, seq + n)];
		spin_unlock_irq(&wc->log_lock);
		if (!n)
			break;

		for (i = 0; i < n; i++) {
			struct wberr_log_entry *e = &batch[i];

			wberr_format_flags(e->opf, flags, sizeof(flags));
			len = scnprintf(line, sizeof(line),
					"%llu %llu %u %s %s %llu %u %s\n",
					e->seq, e->ns, e->rule_id,
					wberr_class_names[e->class], flags,
					(unsigned long long)e->sector,
					e->nr_sectors,
					e->status ? wberr_status_names[e->status] : "ok");
			if (sz + len + 1 >= maxlen) {
				/*
				 * Not even one line fits: an empty answer
				 * would read as "nothing logged".  Fill the
				 * buffer instead, so that dm-ioctl flags it
				 * full and libdevmapper asks again with a
				 * larger one.
				 */
				if (!sz && maxlen)
					strscpy(result, line, maxlen);
				full = true;
				break;
			}
			memcpy(result + sz, line, len + 1);
			sz += len;
		}
		seq += n;
	}
	kfree(batch);
	return 1;
}

/*
 * Every status this kernel has, in value order, as <name>=<value> words
 * joined by single spaces: the names of wberr_statuses[] (resv_conflict
 * for 6.1's BLK_STS_NEXUS), the values of the blk_types.h the module was
 * built against.  Userspace reads the numbering, and which statuses
 * exist, from here instead of assuming 6.12's.  A reply cut at @maxlen
 * makes dm-ioctl flag the buffer full, and libdevmapper asks again.
 */
static int wberr_msg_statuses(char *result, unsigned int maxlen)
{
	unsigned int sz = 0, v;

	if (maxlen)
		result[0] = '\0';
	for (v = 0; v < WBERR_NR_STATUS; v++)
		if (wberr_status_names[v])
			DMEMIT("%s%s=%u", sz ? " " : "",
			       wberr_status_names[v], v);
	return 1;
}

static int wberr_do_message(struct wberr_c *wc, unsigned int argc,
			    char **argv, char *result, unsigned int maxlen)
{
	const char *verb = argv[0];

	/*
	 * dm-ioctl hands out a result buffer that overlaps the message text
	 * (both start at data_start): never write to @result until @argv has
	 * been consumed.
	 */
	if (!strcmp(verb, "add"))
		return wberr_msg_add(wc, argc, argv, result, maxlen);
	if (!strcmp(verb, "remove"))
		return wberr_msg_remove(wc, argc, argv);
	if (!strcmp(verb, "log"))
		return wberr_msg_log(wc, argc, argv, result, maxlen);

	if (!strcmp(verb, "clear") || !strcmp(verb, "list") ||
	    !strcmp(verb, "log_clear") || !strcmp(verb, "release") ||
	    !strcmp(verb, "statuses")) {
		if (argc != 1) {
			WBERR_MSG_ERR(wc, "%s: takes no arguments, got '%.64s'",
				      verb, argv[1]);
			return -EINVAL;
		}
		if (!strcmp(verb, "list"))
			return wberr_msg_list(wc, result, maxlen);
		if (!strcmp(verb, "statuses"))
			return wberr_msg_statuses(result, maxlen);
		if (!strcmp(verb, "clear")) {
			wberr_clear_rules(wc->rules);
		} else if (!strcmp(verb, "release")) {
			wberr_release(wc);
		} else {
			spin_lock_irq(&wc->log_lock);
			wc->log_first = wc->log_next;
			spin_unlock_irq(&wc->log_lock);
		}
		return 0;
	}

	WBERR_MSG_ERR(wc,
		      "unknown message '%.64s' (add, remove, clear, list, log, log_clear, release, statuses)",
		      verb);
	return -EINVAL;
}

static int wberr_message(struct dm_target *ti, unsigned int argc, char **argv,
			 char *result, unsigned int maxlen)
{
	unsigned int noio_flags;
	int r;

	/*
	 * Messages are accepted while the device is suspended, and an add
	 * allocates up to ~0.8 MB: reclaim entered from here must not wait
	 * on writeback to a device that cannot complete it (dm-ioctl itself
	 * allocates with GFP_NOIO for the same reason).
	 */
	noio_flags = memalloc_noio_save();
	r = wberr_do_message(ti->private, argc, argv, result, maxlen);
	memalloc_noio_restore(noio_flags);
	return r;
}

/* ------------------------------------------------------------------------ */
/* Device plumbing                                                          */
/* ------------------------------------------------------------------------ */

static int wberr_prepare_ioctl(struct dm_target *ti, struct block_device **bdev)
{
	struct wberr_c *wc = ti->private;

	*bdev = wc->dev->bdev;

	/* Only pass ioctls through if the device sizes match exactly. */
	if (wc->start || ti->len != bdev_nr_sectors(*bdev))
		return 1;
	return 0;
}

static int wberr_iterate_devices(struct dm_target *ti,
				 iterate_devices_callout_fn fn, void *data)
{
	struct wberr_c *wc = ti->private;

	return fn(ti, wc->dev, wc->start, ti->len, data);
}

#if IS_ENABLED(CONFIG_FS_DAX)
/*
 * DAX pass-through.  A file system mounted with -o dax over this target
 * reads and writes file data with loads and stores into the pmem below,
 * found through these callbacks: that data never becomes a bio, so no rule
 * can fail it, and none is asked to.  What stays a bio (the file system's
 * metadata, its journal, flushes) passes through wberr_map() and the fault
 * plan as on any device.  Media errors on DAX data are the pmem's own
 * badblocks, which dax_direct_access() below reports as -EHWPOISON; they
 * are passed on unchanged.
 */
static struct dax_device *wberr_dax_pgoff(struct dm_target *ti, pgoff_t *pgoff)
{
	struct wberr_c *wc = ti->private;
	sector_t sector = wc->start + dm_target_offset(ti, *pgoff << PAGE_SECTORS_SHIFT);

	*pgoff = (get_start_sect(wc->dev->bdev) + sector) >> PAGE_SECTORS_SHIFT;
	return wc->dev->dax_dev;
}

static long wberr_dax_direct_access(struct dm_target *ti, pgoff_t pgoff,
				    long nr_pages, enum dax_access_mode mode,
				    void **kaddr, pfn_t *pfn)
{
	struct dax_device *dax_dev = wberr_dax_pgoff(ti, &pgoff);

	return dax_direct_access(dax_dev, pgoff, nr_pages, mode, kaddr, pfn);
}

static int wberr_dax_zero_page_range(struct dm_target *ti, pgoff_t pgoff,
				     size_t nr_pages)
{
	struct dax_device *dax_dev = wberr_dax_pgoff(ti, &pgoff);

	return dax_zero_page_range(dax_dev, pgoff, nr_pages);
}

static size_t wberr_dax_recovery_write(struct dm_target *ti, pgoff_t pgoff,
				       void *addr, size_t bytes,
				       struct iov_iter *i)
{
	struct dax_device *dax_dev = wberr_dax_pgoff(ti, &pgoff);

	return dax_recovery_write(dax_dev, pgoff, addr, bytes, i);
}
#else
#define wberr_dax_direct_access NULL
#define wberr_dax_zero_page_range NULL
#define wberr_dax_recovery_write NULL
#endif

static struct target_type wberr_target = {
	.name		 = "wberr",
	.version	 = {1, 6, 0},
	.features	 = DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = wberr_ctr,
	.dtr		 = wberr_dtr,
	.map		 = wberr_map,
	.end_io		 = wberr_end_io,
	.presuspend	 = wberr_presuspend,
	.presuspend_undo = wberr_presuspend_undo,
	.resume		 = wberr_resume,
	.status		 = wberr_status,
	.message	 = wberr_message,
	.prepare_ioctl	 = wberr_prepare_ioctl,
	.iterate_devices = wberr_iterate_devices,
	.direct_access	 = wberr_dax_direct_access,
	.dax_zero_page_range = wberr_dax_zero_page_range,
	.dax_recovery_write = wberr_dax_recovery_write,
};

static int __init dm_wberr_init(void)
{
	int r = wberr_status_init();

	if (r)
		return r;
	return dm_register_target(&wberr_target);
}

static void __exit dm_wberr_exit(void)
{
	dm_unregister_target(&wberr_target);
	/* snapshot RCU callbacks run this module's code */
	rcu_barrier();
}

module_init(dm_wberr_init);
module_exit(dm_wberr_exit);

module_param_cb(max_hold_secs, &wberr_max_hold_secs_ops, &max_hold_secs, 0644);
MODULE_PARM_DESC(max_hold_secs, "Longest a device holds bios at a stretch, in seconds: 1 to the default, "
		 __stringify(WBERR_MAX_HOLD_SECS_DEFAULT));

MODULE_DESCRIPTION(DM_NAME " target failing chosen bios with a chosen blk_status_t");
MODULE_LICENSE("GPL");
