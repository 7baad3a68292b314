// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-seed: credit the bytes of FILE (the host's /dev/urandom, which
 * run-guest puts in the payload of every boot) to the guest kernel's
 * entropy pool, so that its crng is ready at boot.
 *
 *   wberr-seed FILE
 *
 * Without it the guest's crng is ready only some 30 s into a boot under
 * TCG (its jitter entropy is slow there), and until then every program
 * that asks getrandom() for a UUID waits: mke2fs 4.2 s a run, against
 * 0.16 s with the UUIDs given (docs/measurements.md).  The seed is what
 * systemd's random-seed service credits on a real machine: random bytes
 * from a trusted source, here the host.  RNDADDENTROPY needs
 * CAP_SYS_ADMIN; init runs as root.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SEED_MAX 512

int main(int argc, char **argv)
{
	struct {
		struct rand_pool_info info;
		unsigned char buf[SEED_MAX];
	} seed;
	ssize_t n;
	int fd, rnd;

	if (argc != 2) {
		fprintf(stderr, "usage: wberr-seed FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, seed.buf, sizeof(seed.buf));
	if (fd >= 0)
		close(fd);
	if (n < 32) {
		fprintf(stderr, "wberr-seed: %s: %s\n", argv[1], n < 0 ? strerror(errno) : "fewer than 32 bytes");
		return 1;
	}
	seed.info.entropy_count = (int)n * 8;
	seed.info.buf_size = (int)n;
	rnd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	if (rnd < 0 || ioctl(rnd, RNDADDENTROPY, &seed.info)) {
		fprintf(stderr, "wberr-seed: RNDADDENTROPY: %s\n", strerror(errno));
		return 1;
	}
	close(rnd);
	return 0;
}
