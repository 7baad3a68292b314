/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenario ops, in one table.  Each row says everything the tool
 * knows about an op outside the code that performs it:
 *   the name in the YAML, the keys it takes besides proc/expect/why/label/
 *   records ('*' = required; scenarios/README.md's "step:" list must match,
 *   tests/test_parse.c checks it), who runs it (an agent process that owns
 *   fds and mappings, or the runner itself), whether it is a sync call
 *   whose result errseq decides (SYNC_OSYNC: write/pwrite on an
 *   O_SYNC/O_DSYNC fd), the flag names its 'flags' key takes and the step
 *   field they go to, the model hook that applies it to the errseq model
 *   when it succeeded (oracle.c), what its fd key must name when it runs,
 *   and its executor: ag_<name> in agent.c for an agent's op, rn_<name> in
 *   exec.c for the runner's (each file builds its dispatch array from
 *   this table, so a row without its function does not compile).
 * parse.c, exec.c, agent.c and oracle.c read this table instead of
 * keeping their own lists: a new op is one row, its executor and, when it
 * changes the model's structure, its model hook.
 */
#ifndef WBERR_OPS_H
#define WBERR_OPS_H

#include <stddef.h>

/*        enum             name               keys                                                          who     sync        flags: table          field    model hook           fd        executor */
#define WBERR_OPS(X) \
	X(OPEN,            "open",            "*fd *path flags mode",                                       AGENT,  SYNC_NO,    wb_open_flag_names,   oflags,  or_hook_open,        FD_NEW,   ag_open) \
	X(CLOSE,           "close",           "*fd",                                                        AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_close,       FD_OPEN,  ag_close) \
	X(DUP,             "dup",             "*fd *as",                                                    AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_dup,         FD_OPEN,  ag_dup) \
	X(REOPEN,          "reopen",          "*fd",                                                        AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_reopen,      FD_OPEN,  ag_reopen) \
	X(FORK,            "fork",            "*child",                                                     AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_fork,        FD_NONE,  ag_fork) \
	X(EXIT,            "exit",            "",                                                           AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_exit,        FD_NONE,  ag_exit) \
	X(WRITE,           "write",           "*fd *size pattern",                                          AGENT,  SYNC_OSYNC, NULL,                 flags,   NULL,                FD_OPEN,  ag_write) \
	X(PWRITE,          "pwrite",          "*fd offset *size pattern",                                   AGENT,  SYNC_OSYNC, NULL,                 flags,   NULL,                FD_OPEN,  ag_pwrite) \
	X(PREAD,           "pread",           "*fd offset *size content expect_content",                    AGENT,  SYNC_NO,    NULL,                 flags,   NULL,                FD_OPEN,  ag_pread) \
	X(MMAP,            "mmap",            "*fd offset *size",                                           AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_mmap,        FD_OPEN,  ag_mmap) \
	X(STORE,           "store",           "*fd offset *size pattern",                                   AGENT,  SYNC_NO,    NULL,                 flags,   NULL,                FD_MAP,   ag_store) \
	X(LOAD,            "load",            "*fd offset *size content expect_content",                    AGENT,  SYNC_NO,    NULL,                 flags,   NULL,                FD_MAP,   ag_load) \
	X(MSYNC,           "msync",           "*fd flags",                                                  AGENT,  SYNC_YES,   wb_msync_flag_names,  flags,   NULL,                FD_MAP,   ag_msync) \
	X(MUNMAP,          "munmap",          "*fd",                                                        AGENT,  SYNC_NO,    NULL,                 flags,   or_hook_munmap,      FD_MAP,   ag_munmap) \
	X(TRUNCATE,        "truncate",        "*fd *size",                                                  AGENT,  SYNC_NO,    NULL,                 flags,   NULL,                FD_OPEN,  ag_truncate) \
	X(FALLOCATE,       "fallocate",       "*fd offset *size flags",                                     AGENT,  SYNC_NO,    wb_falloc_flag_names, flags,   NULL,                FD_OPEN,  ag_fallocate) \
	X(UNLINK,          "unlink",          "*path",                                                      RUNNER, SYNC_NO,    NULL,                 flags,   or_hook_unlink,      FD_NONE,  rn_unlink) \
	X(FSYNC,           "fsync",           "*fd",                                                        AGENT,  SYNC_YES,   NULL,                 flags,   NULL,                FD_OPEN,  ag_fsync) \
	X(FDATASYNC,       "fdatasync",       "*fd",                                                        AGENT,  SYNC_YES,   NULL,                 flags,   NULL,                FD_OPEN,  ag_fdatasync) \
	X(SYNCFS,          "syncfs",          "*fd",                                                        AGENT,  SYNC_YES,   NULL,                 flags,   NULL,                FD_OPEN,  ag_syncfs) \
	X(SYNC_FILE_RANGE, "sync_file_range", "*fd offset size *flags",                                     AGENT,  SYNC_YES,   wb_sfr_flag_names,    flags,   NULL,                FD_OPEN,  ag_sync_file_range) \
	X(SYNC,            "sync",            "",                                                           RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_sync) \
	X(DROP_CACHES,     "drop_caches",     "value",                                                      RUNNER, SYNC_NO,    NULL,                 flags,   or_hook_drop_caches, FD_NONE,  rn_drop_caches) \
	X(UMOUNT,          "umount",          "",                                                           RUNNER, SYNC_NO,    NULL,                 flags,   or_hook_umount,      FD_NONE,  rn_umount) \
	X(MOUNT,           "mount",           "",                                                           RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_mount) \
	X(FAULT,           "fault",           "id *ops *status sectors file grow skip count every prob action bio_flags split", RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_fault) \
	X(UNFAULT,         "unfault",         "*id",                                                        RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_unfault) \
	X(CLEAR_FAULTS,    "clear_faults",    "",                                                           RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_clear_faults) \
	X(SLEEP,           "sleep",           "*ms",                                                        RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_sleep) \
	X(BADBLOCKS,       "badblocks",       "*path offset *size",                                         RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_badblocks) \
	X(THIN_EXTEND,     "thin_extend",     "*size",                                                      RUNNER, SYNC_NO,    NULL,                 flags,   NULL,                FD_NONE,  rn_thin_extend)

#define WBERR_OP_ENUM(e, ...) OP_##e,
enum op_kind { WBERR_OPS(WBERR_OP_ENUM) OP__N };
#undef WBERR_OP_ENUM

extern const char *const op_names[OP__N];

/* who performs an op */
enum op_who {
	OPW_AGENT,	/* the scenario process 'proc' (agent.c) */
	OPW_RUNNER,	/* wberr-run itself (exec.c) */
};

/* whether errseq decides the op's result (oracle_sync) */
enum op_sync {
	SYNC_NO,
	SYNC_YES,
	SYNC_OSYNC,	/* when the fd was opened O_SYNC or O_DSYNC */
};

/* what a step's fd key must name when an agent runs the op */
enum op_fd {
	FD_NONE,	/* no fd */
	FD_NEW,		/* a name for the fd it makes (open) */
	FD_OPEN,	/* an open fd */
	FD_MAP,		/* an fd with a mapping (the mapping outlives close) */
};

/* a dispatch array's entry for the executor @fn of an op run by @who: the
 * function where @who is the array's runner (@mine), else NULL */
#define OP_EXEC_AGENT_AGENT(fn) fn
#define OP_EXEC_AGENT_RUNNER(fn) NULL
#define OP_EXEC_RUNNER_RUNNER(fn) fn
#define OP_EXEC_RUNNER_AGENT(fn) NULL
#define OP_EXEC(mine, who, fn) OP_EXEC_##mine##_##who(fn)

struct oracle;
struct step;
struct wb_name_val;

/* applies a succeeded step to the model; *@opened gets the path an open
 * or reopen made a new open file description for, else stays NULL */
typedef void (*op_model_hook)(struct oracle *o, const struct step *st, const char **opened);

struct op_desc {
	const char *name;
	const char *keys;
	enum op_who who;
	enum op_sync sync;
	const struct wb_name_val *flag_names;	/* what 'flags' takes, NULL: not a key */
	size_t flags_at;			/* offsetof(struct step, ...) it fills */
	op_model_hook model;			/* NULL: no structural change */
	enum op_fd fd;
};

extern const struct op_desc op_table[OP__N];

#endif
