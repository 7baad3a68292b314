/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The devices that produce a scenario's faults, in one table (issue 33):
 * dm-wberr (ours, the default), scsi_debug (a SCSI disk in RAM whose
 * debugfs "error" file fails chosen commands with chosen sense data),
 * nvme (QEMU's NVMe controller with the kernel's NVMe fault injector) and
 * thin (a dm-thin pool with error_if_no_space that runs out of space).
 *
 * Each backend says what a fault step can become on it (the op classes,
 * the rule keys and actions its injector can express) and what the
 * cross-checks read in place of dm-wberr's fault log; each real driver
 * has its own statuses (a SCSI outcome, an NVMe status code, a full
 * pool), each with the blk_status_t the kernel chooses for it as its
 * 6.12 source says (file:line), how many attempts the driver makes, and
 * whether it is the one a portable status name ("medium", "ioerr")
 * becomes on that backend.  wberr-run's parser refuses a step a backend
 * cannot express from this table, its runner translates the step with
 * it, its reports print it; tests/test_backend.c holds
 * scenarios/README.md's backend table and docs/real-drivers.md's status
 * tables to it.
 */
#ifndef WB_BACKEND_H
#define WB_BACKEND_H

#include <stddef.h>

#include "wb_rule.h"

enum wb_backend_kind {
	WB_BK_DM_WBERR,
	WB_BK_SCSI_DEBUG,
	WB_BK_NVME,
	WB_BK_THIN,
	WB_BK__N
};

struct wb_backend {
	const char *name;	/* the scenario's backend: word, instance ids' @<name> */
	const char *device;	/* what the file system (or raw) sits on */
	const char *injector;	/* the interface a fault step becomes */
	const char *fault_log;	/* what the cross-checks read as the fault log */
	const char *needs;	/* the kernel options it needs, as a skip names them */
	unsigned int ops;	/* the op classes (WB_OP_*) a fault step may name */
	unsigned int ops_told;	/* of them, those the injector fails and no other
				 * class: a failure of another class is the
				 * step's failure, found in the failed completions */
	unsigned int keys;	/* the rule keys (1 << WB_KEY_*) it translates */
	const char *no_faults;	/* NULL, or why it takes no fault step at all */
	const char *no_range;	/* NULL, or why it takes no file: or sectors: */
	int natives;		/* 1: its own statuses below; 0: dm-wberr's (wb_statuses) */
	int needs_pool;		/* thin: the scenario's pool_mb is the pool's data size */
};

extern const struct wb_backend wb_backends[WB_BK__N];
/* the index of @name, or -1 */
int wb_backend_by_name(const char *name);
/* "dm-wberr, scsi_debug, nvme and thin" with @last "and" */
void wb_backend_list(char *buf, size_t len, const char *last);

/*
 * One status a real driver produces: how its injector makes it, the
 * blk_status_t the kernel turns it into, and where the source says so.
 */
struct wb_native {
	int backend;		/* WB_BK_* */
	const char *name;	/* the scenario's and the tables' name */
	const char *what;	/* the device's own words */
	/* scsi_debug's "error" file: type 2 (the command completes with
	 * these bytes and sense) or 0 (it never completes: a timeout) */
	int sd_type;
	unsigned char sd_host, sd_status, sd_key, sd_asc, sd_ascq;
	/* nvme: the status code the injector sets (sct << 8 | sc), and
	 * whether the DNR bit goes with it (dont_retry) */
	unsigned int nvme_sc;
	int nvme_dnr;
	const char *blk;	/* the blk_status_t chosen (dm-wberr's name for it) */
	int attempts;		/* tries the driver makes before it fails the
				 * request (1: no retry), by the source */
	const char *source;	/* file:line of each hop, 6.12.118 */
	int canonical;		/* the row the status name @blk becomes here */
	const char *alone;	/* NULL, or why only a scenario that names it runs it
				 * (status: native leaves it out) */
};

extern const struct wb_native wb_natives[];
extern const size_t wb_nr_natives;
/* backend @bk's status @name, or NULL */
const struct wb_native *wb_native_by_name(int bk, const char *name);
/* the row a dm-wberr status name becomes on backend @bk, or NULL */
const struct wb_native *wb_native_for_status(int bk, const char *status);
/* the errno the kernel is expected to return for @n (its blk status's) */
int wb_native_errno(const struct wb_native *n);

/*
 * Can backend @bk express fault rule @r (a file-targeted one when
 * @file)?  0, or -1 with the reason in @why: the key, op class, action
 * or status its injector has no way to say.  A status "$status" is the
 * matrix's, checked per instance.
 */
int wb_backend_check_rule(int bk, const struct wb_rule *r, int file, char *why, size_t len);

/*
 * scsi_debug's "error" file line that injects @n on SCSI opcode @opcode
 * for @times commands (0: until removed): its length, or -1 when it does
 * not fit.  scsi_debug counts a negative count up to 0, one per failed
 * command, and never decrements a positive one (scsi_debug.c
 * sdebug_fail_cmd(), 8528-8546): "until removed" is a negative count
 * too large to reach, so the count read back always says how many
 * commands were failed (WB_SD_UNLIMITED + the count read).
 */
#define WB_SD_UNLIMITED (1 << 30)
int wb_native_sd_line(const struct wb_native *n, unsigned int opcode, unsigned long times,
		      char *buf, size_t len);

#endif
