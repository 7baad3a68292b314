// SPDX-License-Identifier: GPL-2.0
#include "wb_errseq.h"

wb_errseq_t wb_errseq_set(wb_errseq_t *eseq, int err)
{
	wb_errseq_t old = *eseq, new;

	if (err == 0 || (unsigned int)-err > WB_ERRSEQ_MAX_ERRNO)
		return old;
	new = (old & ~(WB_ERRSEQ_MAX_ERRNO | WB_ERRSEQ_SEEN)) | (wb_errseq_t)-err;
	if (old & WB_ERRSEQ_SEEN)
		new += WB_ERRSEQ_CTR_INC;
	*eseq = new;
	return old;
}

wb_errseq_t wb_errseq_sample(const wb_errseq_t *eseq)
{
	wb_errseq_t old = *eseq;

	if (!(old & WB_ERRSEQ_SEEN))
		old = 0;
	return old;
}

int wb_errseq_check(const wb_errseq_t *eseq, wb_errseq_t since)
{
	wb_errseq_t cur = *eseq;

	if (cur == since)
		return 0;
	return -(int)(cur & WB_ERRSEQ_MAX_ERRNO);
}

int wb_errseq_check_and_advance(wb_errseq_t *eseq, wb_errseq_t *since)
{
	wb_errseq_t old = *eseq, new;
	int err = 0;

	if (old != *since) {
		new = old | WB_ERRSEQ_SEEN;
		*eseq = new;
		*since = new;
		err = -(int)(new & WB_ERRSEQ_MAX_ERRNO);
	}
	return err;
}

uint32_t wb_errseq_level(wb_errseq_t v)
{
	return (v & WB_ERRSEQ_MAX_ERRNO) ? wb_errseq_counter(v) + 1 : 0;
}

uint32_t wb_errseq_level_after_set(wb_errseq_t old)
{
	if (!(old & WB_ERRSEQ_MAX_ERRNO))
		return 1 + wb_errseq_counter(old);
	return wb_errseq_level(old) + (wb_errseq_seen(old) ? 1 : 0);
}
