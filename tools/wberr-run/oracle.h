/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exactly-once oracle: a model of the kernel's errseq bookkeeping
 * (mapping->wb_err per inode, sb->s_wb_err, the per-open-file cursors
 * f_wb_err and f_sb_err) driven step by step, and the checks that compare
 * what the kernel returned and traced against it.  No I/O here.
 */
#ifndef WBERR_ORACLE_H
#define WBERR_ORACLE_H

#include <stddef.h>
#include "wb_errseq.h"
#include "scenario.h"

#define OR_MAX_INODES 32
#define OR_MAX_OFDS 128
#define OR_MAX_FDS 128
#define OR_MAX_PROCS 16

/* super blocks: the filesystem's (for raw: the bdev pseudo-fs that
 * mapping_set_error() reaches) and devtmpfs (where a raw device node's
 * dentry lives, so syncfs on it samples devtmpfs's s_wb_err) */
enum { SB_FS, SB_DEVTMPFS, SB__N };

/* the legacy mapping flags mapping_set_error() also sets */
#define OR_AS_EIO	1
#define OR_AS_ENOSPC	2

struct or_inode {
	char path[PATH_LEN];
	wb_errseq_t wb_err;
	int as_flags;		/* OR_AS_*: cleared by file_check_and_advance_wb_err() */
	int linked;		/* still reachable by path */
};

struct or_ofd {
	int inode;
	wb_errseq_t f_wb_err, f_sb_err;
	int sb;			/* where the dentry lives */
	int refs;		/* fds + mmaps pointing at it */
	int oflags;
};

struct or_fd {
	int proc;
	char name[NAME_LEN];
	int ofd;		/* -1 when closed */
	int mapped;		/* a mapping made through this fd is alive */
	int map_ofd;
};

struct oracle {
	int fs;
	wb_errseq_t sb_err[SB__N];
	int ninodes, nofds, nfds, nprocs;
	struct or_inode inode[OR_MAX_INODES];
	struct or_ofd ofd[OR_MAX_OFDS];
	struct or_fd fd[OR_MAX_FDS];
	char proc[OR_MAX_PROCS][NAME_LEN];
	int proc_alive[OR_MAX_PROCS];
};

/* What the model says a sync call returns and does to the cursor. */
struct or_pred {
	int valid;		/* the call consults errseq at all */
	int inode, ofd;
	int err;		/* positive errno from errseq, or 0 */
	int consumed;		/* f_wb_err (or f_sb_err) moves */
	wb_errseq_t map_before, cur_before, cur_after;
	int sb;			/* syncfs: checked the super block */
	int flag_err;		/* btrfs: what filemap_check_errors() made of AS_* */
};

void oracle_init(struct oracle *o, int fs);
int oracle_proc(struct oracle *o, const char *name);	/* find or add */
int oracle_find_fd(const struct oracle *o, const char *proc, const char *name);
int oracle_inode(struct oracle *o, const char *path, int create);

int oracle_open(struct oracle *o, const char *proc, const char *fd, const char *path, int oflags);
int oracle_close(struct oracle *o, const char *proc, const char *fd);
int oracle_dup(struct oracle *o, const char *proc, const char *fd, const char *newfd);
int oracle_fork(struct oracle *o, const char *parent, const char *child);
int oracle_exit(struct oracle *o, const char *proc);
int oracle_mmap(struct oracle *o, const char *proc, const char *fd);
int oracle_munmap(struct oracle *o, const char *proc, const char *fd);
void oracle_unlink(struct oracle *o, const char *path);

/* mapping_set_error(): a write error recorded on @inode (positive errno) */
void oracle_record(struct oracle *o, int inode, int err);
/* the filesystem went away: every inode and the super block start afresh */
void oracle_umount(struct oracle *o);
/* echo @value > drop_caches: inodes nobody holds may be evicted (wb_err lost) */
void oracle_drop_caches(struct oracle *o, unsigned value);

/* the model hooks of ops.h's table, one per op that changes the model's
 * structure; oracle_apply() runs the step's */
void or_hook_open(struct oracle *o, const struct step *st, const char **opened);
void or_hook_reopen(struct oracle *o, const struct step *st, const char **opened);
void or_hook_close(struct oracle *o, const struct step *st, const char **opened);
void or_hook_dup(struct oracle *o, const struct step *st, const char **opened);
void or_hook_fork(struct oracle *o, const struct step *st, const char **opened);
void or_hook_exit(struct oracle *o, const struct step *st, const char **opened);
void or_hook_mmap(struct oracle *o, const struct step *st, const char **opened);
void or_hook_munmap(struct oracle *o, const struct step *st, const char **opened);
void or_hook_unlink(struct oracle *o, const struct step *st, const char **opened);
void or_hook_umount(struct oracle *o, const struct step *st, const char **opened);
void or_hook_drop_caches(struct oracle *o, const struct step *st, const char **opened);

/* A succeeded step's structural change; returns the path an open or
 * reopen made a new open file description for, else NULL. */
const char *oracle_apply(struct oracle *o, const struct step *st);

/* What the runner asks the model, instead of reading its structs: */
/* the open flags of @proc's fd @fd, -1 if it has none */
int oracle_fd_oflags(const struct oracle *o, const char *proc, const char *fd);
/* the step is a sync call (ops.h's sync column; O_SYNC writes by their fd) */
int oracle_is_sync(const struct oracle *o, const struct step *st);
/* an O_DIRECT write: a failed bio fails the call, errseq is not involved */
int oracle_is_dio_write(const struct oracle *o, const struct step *st);
int oracle_ninodes(const struct oracle *o);
const char *oracle_inode_path(const struct oracle *o, int i);
int oracle_inode_linked(const struct oracle *o, int i);

/*
 * Apply a sync-type call (fsync, fdatasync, syncfs, msync, sync_file_range,
 * a write through O_SYNC/O_DSYNC) to the model and say what errseq makes
 * it return.  @flags: msync or sync_file_range flags.
 */
int oracle_sync(struct oracle *o, int op, const char *proc, const char *fd, int flags,
		struct or_pred *p);

/* the errseq part of the verdict */
struct verdict {
	int pass;
	int expected;		/* what was required (errno, 0) or -1 for "any" */
	int explicit_;		/* from the scenario rather than the model */
	char msg[1024];
};

/*
 * Judge one call.  @pred may be NULL for non-sync ops (then success is
 * required unless the scenario says otherwise).  @matrix_errno resolves
 * "$errno".  @nondata_faults: faults on flushes or metadata were logged
 * during the call, whose effect is filesystem specific.
 */
void oracle_judge(const struct or_pred *pred, int actual, const struct step *st, int fs,
		  int matrix_errno, int nondata_faults, struct verdict *v);


#endif
