// SPDX-License-Identifier: GPL-2.0
#include "extents.h"
#include "util.h"

#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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
	const uint32_t bad = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
			     FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_NOT_ALIGNED |
			     FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL |
			     FIEMAP_EXTENT_UNWRITTEN;
	size_t sz = sizeof(struct fiemap) +
		    MAX_EXTENTS * sizeof(struct fiemap_extent);
	struct fiemap *fm = wbs_xcalloc(1, sz);
	struct stat st;
	unsigned int i;
	int rc = -1;

	if (fstat(fd, &st))
		goto out;
	fm->fm_start = 0;
	fm->fm_length = FIEMAP_MAX_OFFSET;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = MAX_EXTENTS;
	if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
		wbs_warn(1, "FIEMAP %s", path);
		goto out;
	}
	if (!fm->fm_mapped_extents ||
	    !(fm->fm_extents[fm->fm_mapped_extents - 1].fe_flags &
	      FIEMAP_EXTENT_LAST)) {
		wbs_warn(0, "%s: no extents or more than %d", path, MAX_EXTENTS);
		goto out;
	}
	grow(fs, idx);
	fs->ino[idx] = st.st_ino;
	fs->path[idx] = wbs_xstrdup(path);
	for (i = 0; i < fm->fm_mapped_extents; i++) {
		struct fiemap_extent *e = &fm->fm_extents[i];

		if (e->fe_flags & bad) {
			wbs_warn(0, "%s: extent %u has flags 0x%x (not plain data)",
				 path, i, e->fe_flags);
			goto out;
		}
		add_extent(fs, idx, e->fe_physical / 512,
			   (e->fe_physical + e->fe_length) / 512 - 1);
	}
	rc = 0;
out:
	free(fm);
	return rc;
}

int wbs_files_save(const struct wbs_files *fs, const char *dir)
{
	FILE *f = wbs_fopen_in(dir, "files.txt", "we");
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
	text = wbs_read_file(path, NULL);
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
