/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Driving a device-mapper device (dm-wberr, and the LV above it) through
 * libdevmapper: the ioctls dmsetup makes, without a fork+exec per call.
 * wberr-run sends one "log" message a step and wberr-stress several a
 * second; under TCG an exec of dmsetup costs about 0.1 s.  A call also
 * hands back what dmsetup would only print: the target's message
 * response, and the errno the kernel refused the ioctl with.
 *
 * No udev in the guest: udev sync is off, so libdevmapper makes and
 * removes /dev/mapper/<name> itself (as dmsetup --noudevsync does), and
 * wb_dm_create checks that the node is there.
 *
 * Every call returns 0, or -errno (the kernel's refusal when there was
 * an ioctl, else -EIO/-ENOMEM); wb_dm_error() then holds libdevmapper's
 * error text.
 */
#ifndef WB_DM_H
#define WB_DM_H

#include <stddef.h>
#include <stdint.h>

/* "dmsetup create NAME --table TABLE" (lines "<start> <len> <target> <args>") */
int wb_dm_create(const char *name, const char *table);
/* "dmsetup load NAME --table TABLE": into the inactive slot, live on resume */
int wb_dm_reload(const char *name, const char *table);
/* "dmsetup suspend [--nolockfs] NAME" */
int wb_dm_suspend(const char *name, int nolockfs);
/* "dmsetup resume NAME" */
int wb_dm_resume(const char *name);
/* "dmsetup remove [--retry] NAME" */
int wb_dm_remove(const char *name, int retry);
/* "dmsetup message NAME 0 MSG"; the response (may be "") into @out, cut
 * at @outlen (dm-wberr's "log" answer fits dm-ioctl's buffer, which
 * libdevmapper sizes in KiB, not MiB: both callers pass 1 MiB) */
int wb_dm_message(const char *name, const char *msg, char *out, size_t outlen);
/* "dmsetup table NAME" / "dmsetup status NAME": one line per target,
 * "<start> <len> <target> <params>\n", into @out */
int wb_dm_table(const char *name, char *out, size_t outlen);
int wb_dm_status(const char *name, char *out, size_t outlen);
/* libdevmapper's text for the last failed call ("" if none) */
const char *wb_dm_error(void);
/* echo every call to stderr as the dmsetup command it stands for */
extern int wb_dm_verbose;

/*
 * One table line "<start> <len> <target> <params>": 0 and the fields
 * (@target NUL-terminated in its buffer, @params points into @line, to
 * the rest after the target, with the trailing newline not counted in
 * *@plen); -1 if malformed.
 */
int wb_dm_table_split(const char *line, uint64_t *start, uint64_t *len,
		      char *target, size_t tlen, const char **params, size_t *plen);
/* dm-wberr's table as wberr-run creates it */
int wb_dm_wberr_table(char *buf, size_t len, uint64_t sectors, const char *dev,
		      uint64_t seed);

#endif
