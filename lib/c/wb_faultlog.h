/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-wberr's fault log.  One line, as the "log <from>" message answers it
 * (dm-wberr/README.rst):
 *   <seq> <ns> <rule_id> <opclass> <flags> <sector> <nr_sectors> <status>
 * and the two texts made of such lines, read into one vector by one parser
 * (and faults.txt written by the one writer below):
 *  - a "log" response (wberr-run reads one a step);
 *  - faults.txt as wberr-stress records it, each line prefixed with the
 *    table epoch (a reload starts a new target instance, whose log
 *    restarts at 0), among lines of other kinds:
 *      fault <epoch> <log line>
 *      gap <epoch> <wanted_seq> <got_seq>   entries lost (log overflowed)
 *      event <ns> <text...>                 suspend, resume, reload, ...
 */
#ifndef WB_FAULTLOG_H
#define WB_FAULTLOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct wb_fault {
	uint64_t seq;
	uint64_t ns;		/* ktime_get_ns() when dm-wberr decided */
	uint64_t sector;
	uint64_t nr;
	uint32_t epoch;		/* table instance, for callers that reload; 0 here */
	unsigned int rule;
	int err;		/* errno the status maps to; 0 for "ok" (drop) */
	char opclass[16];
	char status[24];
	char flags[64];
};

/* 0 on success; -1 for a malformed line or a status no table knows */
int wb_fault_parse(const char *line, struct wb_fault *f);
/* the line wb_fault_parse() reads, without newline, into @buf: its length,
 * or -1 when it does not fit */
int wb_fault_format(char *buf, size_t len, const struct wb_fault *f);

/* faults.txt's three kinds of lines; an event is flushed at once (a crash
 * keeps it), fault and gap lines when the caller flushes */
void wb_faultlog_put_fault(FILE *out, unsigned int epoch, const struct wb_fault *f);
void wb_faultlog_put_gap(FILE *out, unsigned int epoch, uint64_t want, uint64_t got);
void wb_faultlog_put_event(FILE *out, uint64_t ns, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void wb_faultlog_vput_event(FILE *out, uint64_t ns, const char *fmt, va_list ap);

struct wb_ev_blk;
/*
 * A failed completion the block layer traced (wb_trace's WB_EV_BLK) as an
 * entry of a fault log: what stands in for dm-wberr's log on a real
 * driver (wb_backend.h).  The op class and flags come from the rwbs
 * (an empty preflush write is a flush, a write with FUA fua), the status
 * from the errno, @seq and @ns from the caller, rule 0.  0, or -1 for a
 * success or an errno no status maps to.
 */
int wb_fault_from_blk(const struct wb_ev_blk *k, uint64_t seq, uint64_t ns, struct wb_fault *f);

struct wb_faultlog {
	struct wb_fault *v;
	size_t n, cap;
	uint64_t gaps;		/* entries known to be missing (faults.txt) */
};

/*
 * Appends every parsable line of a "log" response whose seq >= @from;
 * malformed lines are skipped.  Returns the number appended, -1 when out
 * of memory.
 */
int wb_faultlog_add_response(struct wb_faultlog *fl, const char *text, uint64_t from);
/* Appends the "fault" lines of faults.txt text and counts its gaps */
int wb_faultlog_add_recorded(struct wb_faultlog *fl, const char *text);
/* wb_faultlog_add_recorded() of the file @path into a zeroed @fl: 0, or -1 */
int wb_faultlog_load(struct wb_faultlog *fl, const char *path);
void wb_faultlog_free(struct wb_faultlog *fl);

#endif
