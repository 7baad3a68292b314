/* SPDX-License-Identifier: GPL-2.0 */
/* The parsed form of a scenario file (see scenarios/README.md). */
#ifndef WBERR_SCENARIO_H
#define WBERR_SCENARIO_H

#include <stdint.h>
#include "wb_fs.h"

/* the file systems: lib/c's table (wb_fs.h), FS_<X> == WB_FS_<X> */
enum fs_kind {
#define FS_ENUM(sfx, name) FS_##sfx = WB_FS_##sfx,
	WB_FS_LIST(FS_ENUM)
#undef FS_ENUM
	FS__N
};
extern const char *const fs_names[FS__N];

enum data_mode { DM_DEFAULT, DM_ORDERED, DM_WRITEBACK, DM_JOURNAL };
extern const char *const data_mode_names[4];

#include "ops.h"	/* enum op_kind, op_names, the op table */
#include "wb_backend.h"
#include "wb_rule.h"

#define NAME_LEN 32
#define PATH_LEN 256
#define TEXT_LEN 512

/* errno expectation: per filesystem, or one for all */
#define EXPECT_UNSET (-1)
struct expect {
	int set;		/* any expectation present */
	int err[FS__N];		/* positive errno, 0, or EXPECT_UNSET */
};

/* what a pread with content: {new, old} found: every byte the new
 * pattern, every byte the old, every byte zero, or anything else */
enum content_kind { CONTENT_UNSET, CONTENT_NEW, CONTENT_OLD, CONTENT_ZERO, CONTENT_MIXED, CONTENT__N };
extern const char *const content_names[CONTENT__N];

/* a fault step: the dm-wberr rule (lib/c wb_rule.h: the grammar's table),
 * and where wberr-run aims it */
struct fault_spec {
	char id[NAME_LEN];	/* scenario-side name, for unfault */
	char file[PATH_LEN];	/* file-targeted: fail the data extents of this file */
	int grow;		/* and the free space it will grow into (GETFSMAP when armed) */
	struct wb_rule rule;	/* status "$status": the matrix's */
};

/*
 * on_kernel: where a kernel legitimately behaves otherwise (a different
 * file system path, not a broken guarantee), what this step expects there,
 * and why, from that kernel's source.  Matched on the release's
 * major.minor ("6.1"), or "patched": a kernel that carries kernel/patches
 * (wb_kernel_matches()); shown in the step's message whenever it applies.
 */
#define STEP_MAX_KERNELS 2
struct kernel_expect {
	char release[16];		/* "6.1", or "patched" */
	struct expect expect;		/* .set = 0: the step's own */
	int expect_content[FS__N];	/* CONTENT_UNSET: the step's own */
	char why[TEXT_LEN];
};

struct step {
	int op;
	int line, col;		/* 1-based, of the step mapping */
	char proc[NAME_LEN];	/* "main" unless given */
	char fd[NAME_LEN];
	char fd2[NAME_LEN];	/* dup: new name; fork: child name */
	char path[PATH_LEN];
	int oflags;
	unsigned mode;
	int64_t offset, size;
	int has_size;
	unsigned pattern;
	int flags;		/* msync / sync_file_range / fallocate flags */
	unsigned value;		/* drop_caches value, sleep ms */
	struct fault_spec fault;
	struct expect expect;
	char why[TEXT_LEN];
	char label[NAME_LEN];
	/* the filesystem itself records an error on a file during this step,
	 * with no device fault on that file (e.g. XFS discarding dirty pages
	 * of a shut-down fs): the model records it too */
	char rec_path[PATH_LEN];
	int rec_err;
	/* pread: classify what was read (content), and what it must be */
	int has_content;
	unsigned content_new, content_old;
	int expect_content[FS__N];	/* CONTENT_*, CONTENT_UNSET: none */
	struct kernel_expect on_kernel[STEP_MAX_KERNELS];
	int non_kernel;
};

/*
 * Program mode (scenarios/README.md, "Programs"): an unmodified program
 * runs on the file system, faults are armed by a plan, the device is
 * recovered and the user's checker judges what survived.
 */
enum arm_when { ARM_START, ARM_AFTER_MS, ARM_MARKER };
enum recover_action { REC_KILL, REC_CLEAR_FAULTS, REC_DROP_CACHES, REC_REMOUNT, REC_DEVICE_CYCLE, REC__N };
extern const char *const recover_names[REC__N];
/* what every fault must come to: someone saw its error, or (with a why)
 * the error was recorded but no call returned it, or nothing was recorded */
enum errors_expect { ERRORS_SEEN, ERRORS_LOST, ERRORS_SILENT, ERRORS__N };
extern const char *const errors_expect_names[ERRORS__N];
enum exit_expect { EXIT_ANY, EXIT_ZERO, EXIT_NONZERO };

#define PROG_MAX_FAULTS 8
#define PROG_TEXT_LEN 1024	/* a finding's why and the program's promise: a paragraph each */
#define PROG_MAX_LIST 8
struct program {
	char setup[TEXT_LEN];	/* sh -c, as root, cwd the mount */
	char run[TEXT_LEN];	/* sh -c, as user, cwd the mount */
	char check[TEXT_LEN];	/* sh -c, as user, after the recovery */
	int has_user;
	unsigned uid, gid;
	unsigned timeout_s;	/* for run and for check, each */
	int arm;		/* ARM_* */
	unsigned arm_ms;
	char marker[64];
	int nfaults;
	struct step faults[PROG_MAX_FAULTS];	/* op fault; file may be a glob or $marker */
	int nrecover;
	int recover[PROG_MAX_LIST];		/* REC_*, in order */
	int nneeds;
	char needs[PROG_MAX_LIST][PATH_LEN];	/* paths that must exist, else SKIP */
	int nenv;
	char env[PROG_MAX_LIST][PATH_LEN];	/* NAME=value */
	int expect_program;	/* EXIT_* */
	int expect_check;	/* EXIT_ZERO: the checker passes; EXIT_NONZERO: it must find the loss */
	int expect_errors;	/* ERRORS_* */
	char why[PROG_TEXT_LEN];	/* needed when the expectation is a finding */
	char promise[PROG_TEXT_LEN];	/* what the program's own source promises on a failed
				 * fsync, with file and function: the report card's citation */
};

struct scenario {
	char name[128];
	char description[TEXT_LEN];
	char guarantee[128];	/* groups results in the summary */
	char file[PATH_LEN];	/* source file */
	int line;
	unsigned fs_mask;	/* 1 << FS_* */
	unsigned data_modes;	/* 1 << DM_*: ext4 runs once in each */
	char mkfs_opts[TEXT_LEN];
	char mount_opts[TEXT_LEN];
	char mount_opts_fs[FS__N][TEXT_LEN];	/* per-filesystem, used when set */
	int has_mount_opts_fs;
	unsigned size_mb;
	unsigned backends;	/* 1 << WB_BK_*: the devices that produce the faults */
	unsigned pool_mb;	/* thin: the pool's data size */
	int lvm;		/* stack an LVM LV over the wberr device */
	int dax;		/* on the guest's pmem (fsdax), mounted -o dax=always */
	int oracle;		/* 1 = check every sync result against errseq */
	int fidelity;		/* 1 = contributes to the errno-fidelity table */
	unsigned cost_s;	/* about an instance's seconds under TCG: --shard's
				 * weight; 0 when not given (SHARD_UNSAID_CS) */
	int matrix_status;	/* steps use "$status"; expand over statuses[] */
	int matrix_native;	/* status: native: over each backend's own statuses */
	int nstatuses;
	char statuses[24][NAME_LEN];
	int nsteps;
	struct step *steps;
	struct program *prog;	/* program mode instead of steps, or NULL */
	char dir[PATH_LEN];	/* the file's directory: $WBERR_SCENARIO_DIR */
};

struct scenario_set {
	int n;
	struct scenario *v;
};

/* One runnable instance: a scenario on one backend and filesystem (in
 * one ext4 data mode) with one status. */
struct instance {
	const struct scenario *sc;
	int backend;		/* WB_BK_* */
	int fs;
	int data_mode;		/* DM_*; DM_DEFAULT for every fs but ext4 */
	const char *status;	/* matrix status (dm-wberr's, or the backend's own
				 * with status: native), or NULL */
	char id[256];		/* "ext4/all-fds-exactly-once[timeout]", "@nvme" after
				 * it on a backend other than dm-wberr */
};

void scenario_set_free(struct scenario_set *set);
int expand_instances(const struct scenario_set *set, struct instance **out);

#endif
