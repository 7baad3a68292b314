// SPDX-License-Identifier: GPL-2.0
#include "extents.h"
#include "util.h"
#include "wb_sys.h"
#include "wb_fiemap.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_EXTENTS 64

static void grow(struct wbs_files *fs, unsigned int idx)
{
	if (idx < fs->nfiles)
		return;
	fs->ino = wbs_xrealloc(fs->ino, idx + 1, sizeof(*fs->ino));
	fs->path = wbs_xrealloc(fs->path, idx + 1, sizeof(*fs->path));
	while (fs->nfiles <= idx) {
		fs->ino[fs->nfiles] = 0;
		fs->path[fs->nfiles] = NULL;
		fs->nfiles++;
	}
}

static void add_extent(struct wbs_files *fs, unsigned int idx, uint64_t first,
		       uint64_t last)
{
	fs->ext = wbs_xrealloc(fs->ext, fs->next + 1, sizeof(*fs->ext));
	fs->ext[fs->next].file = idx;
	fs->ext[fs->next].first = first;
	fs->ext[fs->next].last = last;
	fs->next++;
}

int wbs_files_add(struct wbs_files *fs, unsigned int idx, int fd,
		  const char *path)
{
	/* the oracle ties every fault to written data: nothing else may be in range */
	const uint32_t bad = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
			     FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_NOT_ALIGNED |
			     FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL |
			     FIEMAP_EXTENT_UNWRITTEN;
	struct wb_extent e[MAX_EXTENTS];
	struct stat st;
	int i, n, complete;

	if (fstat(fd, &st))
		return -1;
	n = wb_fiemap(fd, 1, e, MAX_EXTENTS, &complete);
	if (n < 0) {
		errno = -n;
		wbs_warn(1, "FIEMAP %s", path);
		return -1;
	}
	if (!n || !complete) {
		wbs_warn(0, "%s: no extents or more than %d", path, MAX_EXTENTS);
		return -1;
	}
	grow(fs, idx);
	fs->ino[idx] = st.st_ino;
	fs->path[idx] = wbs_xstrdup(path);
	for (i = 0; i < n; i++) {
		if (e[i].flags & bad) {
			wbs_warn(0, "%s: extent %d has flags 0x%x (not plain data)",
				 path, i, e[i].flags);
			return -1;
		}
		add_extent(fs, idx, e[i].first, e[i].last);
	}
	return 0;
}

int wbs_files_save(const struct wbs_files *fs, const char *dir)
{
	FILE *f = wb_fopen_in(dir, "files.txt", "we");
	unsigned int i;
	size_t j;

	if (!f)
		return -1;
	for (i = 0; i < fs->nfiles; i++)
		fprintf(f, "file %u %" PRIu64 " %s\n", i, fs->ino[i],
			fs->path[i] ? fs->path[i] : "-");
	for (j = 0; j < fs->next; j++)
		fprintf(f, "ext %u %" PRIu64 " %" PRIu64 "\n", fs->ext[j].file,
			fs->ext[j].first, fs->ext[j].last);
	return fclose(f);
}

int wbs_files_load(struct wbs_files *fs, const char *dir)
{
	char path[4096], *text, *line, *save = NULL;

	memset(fs, 0, sizeof(*fs));
	snprintf(path, sizeof(path), "%s/files.txt", dir);
	text = wb_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int idx;
		uint64_t a, b;
		char name[4096];

		if (sscanf(line, "file %u %" SCNu64 " %4095s", &idx, &a, name) == 3) {
			grow(fs, idx);
			fs->ino[idx] = a;
			fs->path[idx] = wbs_xstrdup(name);
		} else if (sscanf(line, "ext %u %" SCNu64 " %" SCNu64, &idx, &a, &b) == 3) {
			add_extent(fs, idx, a, b);
		}
	}
	free(text);
	return 0;
}

void wbs_files_free(struct wbs_files *fs)
{
	unsigned int i;

	for (i = 0; i < fs->nfiles; i++)
		free(fs->path[i]);
	free(fs->path);
	free(fs->ino);
	free(fs->ext);
	memset(fs, 0, sizeof(*fs));
}

int wbs_files_by_ino(const struct wbs_files *fs, uint64_t ino)
{
	unsigned int i;

	for (i = 0; i < fs->nfiles; i++)
		if (fs->ino[i] == ino)
			return (int)i;
	return -1;
}

unsigned int wbs_files_hit(const struct wbs_files *fs, uint64_t first,
			   uint64_t last, unsigned char *hit)
{
	unsigned int n = 0;
	size_t j;

	memset(hit, 0, fs->nfiles);
	for (j = 0; j < fs->next; j++) {
		const struct wbs_extent *e = &fs->ext[j];

		if (e->first <= last && first <= e->last && !hit[e->file]) {
			hit[e->file] = 1;
			n++;
		}
	}
	return n;
}
