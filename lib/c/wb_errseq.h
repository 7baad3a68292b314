/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user-space copy of lib/errseq.c (6.12), single-threaded: wberr-run's
 * model of mapping->wb_err, sb->s_wb_err and the per-file cursors, and
 * wberr-stress's arithmetic on traced values.  tests/test_errseq.c holds
 * one host test per KUnit case of kernel/patches/0002.
 */
#ifndef WB_ERRSEQ_H
#define WB_ERRSEQ_H

#include <stdint.h>

typedef uint32_t wb_errseq_t;

/* errno in the low 12 bits, SEEN = bit 12, counter from bit 13 */
#define WB_ERRSEQ_MAX_ERRNO	4095u
#define WB_ERRSEQ_SHIFT		12
#define WB_ERRSEQ_SEEN		(1u << WB_ERRSEQ_SHIFT)
#define WB_ERRSEQ_CTR_SHIFT	(WB_ERRSEQ_SHIFT + 1)
#define WB_ERRSEQ_CTR_INC	(1u << WB_ERRSEQ_CTR_SHIFT)

/* err is negative (-EIO).  Returns the previous value, like the kernel. */
wb_errseq_t wb_errseq_set(wb_errseq_t *eseq, int err);
/* 0 when the current error has not been seen (b4678df184b3, v4.17) */
wb_errseq_t wb_errseq_sample(const wb_errseq_t *eseq);
/* -errno if *eseq changed since @since, else 0 */
int wb_errseq_check(const wb_errseq_t *eseq, wb_errseq_t since);
/* like wb_errseq_check, and marks SEEN and advances *since */
int wb_errseq_check_and_advance(wb_errseq_t *eseq, wb_errseq_t *since);

static inline int wb_errseq_errno(wb_errseq_t v) { return (int)(v & WB_ERRSEQ_MAX_ERRNO); }
static inline int wb_errseq_seen(wb_errseq_t v) { return !!(v & WB_ERRSEQ_SEEN); }
static inline uint32_t wb_errseq_counter(wb_errseq_t v) { return v >> WB_ERRSEQ_CTR_SHIFT; }

/*
 * The error "instance" a value stands for: 0 = never failed, else
 * counter + 1.  errseq_set() overwrites an unseen error in place (same
 * instance, reported once) and starts a new instance after a SEEN one.
 */
uint32_t wb_errseq_level(wb_errseq_t v);
/* the instance errseq_set() leaves a mapping at, given the OLD value */
uint32_t wb_errseq_level_after_set(wb_errseq_t old);

#endif
