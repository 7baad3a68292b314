// SPDX-License-Identifier: GPL-2.0
/* The files a judge knows, with their extents; wb_files.h. */
#include "wb_files.h"
#include "wb_sys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(struct wb_files *fs, unsigned int idx)
{
	uint64_t *ino;
	char **path;

	if (idx < fs->nfiles)
		return 0;
	ino = realloc(fs->ino, (idx + 1) * sizeof(*ino));
	if (ino)
		fs->ino = ino;
	path = realloc(fs->path, (idx + 1) * sizeof(*path));
	if (path)
		fs->path = path;
	if (!ino || !path)
		return -1;
	for (; fs->nfiles <= idx; fs->nfiles++) {
		fs->ino[fs->nfiles] = 0;
		fs->path[fs->nfiles] = NULL;
	}
	return 0;
}

int wb_files_set(struct wb_files *fs, unsigned int idx, uint64_t ino, const char *path)
{
	char *p = strdup(path ? path : "-");

	if (!p || grow(fs, idx)) {
		free(p);
		return -1;
	}
	free(fs->path[idx]);
	fs->ino[idx] = ino;
	fs->path[idx] = p;
	return 0;
}

int wb_files_find_or_add(struct wb_files *fs, uint64_t ino, const char *path)
{
	int i = wb_files_by_ino(fs, ino);

	if (i >= 0)
		return i;
	i = (int)fs->nfiles;
	return wb_files_set(fs, (unsigned int)i, ino, path) ? -1 : i;
}

int wb_files_add_extent(struct wb_files *fs, unsigned int idx, uint64_t first, uint64_t last)
{
	struct wb_file_ext *v;

	for (size_t j = 0; j < fs->next; j++)
		if (fs->ext[j].file == idx && fs->ext[j].first == first && fs->ext[j].last == last)
			return 0;
	v = realloc(fs->ext, (fs->next + 1) * sizeof(*v));
	if (!v)
		return -1;
	fs->ext = v;
	fs->ext[fs->next++] = (struct wb_file_ext){ idx, first, last };
	return 0;
}

int wb_files_save(const struct wb_files *fs, const char *dir, const char *name)
{
	FILE *f = wb_fopen_in(dir, name, "we");

	if (!f)
		return -1;
	for (unsigned int i = 0; i < fs->nfiles; i++)
		fprintf(f, "file %u %" PRIu64 " %s\n", i, fs->ino[i], fs->path[i] ? fs->path[i] : "-");
	for (size_t j = 0; j < fs->next; j++)
		fprintf(f, "ext %u %" PRIu64 " %" PRIu64 "\n", fs->ext[j].file, fs->ext[j].first,
			fs->ext[j].last);
	return fclose(f);
}

static int load_line(struct wb_files *fs, const char *line)
{
	unsigned int idx;
	uint64_t a, b;
	char name[4096];

	if (sscanf(line, "file %u %" SCNu64 " %4095s", &idx, &a, name) == 3)
		return wb_files_set(fs, idx, a, name);
	if (sscanf(line, "ext %u %" SCNu64 " %" SCNu64, &idx, &a, &b) == 3)
		return wb_files_add_extent(fs, idx, a, b);
	return 0;
}

int wb_files_load(struct wb_files *fs, const char *dir, const char *name)
{
	char path[4096], *text, *line, *save = NULL;
	int rc = 0;

	memset(fs, 0, sizeof(*fs));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = wb_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save))
		rc = load_line(fs, line);
	free(text);
	return rc;
}

void wb_files_free(struct wb_files *fs)
{
	for (unsigned int i = 0; i < fs->nfiles; i++)
		free(fs->path[i]);
	free(fs->path);
	free(fs->ino);
	free(fs->ext);
	memset(fs, 0, sizeof(*fs));
}

int wb_files_by_ino(const struct wb_files *fs, uint64_t ino)
{
	for (unsigned int i = 0; i < fs->nfiles; i++)
		if (fs->ino[i] == ino)
			return (int)i;
	return -1;
}

unsigned int wb_files_hit(const struct wb_files *fs, uint64_t first, uint64_t last,
			  unsigned char *hit)
{
	unsigned int n = 0;

	memset(hit, 0, fs->nfiles);
	for (size_t j = 0; j < fs->next; j++) {
		const struct wb_file_ext *e = &fs->ext[j];

		if (e->first <= last && first <= e->last && !hit[e->file]) {
			hit[e->file] = 1;
			n++;
		}
	}
	return n;
}
