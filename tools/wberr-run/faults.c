// SPDX-License-Identifier: GPL-2.0
/* Fault programming and the fault log of one instance; see faults.h. */
#include "faults.h"
#include "crosscheck.h"
#include "sys.h"
#include "wb_dm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a "log" answer fits dm-ioctl's buffer, which libdevmapper sizes in KiB */
#define RESP_LEN (1 << 20)
/* the log is paged until a page brings nothing new, at most this often */
#define LOG_PAGES 1000

int faults_init(struct faults *fl, const char *dmname)
{
	memset(fl, 0, sizeof(*fl));
	fl->dmname = dmname;
	wb_dm_verbose = sys_verbose;
	return wb_wberr_open(&fl->w, dmname, RESP_LEN) ? -1 : 0;
}

void faults_free(struct faults *fl)
{
	free(fl->log);
	fl->log = NULL;
	wb_wberr_close(&fl->w);
}

/* wb_wberr_log's callback: keeps every entry, skips what does not parse */
static int keep_entry(void *arg, const char *line, const struct wb_fault *f)
{
	struct faults *fl = arg;

	(void)line;
	if (!f)
		return 0;
	if (fl->nlog == fl->caplog) {
		int cap = fl->caplog ? fl->caplog * 2 : 256;
		struct wb_fault *v = realloc(fl->log, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		fl->log = v;
		fl->caplog = cap;
	}
	fl->log[fl->nlog++] = *f;
	return 0;
}

int faults_fetch_log(struct faults *fl)
{
	if (fl->bk)
		return 0;
	return wb_wberr_log(&fl->w, &fl->next_seq, LOG_PAGES, keep_entry, fl) ? -1 : 0;
}

static int keep_fault(void *arg, const struct wb_fault *f)
{
	return keep_entry(arg, NULL, f);
}

int faults_from_trace(struct faults *fl, const struct wb_trace *t, char *msg, size_t len)
{
	return fl->bk ? backend_faults(fl->bk, t, keep_fault, fl, msg, len) : 0;
}

/* the extents of @file, in sectors of the wberr device; the number or
 * -errno; none is a refusal unless the fault also aims at the file's
 * growth (@grow) */
static int file_extents(const struct stack *s, const char *file, int grow, struct ext *e, char *msg, size_t len)
{
	int n;

	if (!wb_fs[s->fs].file_faults) {
		add_msg(msg, len, "file-targeted faults need a filesystem");
		return -EINVAL;
	}
	n = stack_fiemap(s, file, e, MAX_EXT);
	if (n < 0) {
		add_msg(msg, len, "FIEMAP %s: %s", file, strerror(-n));
		return n;
	}
	if (n == 0 && !grow) {
		add_msg(msg, len, "%s has no allocated extents yet (delayed allocation): "
			"fsync or fallocate it before targeting it", file);
		return -ENODATA;
	}
	return n;
}

/*
 * grow: the free space @f's file will grow into, after its @n extents in
 * @e, as GETFSMAP maps it now.  The allocator takes a growing file's new
 * blocks from it (and any other file's: the failed bio's inode says whose
 * it was).  The new number of extents, or -errno.
 */
static int free_extents(const struct stack *s, const struct fault_spec *f, struct ext *e, int n,
			char *msg, size_t len)
{
	int m = stack_free_space(s, e + n, MAX_EXT - n);

	if (m == -E2BIG)
		add_msg(msg, len, "grow: the file system has more free extents than the %d rules a fault may "
			"have beside %s's %d extents", MAX_EXT - n, f->file, n);
	else if (m < 0)
		add_msg(msg, len, "grow: GETFSMAP on the mount: %s%s", strerror(-m),
			m == -ENOTTY ? " (the file system cannot map its free space: ext4 and xfs can)" : "");
	else if (m == 0)
		add_msg(msg, len, "grow: the file system has no free space to aim at");
	return m <= 0 ? (m ? m : -ENOSPC) : n + m;
}

int faults_program(struct faults *fl, const struct stack *s, const struct fault_spec *f,
		   const char *matrix_status, char *msg, size_t len)
{
	struct wb_rule r = f->rule;
	struct rule *ru;
	struct ext e[MAX_EXT];
	int n = 1, rc;
	unsigned int id;

	if (fl->bk)
		return backend_program(fl->bk, f, matrix_status, msg, len);
	if (fl->nrules == MAX_RULES)
		return -ENOSPC;
	ru = &fl->rules[fl->nrules];
	memset(ru, 0, sizeof(*ru));
	snprintf(ru->id, sizeof(ru->id), "%s", f->id);
	if (!strcmp(r.status, "$status"))
		snprintf(r.status, sizeof(r.status), "%s", matrix_status);
	if (f->file[0] && (n = file_extents(s, f->file, f->grow, e, msg, len)) < 0)
		return n;
	if (f->file[0] && f->grow && (n = free_extents(s, f, e, n, msg, len)) < 0)
		return n;
	for (int k = 0; k < n; k++) {
		if (f->file[0]) {
			r.has_sectors = 1;
			r.first = e[k].first;
			r.last = e[k].last;
		}
		rc = wb_wberr_add(&fl->w, &r, &id);
		if (rc == -EPROTO) {
			add_msg(msg, len, "'%s': no rule id in \"%.100s\"", fl->w.sent, fl->w.resp);
			return -EINVAL;
		}
		if (rc) {
			add_msg(msg, len, "'%s' refused: %.300s", fl->w.sent, fl->w.resp);
			return -EINVAL;
		}
		ru->kid[ru->nk++] = id;
		add_msg(msg, len, "rule %u: %s", id, fl->w.sent);
	}
	fl->nrules++;
	return 0;
}

int faults_remove(struct faults *fl, const char *id, char *msg, size_t len)
{
	if (fl->bk)
		return backend_remove(fl->bk, id, msg, len);
	for (int i = 0; i < fl->nrules; i++) {
		if (strcmp(fl->rules[i].id, id))
			continue;
		for (int k = 0; k < fl->rules[i].nk; k++)
			if (wb_wberr_remove(&fl->w, fl->rules[i].kid[k])) {
				add_msg(msg, len, "'%s' refused: %.200s", fl->w.sent, fl->w.resp);
				return -EINVAL;
			}
		fl->rules[i].id[0] = 0;
		fl->rules[i].nk = 0;
		return 0;
	}
	add_msg(msg, len, "no fault with id '%s'", id);
	return -ENOENT;
}

int faults_clear(struct faults *fl)
{
	int rc = fl->bk ? backend_clear(fl->bk) : wb_wberr_clear(&fl->w) ? -1 : 0;

	fl->nrules = 0;
	return rc;
}
