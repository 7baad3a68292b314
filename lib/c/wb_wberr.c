// SPDX-License-Identifier: GPL-2.0
#include "wb_wberr.h"
#include "wb_dm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wb_wberr_open(struct wb_wberr *w, const char *dev, size_t resplen)
{
	memset(w, 0, sizeof(*w));
	w->dev = dev;
	w->resp = calloc(1, resplen);
	w->resplen = resplen;
	return w->resp ? 0 : -ENOMEM;
}

void wb_wberr_close(struct wb_wberr *w)
{
	free(w->resp);
	memset(w, 0, sizeof(*w));
}

int wb_wberr_message(struct wb_wberr *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->sent, sizeof(w->sent), fmt, ap);
	va_end(ap);
	return wb_dm_message(w->dev, w->sent, w->resp, w->resplen);
}

int wb_wberr_add_text(struct wb_wberr *w, const char *text, unsigned int *id)
{
	char *end;
	unsigned long v;
	int rc = wb_wberr_message(w, "add %s", text);

	if (rc)
		return rc;
	v = strtoul(w->resp, &end, 10);
	if (end == w->resp)
		return -EPROTO;
	*id = (unsigned int)v;
	return 0;
}

int wb_wberr_add(struct wb_wberr *w, const struct wb_rule *r, unsigned int *id)
{
	char text[sizeof(w->sent) - 4];

	if (wb_rule_format(r, text, sizeof(text)))
		return -E2BIG;
	return wb_wberr_add_text(w, text, id);
}

int wb_wberr_remove(struct wb_wberr *w, unsigned int id)
{
	return wb_wberr_message(w, "remove %u", id);
}

int wb_wberr_clear(struct wb_wberr *w)
{
	return wb_wberr_message(w, "clear");
}

int wb_wberr_log(struct wb_wberr *w, uint64_t *next, int max_pages, wb_wberr_log_fn fn, void *arg)
{
	for (int page = 0; !max_pages || page < max_pages; page++) {
		char *line, *save = NULL;
		int rc = wb_wberr_message(w, "log %" PRIu64, *next), got = 0;

		if (rc)
			return rc;
		for (line = strtok_r(w->resp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			struct wb_fault f;
			int bad = wb_fault_parse(line, &f);

			if (!bad && f.seq < *next)
				continue;
			rc = fn(arg, line, bad ? NULL : &f);
			if (rc)
				return rc;
			if (!bad) {
				*next = f.seq + 1;
				got++;
			}
		}
		if (!got)
			return 0;
	}
	return 0;
}
