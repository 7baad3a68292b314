/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel under test, as facts read from it, and the per-kernel facts
 * that cannot be read from it.
 *
 * Read from the running kernel: its release, whether it carries
 * kernel/patches (patch 0005 adds the file_check_and_advance_sb_err
 * event), and which statuses it has with the values it gives them
 * (dm-wberr's "statuses" message: the numbering comes from the kernel
 * dm-wberr was built against, never from a table of ours).
 *
 * Stated here, once: which errno a file system's data writeback records
 * in the mapping when a write bio fails, per kernel, each with the source
 * lines that make it so.  A stock kernel's set event prints only the old
 * errseq value, so the oracles cannot read it there; on a patched kernel
 * the event's errno= is the kernel's own word and wins.  The scenario
 * suite on each kernel is the test that proves these facts
 * (kernel/README.md, `make compare`).
 */
#ifndef WB_KERNEL_H
#define WB_KERNEL_H

#include <stddef.h>

#define WB_KERNEL_MAX_STATUSES 32

struct wb_kernel {
	char release[65];	/* uname -r, "" if unknown */
	int major, minor;	/* 0.0 if unknown */
	int series;		/* kernel/patches applied: 1, 0, or -1 unknown */
	int statuses_read;	/* has[] and value[] hold the kernel's answer */
	/* by wb_statuses[] index: present in this kernel, and its value */
	unsigned char has[WB_KERNEL_MAX_STATUSES];
	int value[WB_KERNEL_MAX_STATUSES];
};

/* nothing known: every status assumed present, no release */
void wb_kernel_init(struct wb_kernel *k);
/* "6.1.0-57-amd64" -> major 6, minor 1; -1 if it does not start N.N */
int wb_kernel_set_release(struct wb_kernel *k, const char *release);
/* uname, and the series from @tracefs (NULL: /sys/kernel/tracing); 0 or -1 */
int wb_kernel_read(struct wb_kernel *k, const char *tracefs);
/*
 * dm-wberr's "statuses" reply: "name=value ..." in value order.  0, or -1
 * (with @err filled) on a name libwb does not know or a malformed pair;
 * the "nexus" alias is taken as resv_conflict.
 */
int wb_kernel_parse_statuses(struct wb_kernel *k, const char *reply, char *err, size_t errlen);
/* sends "statuses" to the dm-wberr device @dmname and parses the reply */
int wb_kernel_read_statuses(struct wb_kernel *k, const char *dmname, char *err, size_t errlen);
/*
 * 1 if the kernel has status @name (always, before the statuses are
 * read); 0 with the reason in @why ("status 'inval' does not exist in
 * 6.1.0-57-amd64 (dm-wberr's statuses: ...)") otherwise.
 */
int wb_kernel_has_status(const struct wb_kernel *k, const char *name, char *why, size_t whylen);
/* 1 when the kernel's release is @mm ("6.1": major.minor, not a prefix:
 * 6.12 is not 6.1); 0 otherwise or when the release is unknown */
int wb_kernel_release_is(const struct wb_kernel *k, const char *mm);
/*
 * 1 when @key names this kernel: "patched" for a kernel that carries
 * kernel/patches (series == 1), else a release major.minor as
 * wb_kernel_release_is() matches it.  0 otherwise.
 */
int wb_kernel_matches(const struct wb_kernel *k, const char *key);
/* the number of statuses the kernel has (wb_nr_statuses before they are read) */
int wb_kernel_nr_statuses(const struct wb_kernel *k);
/* "6.1.0-57-amd64, no kernel/patches" and the like, for reports */
const char *wb_kernel_describe(const struct wb_kernel *k, char *buf, size_t len);

/*
 * The errno @fs ("raw", "ext4", "xfs", "btrfs", "ext2") records in the
 * mapping when a data write fails with a status whose errno is
 * @blk_errno, on kernel @k (NULL: unknown) without kernel/patches:
 * @blk_errno, or what the kernel puts in its place.  *@why (may be NULL) gets the source
 * reason, or NULL when the errno passes through.
 */
int wb_kernel_data_errno(const struct wb_kernel *k, const char *fs, int blk_errno,
			 const char **why);

#endif
