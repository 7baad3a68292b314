/* SPDX-License-Identifier: GPL-2.0 */
/* wberr-run's dm-wberr devices (dm.c, on lib/c wb_dm); its rules and log
 * go through lib/c wb_wberr (faults.c). */
#ifndef WBERR_DM_H
#define WBERR_DM_H

#include <stddef.h>
#include <stdint.h>

/* dm-wberr's table over @dev (wb_dm_wberr_table); libdevmapper's error into @err */
int dm_create(const char *name, const char *dev, uint64_t sectors, uint64_t seed,
	      char *err, size_t errlen);
/* remove --retry */
int dm_remove(const char *name);
/* "message NAME 0 MSG": 0 and the response (if any) in @out, or -1 and
 * libdevmapper's error text in @out */
int dm_message(const char *name, const char *msg, char *out, size_t outlen);

#endif
