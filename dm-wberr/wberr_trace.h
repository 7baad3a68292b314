/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The wberr:wberr_fault event: one per rule firing, so that a trace shows
 * the injected fault next to the block, filemap and errseq events it
 * causes.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM wberr

#if !defined(_DM_WBERR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DM_WBERR_TRACE_H

#include <linux/tracepoint.h>

/* __assign_str() takes the source again before 6.10 (Kbuild tells) */
#ifdef WBERR_ASSIGN_STR_TAKES_SRC
#define WBERR_ASSIGN_STRS						\
	do {								\
		__assign_str(class, class);				\
		__assign_str(flags, flags);				\
		__assign_str(action, action);				\
		__assign_str(status, status);				\
	} while (0)
#else
#define WBERR_ASSIGN_STRS						\
	do {								\
		__assign_str(class);					\
		__assign_str(flags);					\
		__assign_str(action);					\
		__assign_str(status);					\
	} while (0)
#endif

/**
 * wberr_fault - a rule fired for a bio
 * @dev: the dm device
 * @rule: the rule's id
 * @sector: the bio's first sector on the dm device (0 for a flush)
 * @nr_sector: the bio's length in sectors (of the piece, after a split)
 * @class: its op class (read, write, fua, flush, discard, write_zeroes)
 * @flags: its flags, as the fault log prints them
 * @action: fail, drop or pass (pass: held, then sent to the device)
 * @status: the status it completes with (ok for drop and pass)
 * @delay_ms: how long it is held first (0: not held)
 */
TRACE_EVENT(wberr_fault,
	    TP_PROTO(dev_t dev, unsigned int rule, sector_t sector,
		     unsigned int nr_sector, const char *class,
		     const char *flags, const char *action,
		     const char *status, unsigned int delay_ms),

	    TP_ARGS(dev, rule, sector, nr_sector, class, flags, action,
		    status, delay_ms),

	    TP_STRUCT__entry(__field(dev_t, dev)
			     __field(unsigned int, rule)
			     __field(sector_t, sector)
			     __field(unsigned int, nr_sector)
			     __field(unsigned int, delay_ms)
			     __string(class, class)
			     __string(flags, flags)
			     __string(action, action)
			     __string(status, status)),

	    TP_fast_assign(__entry->dev = dev;
			   __entry->rule = rule;
			   __entry->sector = sector;
			   __entry->nr_sector = nr_sector;
			   __entry->delay_ms = delay_ms;
			   WBERR_ASSIGN_STRS;),

	    TP_printk("%d,%d rule=%u %s %llu + %u flags=%s action=%s status=%s delay_ms=%u",
		      MAJOR(__entry->dev), MINOR(__entry->dev), __entry->rule,
		      __get_str(class), (unsigned long long)__entry->sector,
		      __entry->nr_sector, __get_str(flags),
		      __get_str(action), __get_str(status),
		      __entry->delay_ms)
);

#endif /* _DM_WBERR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE wberr_trace
#include <trace/define_trace.h>
