// SPDX-License-Identifier: GPL-2.0
/* wberr-run's dm-wberr devices, on lib/c wb_dm (libdevmapper, no exec),
 * with its --verbose. */
#include "dm.h"
#include "wb_dm.h"
#include "sys.h"

#include <stdio.h>

int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen)
{
	char table[512];

	wb_dm_verbose = sys_verbose;
	if (wb_dm_wberr_table(table, sizeof(table), sectors, dev, seed)) {
		snprintf(err, errlen, "device path too long: %s", dev);
		return -1;
	}
	if (wb_dm_create(name, table)) {
		snprintf(err, errlen, "%s", wb_dm_error());
		return -1;
	}
	return 0;
}

int dm_remove(const char *name)
{
	wb_dm_verbose = sys_verbose;
	return wb_dm_remove(name, 1) ? -1 : 0;
}

int dm_message(const char *name, const char *msg, char *out, size_t outlen)
{
	wb_dm_verbose = sys_verbose;
	return wb_dm_message(name, msg, out, outlen) ? -1 : 0;
}
