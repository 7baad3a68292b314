/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A message to a device-mapper target with the DM_TARGET_MSG ioctl alone,
 * for the programs that must start fast or size the answer's buffer
 * themselves: wberr-dmmsg (the guest tests' "dmsetup message", linked
 * static) and wberr-msgfuzz.  Everything else goes through libdevmapper
 * (wb_dm.h), which Debian ships as a shared library only: a program that
 * links it spends some 45 ms in the dynamic loader under TCG, against
 * 5 ms for a static one, and the dm-wberr tests send over a thousand
 * messages (docs/measurements.md).
 *
 * The ioctl buffer is sized as libdevmapper sizes it (16 KiB, doubled
 * and the message sent again while dm-ioctl flags it full), so that a
 * reply the target cuts to its buffer (dm-wberr's "log" pages) is the one
 * dmsetup would print.
 */
#ifndef WB_DMMSG_H
#define WB_DMMSG_H

#include <stddef.h>

/* libdevmapper's first buffer: header, message and answer (_flatten()) */
#define WB_DMMSG_MIN_BUF (16 * 1024)
/* no answer is bigger: give up doubling here */
#define WB_DMMSG_MAX_BUF (64 * 1024 * 1024)

struct wb_dmmsg {
	char *buf;		/* the ioctl buffer, header first */
	size_t size;		/* its bytes */
	int full;		/* dm-ioctl flagged the answer cut */
	const char *reply;	/* the target's answer, NULL if it gave none */
};

/*
 * Fill @m->buf (@m->size bytes) with the header for device @name and the
 * message @text at sector 0: 0, or -ENAMETOOLONG / -E2BIG when the name
 * or the text does not fit.
 */
int wb_dmmsg_pack(struct wb_dmmsg *m, const char *name, const char *text);
/* after the ioctl: set @m->full and @m->reply from the header's flags */
void wb_dmmsg_unpack(struct wb_dmmsg *m);

/*
 * One DM_TARGET_MSG through @ctl (an open /dev/mapper/control) with a
 * buffer of @size bytes: 0, or the errno the kernel refused it with.
 * @m is the caller's, freed with wb_dmmsg_free().
 */
int wb_dmmsg_sized(int ctl, const char *name, const char *text, size_t size,
		   struct wb_dmmsg *m);
/* as libdevmapper: WB_DMMSG_MIN_BUF, doubled while the answer is cut */
int wb_dmmsg_send(int ctl, const char *name, const char *text, struct wb_dmmsg *m);
void wb_dmmsg_free(struct wb_dmmsg *m);

#endif
