// SPDX-License-Identifier: GPL-2.0
#include "rec.h"
#include "wb_names.h"
#include "util.h"
#include "wb_sys.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[WBS_OP_NR] = {
	[WBS_OP_OPEN] = "open",
	[WBS_OP_FSYNC] = "fsync",
	[WBS_OP_FDATASYNC] = "fdatasync",
	[WBS_OP_SYNCFS] = "syncfs",
	[WBS_OP_WRITE_ERR] = "pwrite",
	[WBS_OP_SUMMARY] = "summary",
};

const char *wbs_op_name(unsigned int op)
{
	return op < WBS_OP_NR ? op_names[op] : "?";
}

int wbs_op_is_fsync_family(unsigned int op)
{
	return op == WBS_OP_FSYNC || op == WBS_OP_FDATASYNC;
}

int wbs_rec_open(struct wbs_rec_writer *w, const char *dir, unsigned int proc)
{
	char name[64];

	snprintf(name, sizeof(name), "recs.%04u.bin", proc);
	w->f = wbs_fopen_in(dir, name, "we");
	w->seq = 0;
	return w->f ? 0 : -1;
}

void wbs_rec_put(struct wbs_rec_writer *w, struct wbs_rec *r)
{
	r->seq = w->seq++;
	fwrite(r, sizeof(*r), 1, w->f);
}

int wbs_rec_close(struct wbs_rec_writer *w)
{
	int rc = fclose(w->f);

	w->f = NULL;
	return rc;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct wbs_rec *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void wbs_recs_sort(struct wbs_recs *rs)
{
	qsort(rs->v, rs->n, sizeof(*rs->v), cmp_rec);
}

int wbs_recs_load(struct wbs_recs *rs, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;

	rs->v = NULL;
	rs->n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[4096];
		size_t len;
		char *data;

		if (strncmp(de->d_name, "recs.", 5) ||
		    !strstr(de->d_name, ".bin"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		data = wb_read_file(path, &len);
		if (!data) {
			closedir(d);
			return -1;
		}
		len -= len % sizeof(struct wbs_rec);
		if (rs->n + len / sizeof(struct wbs_rec) > cap) {
			cap = (rs->n + len / sizeof(struct wbs_rec)) * 2;
			rs->v = wbs_xrealloc(rs->v, cap, sizeof(*rs->v));
		}
		memcpy(rs->v + rs->n, data, len);
		rs->n += len / sizeof(struct wbs_rec);
		free(data);
	}
	closedir(d);
	wbs_recs_sort(rs);
	return 0;
}

void wbs_recs_free(struct wbs_recs *rs)
{
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

void wbs_rec_print(FILE *f, const struct wbs_rec *r)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64 "-%" PRIu64 ".%09" PRIu64
		" proc=%u pid=%u fd=%u file=%u ino=%" PRIu64 " %s%s ret=%d%s%s\n",
		r->t0 / UINT64_C(1000000000), r->t0 % UINT64_C(1000000000),
		r->t1 / UINT64_C(1000000000), r->t1 % UINT64_C(1000000000),
		r->proc, r->pid, r->fdi, r->file, r->ino, wbs_op_name(r->op),
		r->phase == WBS_PHASE_SWEEP ? "(sweep)" : "", r->ret,
		r->ret < 0 ? " errno=" : "",
		r->ret < 0 ? wb_errno_name(r->err) : "");
}
