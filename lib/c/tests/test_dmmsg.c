// SPDX-License-Identifier: GPL-2.0
/*
 * wb_dmmsg: the header as libdevmapper lays it out for a message, and the
 * answer read back from dm-ioctl's flags.  The ioctl itself is the guest's
 * (tests/dm-wberr/034 holds wberr-dmmsg to dmsetup message there): the
 * host never opens /dev/mapper/control.
 */
#include <errno.h>
#include <linux/dm-ioctl.h>
#include <stdlib.h>

#include "wb_dmmsg.h"
#include "wb_test.h"

static void test_pack(void)
{
	struct wb_dmmsg m = { .size = WB_DMMSG_MIN_BUF };
	struct dm_target_msg *tm;
	struct dm_ioctl *io;
	char name[DM_NAME_LEN + 1];

	m.buf = malloc(m.size);
	io = (struct dm_ioctl *)m.buf;
	is_int(0, wb_dmmsg_pack(&m, "wbt", "add write ioerr"), "a message packs");
	tm = (struct dm_target_msg *)(m.buf + io->data_start);
	ok(io->version[0] == DM_VERSION_MAJOR && io->data_size == WB_DMMSG_MIN_BUF &&
	   io->data_start == sizeof(*io), "version 4, the whole buffer, data after the header");
	ok(!strcmp(io->name, "wbt") && tm->sector == 0 &&
	   !strcmp(tm->message, "add write ioerr"), "the name, sector 0 and the text");
	is_int(0, io->flags, "no flags: none asks dm-ioctl for anything");

	memset(name, 'n', DM_NAME_LEN);
	name[DM_NAME_LEN] = '\0';
	is_int(-ENAMETOOLONG, wb_dmmsg_pack(&m, name, "list"), "a name dm-ioctl cannot hold is refused");
	name[DM_NAME_LEN - 1] = '\0';
	is_int(0, wb_dmmsg_pack(&m, name, "list"), "the longest name it holds packs");
	free(m.buf);

	m.size = sizeof(struct dm_ioctl) + sizeof(struct dm_target_msg) + 5;
	m.buf = malloc(m.size);
	is_int(0, wb_dmmsg_pack(&m, "wbt", "list"), "a text that just fits");
	is_int(-E2BIG, wb_dmmsg_pack(&m, "wbt", "list!"), "one byte more does not");
	free(m.buf);
}

static void test_unpack(void)
{
	struct wb_dmmsg m = { .size = WB_DMMSG_MIN_BUF };
	struct dm_ioctl *io;

	m.buf = malloc(m.size);
	io = (struct dm_ioctl *)m.buf;
	wb_dmmsg_pack(&m, "wbt", "clear");
	wb_dmmsg_unpack(&m);
	ok(!m.reply && !m.full, "no DM_DATA_OUT_FLAG: no answer (dmsetup prints nothing)");

	wb_dmmsg_pack(&m, "wbt", "list");
	io->flags |= DM_DATA_OUT_FLAG;
	strcpy(m.buf + io->data_start, "1 write ioerr\n");
	wb_dmmsg_unpack(&m);
	ok(m.reply && !strcmp(m.reply, "1 write ioerr\n") && !m.full, "DM_DATA_OUT_FLAG: the answer");

	io->flags |= DM_BUFFER_FULL_FLAG;
	memset(m.buf + io->data_start, 'x', m.size - io->data_start);
	wb_dmmsg_unpack(&m);
	ok(m.full && m.reply && strlen(m.reply) == m.size - io->data_start - 1,
	   "a full buffer: flagged, the answer cut inside it");
	free(m.buf);
}

int main(void)
{
	test_pack();
	test_unpack();
	return tap_done();
}
