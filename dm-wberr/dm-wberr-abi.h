/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names dm-wberr's message grammar shares with userspace, written once.
 * Included by dm-wberr.c, which takes every status's value from the
 * kernel it is built against (BLK_STS_<sfx>; the numbers below are 6.12's,
 * checked at compile time on a kernel that has all of them), and by lib/c (wberr-run,
 * wberr-stress, the guest helpers, wberr-names), so the two sides cannot
 * disagree.  No kernel or libc includes: the errno names resolve in the
 * includer's errno.h.
 *
 * Define WBERR_ABI_STATUS(nr, name, sfx, err), WBERR_ABI_OP(sfx, name),
 * WBERR_ABI_SPLIT_OP(sfx), WBERR_ABI_FLAG(sfx, name), WBERR_ABI_ACTION(sfx,
 * name) and/or WBERR_ABI_KEY(sfx, wire, yaml, kind, min, max, dflt, listed)
 * before including it; each list is expanded once and the macro undefined,
 * so the file has no include guard on purpose.  The constants first are
 * guarded: the first include defines them.
 */

#ifndef WBERR_ABI_NR_STATUS
/* one past the largest blk_status_t value in 6.12 */
#define WBERR_ABI_NR_STATUS		20
/* accepted for resv_conflict: BLK_STS_NEXUS was renamed in 6.5 */
#define WBERR_ABI_STATUS_ALIAS		"nexus"
#define WBERR_ABI_STATUS_ALIAS_OF	"resv_conflict"
/*
 * The longest action=delay:<ms>.  A held bio keeps every suspend that the
 * target's presuspend does not see waiting (dm-stats' internal suspend, a
 * device stacked above) and its submitter in D state: stay below the
 * default hung-task timeout (120 s).  It also bounds a waiter of a chain
 * of bios: the target holds bios for at most this long at a stretch
 * (dm-wberr.c, wberr_hold_until(); the max_hold_secs parameter may lower
 * it).  The "release" message ends the wait
 * and stops holding until the next resume.
 */
#define WBERR_ABI_DELAY_MAX_MS		60000
/* prob= is in parts per million */
#define WBERR_ABI_PPM			1000000
/* the largest NUMBER: a u64 (plain C, for the kernel and userspace alike) */
#define WBERR_ABI_U64_MAX		(~0ULL)

/*
 * The kinds of a key's value and when "list" prints it (WBERR_ABI_KEY).
 * Macros, not enums: an includer may be inside an enum of its own when
 * the first include expands this block.
 */
#define WBERR_ABI_KIND_RANGE		0
#define WBERR_ABI_KIND_NUMBER		1
#define WBERR_ABI_KIND_ACTION		2
#define WBERR_ABI_KIND_FLAGS		3
#define WBERR_ABI_KIND_BOOL		4
#define WBERR_ABI_LISTED_ALWAYS		0
#define WBERR_ABI_LISTED_SET		1
#endif

/*
 * Every status a rule may complete a bio with, in value order: the
 * blk_status_t value in 6.12, the name in the message grammar, the
 * BLK_STS_ suffix and the errno blk_status_to_errno() returns, negated
 * (include/linux/blk_types.h and blk_errors[] in block/blk-core.c, 6.12).
 * Other kernels number some differently (6.1: zone_open_resource 15,
 * zone_active_resource 16, offline 17) or lack them (6.1: duration_limit,
 * inval; resv_conflict is BLK_STS_NEXUS there): dm-wberr goes by name and
 * refuses a status its kernel lacks.
 */
#ifdef WBERR_ABI_STATUS
WBERR_ABI_STATUS(1,  notsupp,			NOTSUPP,		EOPNOTSUPP)
WBERR_ABI_STATUS(2,  timeout,			TIMEOUT,		ETIMEDOUT)
WBERR_ABI_STATUS(3,  nospc,			NOSPC,			ENOSPC)
WBERR_ABI_STATUS(4,  transport,			TRANSPORT,		ENOLINK)
WBERR_ABI_STATUS(5,  target,			TARGET,			EREMOTEIO)
WBERR_ABI_STATUS(6,  resv_conflict,		RESV_CONFLICT,		EBADE)
WBERR_ABI_STATUS(7,  medium,			MEDIUM,			ENODATA)
WBERR_ABI_STATUS(8,  protection,		PROTECTION,		EILSEQ)
WBERR_ABI_STATUS(9,  resource,			RESOURCE,		ENOMEM)
WBERR_ABI_STATUS(10, ioerr,			IOERR,			EIO)
WBERR_ABI_STATUS(12, again,			AGAIN,			EAGAIN)
WBERR_ABI_STATUS(13, dev_resource,		DEV_RESOURCE,		EBUSY)
WBERR_ABI_STATUS(14, zone_open_resource,	ZONE_OPEN_RESOURCE,	ETOOMANYREFS)
WBERR_ABI_STATUS(15, zone_active_resource,	ZONE_ACTIVE_RESOURCE,	EOVERFLOW)
WBERR_ABI_STATUS(16, offline,			OFFLINE,		ENODEV)
WBERR_ABI_STATUS(17, duration_limit,		DURATION_LIMIT,		ETIME)
WBERR_ABI_STATUS(19, inval,			INVAL,			EINVAL)
#undef WBERR_ABI_STATUS
#endif

/*
 * The op classes a rule matches, in bit order: write is a data write
 * without FUA, fua one with FUA, flush the empty preflush bio.
 */
#ifdef WBERR_ABI_OP
WBERR_ABI_OP(READ,		read)
WBERR_ABI_OP(WRITE,		write)
WBERR_ABI_OP(FUA,		fua)
WBERR_ABI_OP(FLUSH,		flush)
WBERR_ABI_OP(DISCARD,		discard)
WBERR_ABI_OP(WRITE_ZEROES,	write_zeroes)
#undef WBERR_ABI_OP
#endif

/*
 * The op classes a split=1 rule may have, by suffix; split=1 with any
 * other class is refused.  dm core forbids dm_accept_partial_bio() on the
 * bios __send_duplicate_bios() sends, every discard and write-zeroes bio,
 * and an empty flush has no sectors to cut.
 */
#ifdef WBERR_ABI_SPLIT_OP
WBERR_ABI_SPLIT_OP(READ)
WBERR_ABI_SPLIT_OP(WRITE)
WBERR_ABI_SPLIT_OP(FUA)
#undef WBERR_ABI_SPLIT_OP
#endif

/*
 * The bio flags the fault log prints and a rule's flags= matches, in the
 * order the log prints them: the name, and the REQ_ suffix
 * (include/linux/blk_types.h).
 */
#ifdef WBERR_ABI_FLAG
WBERR_ABI_FLAG(SYNC,		sync)
WBERR_ABI_FLAG(META,		meta)
WBERR_ABI_FLAG(PRIO,		prio)
WBERR_ABI_FLAG(FUA,		fua)
WBERR_ABI_FLAG(PREFLUSH,	preflush)
WBERR_ABI_FLAG(RAHEAD,		rahead)
WBERR_ABI_FLAG(BACKGROUND,	background)
WBERR_ABI_FLAG(NOWAIT,		nowait)
WBERR_ABI_FLAG(IDLE,		idle)
WBERR_ABI_FLAG(POLLED,		polled)
WBERR_ABI_FLAG(NOUNMAP,		nounmap)
#undef WBERR_ABI_FLAG
#endif

/*
 * What a rule does with a bio once it fires (after its delay, if any), in
 * the order of the kernel's enum: action=fail, action=drop, pass, which
 * only follows a delay (action=delay:<ms>:pass), and pass_then_fail, the
 * failure of a command the device executed (what NVMe's fault injector
 * does, docs/real-drivers.md): the bio reaches the device, and its
 * completion carries the status, unless the device failed it itself.
 */
#ifdef WBERR_ABI_ACTION
WBERR_ABI_ACTION(FAIL,		fail)		/* complete with the status */
WBERR_ABI_ACTION(DROP,		drop)		/* complete with success, unwritten */
WBERR_ABI_ACTION(PASS,		pass)		/* remap: only after a delay */
WBERR_ABI_ACTION(PASS_THEN_FAIL, pass_then_fail)	/* remap; complete with the status */
#undef WBERR_ABI_ACTION
#endif

/*
 * The keys of a rule, "<ops> <status> [<key>=<value>...]" (the "add"
 * message and the table line's "rule"), in the order "list" prints them:
 *   sfx     the enum suffix (WBERR_KEY_<sfx>)
 *   wire    the key in a message
 *   yaml    the key of a scenario's fault step (tools/wberr-run/parse.c),
 *           where it differs: bio_flags is flags= on the wire
 *   kind    RANGE <first>-<last> sectors; NUMBER a strict decimal u64;
 *           ACTION fail|drop|pass_then_fail|delay:<ms>[:fail|:drop|:pass|
 *           :pass_then_fail]; FLAGS
 *           <flag>[,<flag>...] of the WBERR_ABI_FLAG names, each may
 *           start with '!'; BOOL 0 or 1 (a YAML boolean)
 *   min,max the values a NUMBER or BOOL takes, inclusive (0, 0 for the
 *           other kinds)
 *   dflt    the value when the key is not given (RANGE: the whole
 *           target; ACTION: fail; FLAGS: any bio)
 *   listed  ALWAYS: "list" prints it for every rule; SET: only when not
 *           at its default (the keys added in 1.1)
 * prob=0 is a rule that matches and counts its bios and never fires (a
 * probe of which bios reach it): the target has taken it since 1.0, and
 * scenarios take it too.
 */
#ifdef WBERR_ABI_KEY
WBERR_ABI_KEY(SECTORS, sectors, sectors,   RANGE,  0, 0,                 0,             ALWAYS)
WBERR_ABI_KEY(SKIP,    skip,    skip,      NUMBER, 0, WBERR_ABI_U64_MAX, 0,             ALWAYS)
WBERR_ABI_KEY(COUNT,   count,   count,     NUMBER, 0, WBERR_ABI_U64_MAX, 0,             ALWAYS)
WBERR_ABI_KEY(EVERY,   every,   every,     NUMBER, 1, WBERR_ABI_U64_MAX, 1,             ALWAYS)
WBERR_ABI_KEY(PROB,    prob,    prob,      NUMBER, 0, WBERR_ABI_PPM,     WBERR_ABI_PPM, ALWAYS)
WBERR_ABI_KEY(ACTION,  action,  action,    ACTION, 0, 0,                 0,             ALWAYS)
WBERR_ABI_KEY(FLAGS,   flags,   bio_flags, FLAGS,  0, 0,                 0,             SET)
WBERR_ABI_KEY(SPLIT,   split,   split,     BOOL,   0, 1,                 0,             SET)
#undef WBERR_ABI_KEY
#endif
