/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user-space copy of lib/errseq.c (6.12), single-threaded: the oracle's
 * model of mapping->wb_err, sb->s_wb_err and the per-file cursors.
 */
#ifndef WBERR_ERRSEQ_H
#define WBERR_ERRSEQ_H

#include <stdint.h>

typedef uint32_t errseq_t;

#define ERRSEQ_MAX_ERRNO	4095u
#define ERRSEQ_SHIFT		12
#define ERRSEQ_SEEN		(1u << ERRSEQ_SHIFT)
#define ERRSEQ_CTR_INC		(1u << (ERRSEQ_SHIFT + 1))

/* err is negative (-EIO).  Returns the previous value, like the kernel. */
errseq_t errseq_set(errseq_t *eseq, int err);
/* 0 when the current error has not been seen (b4678df184b3, v4.17) */
errseq_t errseq_sample(const errseq_t *eseq);
/* -errno if *eseq changed since @since, else 0 */
int errseq_check(const errseq_t *eseq, errseq_t since);
/* like errseq_check, and marks SEEN and advances *since */
int errseq_check_and_advance(errseq_t *eseq, errseq_t *since);

static inline int errseq_errno(errseq_t v) { return (int)(v & ERRSEQ_MAX_ERRNO); }

#endif
