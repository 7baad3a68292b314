// SPDX-License-Identifier: GPL-2.0
#include "errseq.h"

errseq_t errseq_set(errseq_t *eseq, int err)
{
	errseq_t old = *eseq, new;

	if (err == 0 || (unsigned int)-err > ERRSEQ_MAX_ERRNO)
		return old;
	new = (old & ~(ERRSEQ_MAX_ERRNO | ERRSEQ_SEEN)) | (errseq_t)-err;
	if (old & ERRSEQ_SEEN)
		new += ERRSEQ_CTR_INC;
	*eseq = new;
	return old;
}

errseq_t errseq_sample(const errseq_t *eseq)
{
	errseq_t old = *eseq;

	if (!(old & ERRSEQ_SEEN))
		old = 0;
	return old;
}

int errseq_check(const errseq_t *eseq, errseq_t since)
{
	errseq_t cur = *eseq;

	if (cur == since)
		return 0;
	return -(int)(cur & ERRSEQ_MAX_ERRNO);
}

int errseq_check_and_advance(errseq_t *eseq, errseq_t *since)
{
	errseq_t old = *eseq, new;
	int err = 0;

	if (old != *since) {
		new = old | ERRSEQ_SEEN;
		*eseq = new;
		*since = new;
		err = -(int)(new & ERRSEQ_MAX_ERRNO);
	}
	return err;
}
