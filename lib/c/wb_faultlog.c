// SPDX-License-Identifier: GPL-2.0
#include "wb_faultlog.h"
#include "wb_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int wb_fault_parse(const char *line, struct wb_fault *f)
{
	memset(f, 0, sizeof(*f));
	if (sscanf(line, "%" SCNu64 " %" SCNu64 " %u %15s %63s %" SCNu64 " %" SCNu64 " %23s",
		   &f->seq, &f->ns, &f->rule, f->opclass, f->flags, &f->sector,
		   &f->nr, f->status) != 8)
		return -1;
	f->err = wb_status_errno(f->status);
	return f->err < 0 ? -1 : 0;
}
