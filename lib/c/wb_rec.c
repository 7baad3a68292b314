// SPDX-License-Identifier: GPL-2.0
/* An evidence directory's call records; see wb_rec.h. */
#include "wb_rec.h"
#include "wb_names.h"
#include "wb_sys.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[WB_REC_NR] = {
	[WB_REC_OPEN] = "open",
	[WB_REC_FSYNC] = "fsync",
	[WB_REC_FDATASYNC] = "fdatasync",
	[WB_REC_SYNCFS] = "syncfs",
	[WB_REC_WRITE_ERR] = "pwrite",
	[WB_REC_SUMMARY] = "summary",
	[WB_REC_STEP] = "step",
};

const char *wb_rec_op_name(unsigned int op)
{
	return op < WB_REC_NR ? op_names[op] : "?";
}

int wb_rec_op_is_fsync(unsigned int op)
{
	return op == WB_REC_FSYNC || op == WB_REC_FDATASYNC;
}

int wb_rec_open(struct wb_rec_writer *w, const char *dir, unsigned int proc)
{
	char name[64];

	snprintf(name, sizeof(name), "recs.%04u.bin", proc);
	w->f = wb_fopen_in(dir, name, "we");
	w->seq = 0;
	return w->f ? 0 : -1;
}

void wb_rec_put(struct wb_rec_writer *w, struct wb_rec *r)
{
	r->seq = w->seq++;
	fwrite(r, sizeof(*r), 1, w->f);
}

int wb_rec_close(struct wb_rec_writer *w)
{
	int rc = fclose(w->f);

	w->f = NULL;
	return rc;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct wb_rec *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void wb_recs_sort(struct wb_recs *rs)
{
	qsort(rs->v, rs->n, sizeof(*rs->v), cmp_rec);
}

int wb_recs_load(struct wb_recs *rs, const char *dir)
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
		len -= len % sizeof(struct wb_rec);
		if (rs->n + len / sizeof(struct wb_rec) > cap) {
			struct wb_rec *v;

			cap = (rs->n + len / sizeof(struct wb_rec)) * 2;
			v = realloc(rs->v, cap * sizeof(*v));
			if (!v) {
				free(data);
				closedir(d);
				return -1;
			}
			rs->v = v;
		}
		memcpy(rs->v + rs->n, data, len);
		rs->n += len / sizeof(struct wb_rec);
		free(data);
	}
	closedir(d);
	wb_recs_sort(rs);
	return 0;
}

void wb_recs_free(struct wb_recs *rs)
{
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

void wb_rec_print(FILE *f, const struct wb_rec *r)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64 "-%" PRIu64 ".%09" PRIu64
		" proc=%u pid=%u fd=%u file=%u ino=%" PRIu64 " %s%s ret=%d%s%s\n",
		r->t0 / UINT64_C(1000000000), r->t0 % UINT64_C(1000000000),
		r->t1 / UINT64_C(1000000000), r->t1 % UINT64_C(1000000000),
		r->proc, r->pid, r->fdi, r->file, r->ino, wb_rec_op_name(r->op),
		r->phase == WB_REC_PHASE_SWEEP ? "(sweep)" : "", r->ret,
		r->ret < 0 ? " errno=" : "",
		r->ret < 0 ? wb_errno_name(r->err) : "");
}
