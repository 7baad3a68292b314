// SPDX-License-Identifier: GPL-2.0
/* DM_TARGET_MSG without libdevmapper (wb_dmmsg.h says why). */
#include "wb_dmmsg.h"

#include <errno.h>
#include <linux/dm-ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

int wb_dmmsg_pack(struct wb_dmmsg *m, const char *name, const char *text)
{
	struct dm_ioctl *io = (struct dm_ioctl *)m->buf;
	const size_t head = sizeof(*io) + sizeof(struct dm_target_msg);
	struct dm_target_msg *tm;

	m->full = 0;
	m->reply = NULL;
	if (strlen(name) >= sizeof(io->name))
		return -ENAMETOOLONG;
	if (m->size < head || strlen(text) >= m->size - head)
		return -E2BIG;
	memset(m->buf, 0, m->size);
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = m->size;
	io->data_start = sizeof(*io);
	memcpy(io->name, name, strlen(name) + 1);
	tm = (struct dm_target_msg *)(m->buf + io->data_start);
	tm->sector = 0;
	memcpy(tm->message, text, strlen(text) + 1);
	return 0;
}

void wb_dmmsg_unpack(struct wb_dmmsg *m)
{
	struct dm_ioctl *io = (struct dm_ioctl *)m->buf;

	m->full = !!(io->flags & DM_BUFFER_FULL_FLAG);
	m->reply = NULL;
	/* dm-ioctl's target_message(): an answer only with DM_DATA_OUT_FLAG */
	if ((io->flags & DM_DATA_OUT_FLAG) && io->data_start < m->size) {
		m->buf[m->size - 1] = '\0';
		m->reply = m->buf + io->data_start;
	}
}

int wb_dmmsg_sized(int ctl, const char *name, const char *text, size_t size,
		   struct wb_dmmsg *m)
{
	int rc;

	free(m->buf);
	m->buf = malloc(size);
	m->size = size;
	if (!m->buf)
		return ENOMEM;
	rc = wb_dmmsg_pack(m, name, text);
	if (rc)
		return -rc;
	if (ioctl(ctl, DM_TARGET_MSG, m->buf))
		return errno;
	wb_dmmsg_unpack(m);
	return 0;
}

int wb_dmmsg_send(int ctl, const char *name, const char *text, struct wb_dmmsg *m)
{
	size_t size = sizeof(struct dm_ioctl) + sizeof(struct dm_target_msg) +
		      strlen(text) + 1;
	int rc;

	/* libdevmapper's _flatten(): what the message needs, at least 16 KiB */
	if (size < WB_DMMSG_MIN_BUF)
		size = WB_DMMSG_MIN_BUF;
	for (;;) {
		rc = wb_dmmsg_sized(ctl, name, text, size, m);
		if (rc || !m->full || size >= WB_DMMSG_MAX_BUF)
			return rc;
		size *= 2;
	}
}

void wb_dmmsg_free(struct wb_dmmsg *m)
{
	free(m->buf);
	m->buf = NULL;
	m->size = 0;
	m->reply = NULL;
}
