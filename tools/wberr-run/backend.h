/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real drivers behind an instance (lib/c wb_backend.h has the table):
 * the device each gives the file system, its injector driven from a
 * scenario's fault step, and its fault log, which is the failed
 * completions the block layer traced on that device.
 *
 *  - scsi_debug: loaded with dev_size_mb = the scenario's size_mb (again
 *    when another instance wants another size; unloaded at the end of the
 *    run), the file system straight on its disk; a fault is one line per
 *    SCSI opcode in its debugfs error file.
 *  - nvme: the namespace run-guest attached (--nvme, $WBERR_NVME), under
 *    a dm-linear window of size_mb at sector 0 (its sectors are the
 *    namespace's; dm-linear passes every status on, dm.c:1120-1165); a
 *    fault sets the namespace's fault_inject attributes (one at a time).
 *  - thin: a pool of pool_mb (64 KiB blocks, error_if_no_space) over two
 *    dm-linear slices of the scratch disk, and a thin volume of size_mb.
 *
 * dm-wberr itself stays in stack.c and faults.c.
 */
#ifndef WBERR_BACKEND_H
#define WBERR_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"
#include "wb_backend.h"
#include "wb_faultlog.h"
#include "wb_trace.h"

#define BK_MAX_ARMED 8

struct bk_armed {
	char id[NAME_LEN];		/* the scenario's fault id */
	const struct wb_native *n;
	unsigned int ops;		/* the classes the step named */
	unsigned int opcodes[6];	/* scsi_debug: the lines written */
	int nopcodes;
	long times;			/* the count programmed (scsi_debug: negative) */
};

struct backend {
	int kind;			/* WB_BK_* */
	const char *nvme;		/* the namespace, /dev/nvme0n1 */
	const char *scratch;		/* thin: the disk the pool sits on */
	/* set up */
	char disk[64];			/* what the file system sits on */
	char traced[64];		/* the disk whose completions are traced */
	uint32_t major, minor;		/* ... its number */
	char ctl[256];			/* scsi_debug's error file; nvme's fault_inject dir */
	int up;
	struct bk_armed armed[BK_MAX_ARMED];
	int narmed;
	int armed_since;		/* something was armed since the last backend_faults() */
	uint64_t fired;			/* commands the injector failed, read at disarm */
	uint64_t next_seq;		/* the next fault-log entry's seq */
};

/*
 * Can backend @kind run here?  1, or 0 with the reason (the missing
 * kernel option, module or device) in @why: the instance is a skip.
 * scsi_debug is loaded (with @size_mb) to find out.
 */
int backend_probe(struct backend *b, unsigned size_mb, char *why, size_t len);
/* the device for an instance of @size_mb (thin: in a pool of @pool_mb):
 * b->disk; 0, or -1 with the reason */
int backend_setup(struct backend *b, unsigned size_mb, unsigned pool_mb, char *why, size_t len);
/* the instance's devices down (scsi_debug stays loaded for the next) */
void backend_teardown(struct backend *b);
/* the end of the run: scsi_debug unloaded */
void backend_shutdown(void);

/* fault step @f, its "$status" @matrix_status: armed; 0 or -errno with
 * what was written or refused in @msg */
int backend_program(struct backend *b, const struct fault_spec *f, const char *matrix_status,
		    char *msg, size_t len);
/* unfault @id / clear: disarmed, the commands each failed read first */
int backend_remove(struct backend *b, const char *id, char *msg, size_t len);
int backend_clear(struct backend *b);
/* anything armed now */
int backend_armed(const struct backend *b);

/*
 * The fault log of a real driver: the failed completions of @t on the
 * traced disk, as fault-log entries appended by @add (its @arg).  Each
 * is checked against what is armed: a failure with nothing armed (but
 * on thin, whose pool fails on its own), or of an op class the armed
 * fault did not name, is described in @msg and counted in the return
 * (the number of such), else 0.
 */
int backend_faults(struct backend *b, const struct wb_trace *t,
		   int (*add)(void *arg, const struct wb_fault *f), void *arg, char *msg, size_t len);

/* thin: the pool's data grown to @mb (a reload and resume of the pool);
 * 0, or -1 with the reason */
int backend_thin_extend(struct backend *b, unsigned mb, char *why, size_t len);

#endif
