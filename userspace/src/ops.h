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
 *   field they go to, and the model hook that applies it to the errseq
 *   model when it succeeded (oracle.c).
 * parse.c, exec.c, agent.c and oracle.c read this table instead of
 * keeping their own lists.
 */
#ifndef WBERR_OPS_H
#define WBERR_OPS_H

#include <stddef.h>

/*        enum             name               keys                                                          who     sync        flags (table, field)                 model hook */
#define WBERR_OPS(X) \
	X(OPEN,            "open",            "*fd *path flags mode",                                       AGENT,  SYNC_NO,    wb_open_flag_names, oflags,   or_hook_open) \
	X(CLOSE,           "close",           "*fd",                                                        AGENT,  SYNC_NO,    NULL, flags,                  or_hook_close) \
	X(DUP,             "dup",             "*fd *as",                                                    AGENT,  SYNC_NO,    NULL, flags,                  or_hook_dup) \
	X(REOPEN,          "reopen",          "*fd",                                                        AGENT,  SYNC_NO,    NULL, flags,                  or_hook_reopen) \
	X(FORK,            "fork",            "*child",                                                     AGENT,  SYNC_NO,    NULL, flags,                  or_hook_fork) \
	X(EXIT,            "exit",            "",                                                           AGENT,  SYNC_NO,    NULL, flags,                  or_hook_exit) \
	X(WRITE,           "write",           "*fd *size pattern",                                          AGENT,  SYNC_OSYNC, NULL, flags,                  NULL) \
	X(PWRITE,          "pwrite",          "*fd offset *size pattern",                                   AGENT,  SYNC_OSYNC, NULL, flags,                  NULL) \
	X(PREAD,           "pread",           "*fd offset *size content expect_content",                    AGENT,  SYNC_NO,    NULL, flags,                  NULL) \
	X(MMAP,            "mmap",            "*fd offset *size",                                           AGENT,  SYNC_NO,    NULL, flags,                  or_hook_mmap) \
	X(STORE,           "store",           "*fd offset *size pattern",                                   AGENT,  SYNC_NO,    NULL, flags,                  NULL) \
	X(LOAD,            "load",            "*fd offset *size content expect_content",                    AGENT,  SYNC_NO,    NULL, flags,                  NULL) \
	X(MSYNC,           "msync",           "*fd flags",                                                  AGENT,  SYNC_YES,   wb_msync_flag_names, flags,   NULL) \
	X(MUNMAP,          "munmap",          "*fd",                                                        AGENT,  SYNC_NO,    NULL, flags,                  or_hook_munmap) \
	X(TRUNCATE,        "truncate",        "*fd *size",                                                  AGENT,  SYNC_NO,    NULL, flags,                  NULL) \
	X(FALLOCATE,       "fallocate",       "*fd offset *size flags",                                     AGENT,  SYNC_NO,    wb_falloc_flag_names, flags,  NULL) \
	X(UNLINK,          "unlink",          "*path",                                                      RUNNER, SYNC_NO,    NULL, flags,                  or_hook_unlink) \
	X(FSYNC,           "fsync",           "*fd",                                                        AGENT,  SYNC_YES,   NULL, flags,                  NULL) \
	X(FDATASYNC,       "fdatasync",       "*fd",                                                        AGENT,  SYNC_YES,   NULL, flags,                  NULL) \
	X(SYNCFS,          "syncfs",          "*fd",                                                        AGENT,  SYNC_YES,   NULL, flags,                  NULL) \
	X(SYNC_FILE_RANGE, "sync_file_range", "*fd offset size *flags",                                     AGENT,  SYNC_YES,   wb_sfr_flag_names, flags,     NULL) \
	X(SYNC,            "sync",            "",                                                           RUNNER, SYNC_NO,    NULL, flags,                  NULL) \
	X(DROP_CACHES,     "drop_caches",     "value",                                                      RUNNER, SYNC_NO,    NULL, flags,                  or_hook_drop_caches) \
	X(UMOUNT,          "umount",          "",                                                           RUNNER, SYNC_NO,    NULL, flags,                  or_hook_umount) \
	X(MOUNT,           "mount",           "",                                                           RUNNER, SYNC_NO,    NULL, flags,                  NULL) \
	X(FAULT,           "fault",           "id *ops *status sectors file skip count every prob action bio_flags split", RUNNER, SYNC_NO, NULL, flags,          NULL) \
	X(UNFAULT,         "unfault",         "*id",                                                        RUNNER, SYNC_NO,    NULL, flags,                  NULL) \
	X(CLEAR_FAULTS,    "clear_faults",    "",                                                           RUNNER, SYNC_NO,    NULL, flags,                  NULL) \
	X(SLEEP,           "sleep",           "*ms",                                                        RUNNER, SYNC_NO,    NULL, flags,                  NULL) \
	X(BADBLOCKS,       "badblocks",       "*path offset *size",                                         RUNNER, SYNC_NO,    NULL, flags,                  NULL)

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
};

extern const struct op_desc op_table[OP__N];

#endif
