/* SPDX-License-Identifier: GPL-2.0 */
/* Running one instance in the guest: device, filesystem, steps, checks. */
#ifndef WBERR_EXEC_H
#define WBERR_EXEC_H

#include <stdint.h>
#include "result.h"
#include "wb_kernel.h"

struct exec_cfg {
	const char *disk;	/* scratch disk under the wberr device */
	const char *pmem;	/* fsdax pmem for dax scenarios, or NULL: they are skipped */
	const char *nvme;	/* the NVMe namespace for backend nvme, or NULL: skipped */
	const char *mnt;	/* mount point */
	const char *tracefs;	/* tracefs root, NULL to skip tracing */
	const char *dmname;	/* name of the wberr device */
	const char *results;	/* program mode writes each instance's report under it, or NULL */
	const char *evidence;	/* write each instance's evidence under it (evidence.h), or NULL */
	uint64_t seed;
	int verbose;
	/* the kernel under test: its statuses (an instance that needs one it
	 * lacks is skipped with the reason) and its data-writeback errno facts */
	const struct wb_kernel *kernel;
};


int exec_instance(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res);

#endif
