/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device stack of one instance: the wberr device over the scratch
 * disk, optionally an LVM LV over it, the filesystem made and mounted on
 * top; and where a file's data lies on the wberr device (FIEMAP through
 * lib/c's wb_fiemap, which maps btrfs's logical addresses through its
 * chunk tree, plus the LV's offset).  dm-wberr itself is driven through
 * dm.h.
 */
#ifndef WBERR_STACK_H
#define WBERR_STACK_H

#include <stddef.h>
#include <stdint.h>
#include "backend.h"
#include "scenario.h"
#include "wb_kernel.h"

#define MAX_EXT 64

/* an extent in sectors of the wberr device, inclusive */
struct ext { uint64_t first, last; };

struct stack {
	/* given */
	const char *dmname, *disk, *mnt;
	uint64_t seed;
	const struct scenario *sc;
	int fs;
	int data_mode;		/* DM_*, ext4 only */
	struct backend *bk;	/* a real driver's device instead of dm-wberr, or NULL */
	/* set up */
	char wdev[256];		/* /dev/mapper/<dmname>, or the real driver's device */
	char dev[256];		/* what the filesystem sits on */
	uint64_t dev_offset;	/* sectors of dev inside wdev */
	int mounted, created;
	int poisoned;		/* badblocks set on the pmem: teardown drops them */
	/* seconds stack_setup() spent: device (dm, lvm), mkfs (or the
	 * template's restore), mount */
	double secs_device, secs_mkfs, secs_mount;
	int from_template;	/* the fs is a restored copy of this run's first mkfs of its kind */
};

/* create, stack, mkfs and mount; clears dm-wberr's rules and log at the
 * end.  The first mkfs of a kind (command, options, disk, size) is kept as
 * a template (fstemplate.h) and later instances of that kind get it back
 * on the disk instead of a new mkfs; WBERR_NO_TEMPLATE=1 makes every
 * instance run mkfs.  With WBERR_TEMPLATES=DIR a kind's first instance
 * looks there for a template an earlier run kept, and a new template is
 * kept there too (one file per kind; the key adds what makes a template
 * stale across runs: the disk's topology, the kernel, the mkfs program).
 * -1 with the reason in @reason. */
int stack_setup(struct stack *s, char *reason, size_t rlen);
/* forget the templates (a test's reset) */
void stack_templates_reset(void);
/* orders instances by what a template is made for (the fs and its mkfs
 * command, dax, size, mkfs options; LVM instances, which get none, after
 * the others): 0 when one template serves both */
int stack_kind_cmp(const struct instance *a, const struct instance *b);
/* mount with the scenario's options; 0 or -errno */
int stack_mount(struct stack *s);
/* the scenario's umount step: 0 or -errno (EBUSY while an fd is open) */
int stack_umount(struct stack *s);
/* umount, remove the wberr device and create it again over the same
 * disk (no rules, an empty log), mount: the device down and up, with
 * everything the disk holds kept.  -1 with the reason in @reason. */
int stack_cycle(struct stack *s, char *reason, size_t rlen);
/* a short-lived wberr device @dmname over @disk, asked for the statuses
 * this kernel has (dm-wberr's "statuses" message), then removed; -1 with
 * the reason in @err */
int stack_read_statuses(const char *dmname, const char *disk, struct wb_kernel *k,
			char *err, size_t errlen);
/* unmount (sync first, lazily if busy), remove the LV and the device;
 * on a pmem with badblocks set, rebind it to drop them */
void stack_teardown(struct stack *s);
/* the allocated extents of @rel (relative to the mount point), in sectors
 * of the wberr device; the number found or -errno */
int stack_fiemap(const struct stack *s, const char *rel, struct ext *out, int max);
/* the file system's free space now (GETFSMAP), in sectors of the wberr
 * device: the number of extents, -E2BIG when more than @max, or -errno */
int stack_free_space(const struct stack *s, struct ext *out, int max);
/* mark bytes [@off, @off+@len) of @rel bad on the pmem below (a dax
 * instance); 0 or -errno (-ENXIO: part of the range has no blocks) */
int stack_badblocks(struct stack *s, const char *rel, uint64_t off, uint64_t len,
		    char *msg, size_t mlen);

#endif
