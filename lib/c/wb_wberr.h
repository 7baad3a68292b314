/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client of a dm-wberr device: the messages that add (a wb_rule.h
 * rule), remove and clear rules and page through the fault log, on wb_dm
 * (libdevmapper).  wberr-run, wberr-stress and wberr-rulemodel send
 * their rules through it.
 */
#ifndef WB_WBERR_H
#define WB_WBERR_H

#include <stddef.h>
#include <stdint.h>

#include "wb_faultlog.h"
#include "wb_rule.h"

/*
 * The client of one dm-wberr device.  Every call returns 0 or -errno
 * (the kernel's refusal); @sent holds the message last sent, @resp its
 * response or, on a refusal, libdevmapper's error text.
 */
struct wb_wberr {
	const char *dev;	/* the dm device's name */
	char *resp;
	size_t resplen;
	char sent[512];
};

/* @resplen: the response buffer (a "log" page answers up to dm-ioctl's
 * buffer: 1 MiB is safe); 0 or -ENOMEM */
int wb_wberr_open(struct wb_wberr *w, const char *dev, size_t resplen);
void wb_wberr_close(struct wb_wberr *w);
int wb_wberr_message(struct wb_wberr *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "add <rule>": its id into *@id; -EPROTO when the answer holds no id */
int wb_wberr_add(struct wb_wberr *w, const struct wb_rule *r, unsigned int *id);
/* "add <text>" as given (a fuzzer's own word order) */
int wb_wberr_add_text(struct wb_wberr *w, const char *text, unsigned int *id);
int wb_wberr_remove(struct wb_wberr *w, unsigned int id);
int wb_wberr_clear(struct wb_wberr *w);

/*
 * Called for each line of a "log" page whose seq is *next or later, in
 * order (@f NULL: the line does not parse); nonzero stops the paging
 * and is returned.
 */
typedef int (*wb_wberr_log_fn)(void *arg, const char *line, const struct wb_fault *f);
/*
 * "log <*next>", page after page (the answer holds as many whole lines
 * as fit) until one brings nothing new or @max_pages (0: no limit) were
 * read; *@next moves past every entry passed to @fn.  0, the nonzero
 * value of @fn, or -errno of a refused message.
 */
int wb_wberr_log(struct wb_wberr *w, uint64_t *next, int max_pages, wb_wberr_log_fn fn, void *arg);

#endif
