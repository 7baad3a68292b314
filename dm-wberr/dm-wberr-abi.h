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
 * WBERR_ABI_SPLIT_OP(sfx) and/or WBERR_ABI_FLAG(sfx, name) before
 * including it; each list is
 * expanded once and the macro undefined, so the file has no include guard
 * on purpose.
 */

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
 * (dm-wberr.c, wberr_hold_until()).  The "release" message ends the wait
 * and stops holding until the next resume.
 */
#define WBERR_ABI_DELAY_MAX_MS		60000
#endif
