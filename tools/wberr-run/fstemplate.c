// SPDX-License-Identifier: GPL-2.0
/* File system templates; see fstemplate.h. */
#include "fstemplate.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#define CHUNK (1u << 20)

static int all_zero(const unsigned char *b)
{
	static const unsigned char zero[FST_BLOCK];

	return !memcmp(b, zero, FST_BLOCK);
}

static int push(struct fst *t, uint64_t blk, const unsigned char *b, size_t max_data, size_t *cap)
{
	if ((t->nblk + 1) * FST_BLOCK > max_data)
		return -E2BIG;
	if (t->nblk == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		uint64_t *nb = realloc(t->blk, ncap * sizeof(*nb));
		unsigned char *nd;

		if (!nb)
			return -ENOMEM;
		t->blk = nb;
		/* aligned for O_DIRECT writes: no realloc */
		if (posix_memalign((void **)&nd, FST_BLOCK, ncap * FST_BLOCK))
			return -ENOMEM;
		if (t->nblk)
			memcpy(nd, t->data, t->nblk * FST_BLOCK);
		free(t->data);
		t->data = nd;
		*cap = ncap;
	}
	t->blk[t->nblk] = blk;
	memcpy(t->data + t->nblk * FST_BLOCK, b, FST_BLOCK);
	t->nblk++;
	return 0;
}

int fst_capture(int fd, uint64_t bytes, size_t max_data, struct fst *t)
{
	unsigned char *buf;
	size_t cap = 0;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (bytes % FST_BLOCK)
		return -EINVAL;
	if (posix_memalign((void **)&buf, FST_BLOCK, CHUNK))
		return -ENOMEM;
	t->bytes = bytes;
	for (uint64_t off = 0; off < bytes && !rc; off += CHUNK) {
		size_t len = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;
		ssize_t n = pread(fd, buf, len, (off_t)off);

		if (n != (ssize_t)len) {
			rc = n < 0 ? -errno : -EIO;
			break;
		}
		for (size_t b = 0; b < len && !rc; b += FST_BLOCK)
			if (!all_zero(buf + b))
				rc = push(t, (off + b) / FST_BLOCK, buf + b, max_data, &cap);
	}
	free(buf);
	if (rc)
		fst_free(t);
	return rc;
}

static int zero_range(int fd, uint64_t bytes)
{
	uint64_t range[2] = { 0, bytes };
	unsigned char *z;
	int rc = 0;

	if (!ioctl(fd, BLKZEROOUT, range))
		return 0;
	if (!fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)bytes))
		return 0;
	if (posix_memalign((void **)&z, FST_BLOCK, CHUNK))
		return -ENOMEM;
	memset(z, 0, CHUNK);
	for (uint64_t off = 0; off < bytes && !rc; off += CHUNK) {
		size_t len = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;

		if (pwrite(fd, z, len, (off_t)off) != (ssize_t)len)
			rc = -errno ? -errno : -EIO;
	}
	free(z);
	return rc;
}

int fst_restore(int fd, const struct fst *t)
{
	int rc = zero_range(fd, t->bytes);

	/* runs of consecutive blocks in one write each */
	for (size_t i = 0; i < t->nblk && !rc;) {
		size_t j = i + 1;

		while (j < t->nblk && t->blk[j] == t->blk[j - 1] + 1 && j - i < CHUNK / FST_BLOCK)
			j++;
		if (pwrite(fd, t->data + i * FST_BLOCK, (j - i) * FST_BLOCK,
			   (off_t)(t->blk[i] * FST_BLOCK)) != (ssize_t)((j - i) * FST_BLOCK))
			rc = -EIO;
		i = j;
	}
	if (!rc && fsync(fd))
		rc = -errno;
	return rc;
}

void fst_free(struct fst *t)
{
	free(t->blk);
	free(t->data);
	memset(t, 0, sizeof(*t));
}

#define FST_MAGIC "wberr-fst 1\n"

static int write_all(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -EIO;
}

static int save_to(FILE *f, const char *key, const struct fst *t)
{
	uint64_t head[2] = { htole64(t->bytes), htole64(t->nblk) };
	int rc = 0;

	if (fprintf(f, "%s%s\n", FST_MAGIC, key) < 0)
		return -EIO;
	rc = write_all(f, head, sizeof(head));
	for (size_t i = 0; i < t->nblk && !rc; i++) {
		uint64_t b = htole64(t->blk[i]);

		rc = write_all(f, &b, sizeof(b));
	}
	if (!rc)
		rc = write_all(f, t->data, t->nblk * FST_BLOCK);
	return rc;
}

int fst_save(const char *path, const char *key, const struct fst *t)
{
	char tmp[4096];
	FILE *f;
	int rc;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "wbe");
	if (!f)
		return -errno;
	rc = save_to(f, key, t);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

/* the magic and @key, then the size and the block count */
static int load_head(FILE *f, const char *key, size_t max_data, struct fst *t)
{
	char line[4096];
	uint64_t head[2];
	size_t kl = strlen(key);

	if (!fgets(line, sizeof(line), f) || strcmp(line, FST_MAGIC))
		return -EINVAL;
	if (!fgets(line, sizeof(line), f) || !strchr(line, '\n'))
		return -EINVAL;
	if (strlen(line) != kl + 1 || strncmp(line, key, kl))
		return -ESTALE;
	if (fread(head, sizeof(head), 1, f) != 1)
		return -EINVAL;
	t->bytes = le64toh(head[0]);
	t->nblk = (size_t)le64toh(head[1]);
	if (t->bytes % FST_BLOCK || t->nblk > max_data / FST_BLOCK)
		return -EINVAL;
	return 0;
}

/* the block numbers (ascending, inside the image) and the blocks */
static int load_body(FILE *f, struct fst *t)
{
	t->blk = calloc(t->nblk ? t->nblk : 1, sizeof(*t->blk));
	if (!t->blk || posix_memalign((void **)&t->data, FST_BLOCK, t->nblk ? t->nblk * FST_BLOCK : FST_BLOCK))
		return -ENOMEM;
	for (size_t i = 0; i < t->nblk; i++) {
		uint64_t b;

		if (fread(&b, sizeof(b), 1, f) != 1)
			return -EINVAL;
		t->blk[i] = le64toh(b);
		if (t->blk[i] >= t->bytes / FST_BLOCK || (i && t->blk[i] <= t->blk[i - 1]))
			return -EINVAL;
	}
	if (t->nblk && fread(t->data, FST_BLOCK, t->nblk, f) != t->nblk)
		return -EINVAL;
	return fgetc(f) == EOF ? 0 : -EINVAL;
}

int fst_load(const char *path, const char *key, size_t max_data, struct fst *t)
{
	FILE *f = fopen(path, "rbe");
	int rc;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -errno;
	rc = load_head(f, key, max_data, t);
	if (!rc)
		rc = load_body(f, t);
	fclose(f);
	if (rc)
		fst_free(t);
	return rc;
}
