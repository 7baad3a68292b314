// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-dio: issue one kind of block I/O at a sector and print the errno
 * NAME it ended with ("0" for success), so a shell test can compare it with
 * the errno blk_status_to_errno() maps the injected status to.
 *
 *   wberr-dio [-t] [-n COUNT] DEV OP SECTOR [NSECT [FILL]]
 *
 * OP:
 *   write    O_DIRECT pwrite of NSECT sectors (default 8) filled with FILL
 *            (a byte, default 0xa5)
 *   fua      the same with O_DSYNC, which block/fops.c turns into REQ_FUA
 *   nowait   the same with pwritev2(RWF_NOWAIT) (REQ_NOWAIT)
 *   read     O_DIRECT pread of NSECT sectors
 *   check    O_DIRECT pread, then "0" if every byte is FILL, else "DIFF"
 *   flush    fsync() of the block device opened read-only (so it works on
 *            a mounted device): blkdev_fsync() sends an empty REQ_PREFLUSH
 *            bio (SECTOR is ignored)
 *   discard  BLKDISCARD of NSECT sectors
 *   secdiscard BLKSECDISCARD of NSECT sectors (REQ_OP_SECURE_ERASE)
 *   zeroout  BLKZEROOUT of NSECT sectors
 *   loopinfo LOOP_GET_STATUS64 on DEV (SECTOR is ignored): a dm device
 *            passes it to a loop device below; prints the backing file's
 *            name after the "0"
 *
 * -n COUNT repeats the operation COUNT times and prints the results on one
 * line, space separated.  -t appends the elapsed milliseconds of each
 * operation as "NAME/MS".  -R drops CAP_SYS_RAWIO first: dm passes an
 * ioctl aimed at part of a device only to callers that have it
 * (dm_blk_ioctl()).
 *
 * Exit status: 0 when the operation(s) ran (whatever errno they returned),
 * 2 on a usage error or when DEV cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "wb_names.h"

#define SECTOR 512ULL

static void usage(void)
{
	fprintf(stderr,
		"usage: wberr-dio [-t] [-R] [-n COUNT] DEV write|fua|nowait|read|check|flush|discard|secdiscard|zeroout|loopinfo SECTOR [NSECT [FILL]]\n");
	exit(2);
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-';
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* CAP_SYS_RAWIO out of the effective set (no libcap: two syscalls) */
static void drop_rawio(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data)) {
		perror("wberr-dio: capget");
		exit(2);
	}
	data[CAP_TO_INDEX(CAP_SYS_RAWIO)].effective &= ~CAP_TO_MASK(CAP_SYS_RAWIO);
	if (syscall(SYS_capset, &hdr, data)) {
		perror("wberr-dio: capset");
		exit(2);
	}
}

static char loop_name[LO_NAME_SIZE + 1];

/* One operation; returns 0 or an errno, or -1 for a data mismatch. */
static int run_op(const char *dev, const char *op, unsigned long long sector,
		  unsigned long long nsect, int fill, void *buf)
{
	size_t len = nsect * SECTOR;
	off_t off = sector * SECTOR;
	int flags = O_RDWR | O_DIRECT;
	int fd, err = 0;
	ssize_t r;

	if (!strcmp(op, "fua"))
		flags |= O_DSYNC;
	if (!strcmp(op, "flush") || !strcmp(op, "discard") ||
	    !strcmp(op, "secdiscard") || !strcmp(op, "zeroout"))
		flags &= ~O_DIRECT;
	if (!strcmp(op, "read") || !strcmp(op, "check"))
		flags = O_RDONLY | O_DIRECT;
	/* fsync needs no write access, and a mounted device refuses writers */
	if (!strcmp(op, "flush") || !strcmp(op, "loopinfo"))
		flags = O_RDONLY;

	fd = open(dev, flags);
	if (fd < 0) {
		fprintf(stderr, "wberr-dio: open %s: %s\n", dev, strerror(errno));
		exit(2);
	}

	if (!strcmp(op, "write") || !strcmp(op, "fua")) {
		memset(buf, fill, len);
		r = pwrite(fd, buf, len, off);
		err = r < 0 ? errno : (size_t)r != len ? EFAULT : 0;
	} else if (!strcmp(op, "nowait")) {
		struct iovec iov = { .iov_base = buf, .iov_len = len };

		memset(buf, fill, len);
		r = pwritev2(fd, &iov, 1, off, RWF_NOWAIT);
		err = r < 0 ? errno : (size_t)r != len ? EFAULT : 0;
	} else if (!strcmp(op, "read") || !strcmp(op, "check")) {
		r = pread(fd, buf, len, off);
		err = r < 0 ? errno : (size_t)r != len ? EFAULT : 0;
		if (!err && !strcmp(op, "check")) {
			const unsigned char *p = buf;
			size_t i;

			for (i = 0; i < len; i++)
				if (p[i] != (unsigned char)fill)
					break;
			if (i != len)
				err = -1;
		}
	} else if (!strcmp(op, "flush")) {
		err = fsync(fd) ? errno : 0;
	} else if (!strcmp(op, "discard") || !strcmp(op, "secdiscard") ||
		   !strcmp(op, "zeroout")) {
		uint64_t range[2] = { off, len };
		unsigned long req = !strcmp(op, "discard") ? BLKDISCARD :
				    !strcmp(op, "secdiscard") ? BLKSECDISCARD : BLKZEROOUT;

		err = ioctl(fd, req, range) ? errno : 0;
	} else if (!strcmp(op, "loopinfo")) {
		struct loop_info64 info;

		memset(&info, 0, sizeof(info));
		err = ioctl(fd, LOOP_GET_STATUS64, &info) ? errno : 0;
		memcpy(loop_name, info.lo_file_name, LO_NAME_SIZE);
	} else {
		usage();
	}
	close(fd);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long long sector, nsect = 8, fill = 0xa5, count = 1, i, v;
	const char *dev, *op;
	int timed = 0, opt;
	void *buf;

	while ((opt = getopt(argc, argv, "tRn:")) != -1) {
		switch (opt) {
		case 't':
			timed = 1;
			break;
		case 'R':
			drop_rawio();
			break;
		case 'n':
			if (parse_u64(optarg, &count) || !count)
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 3 || argc > 5)
		usage();
	dev = argv[0];
	op = argv[1];
	if (parse_u64(argv[2], &sector))
		usage();
	if (argc > 3 && (parse_u64(argv[3], &nsect) || !nsect || nsect > 8192))
		usage();
	if (argc > 4 && (parse_u64(argv[4], &v) || v > 255))
		usage();
	else if (argc > 4)
		fill = v;

	if (posix_memalign(&buf, 4096, nsect * SECTOR))
		return 2;

	for (i = 0; i < count; i++) {
		double t0 = now_ms();
		int err = run_op(dev, op, sector, nsect, (int)fill, buf);
		const char *name = err == -1 ? "DIFF" : wb_errno_name(err);

		if (timed)
			printf("%s%s/%.0f", i ? " " : "", name, now_ms() - t0);
		else
			printf("%s%s", i ? " " : "", name);
		if (!err && !strcmp(op, "loopinfo"))
			printf(" %s", loop_name);
	}
	printf("\n");
	free(buf);
	return 0;
}
