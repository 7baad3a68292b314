// SPDX-License-Identifier: GPL-2.0
#include "oracle.h"
#include "wb_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

void oracle_init(struct oracle *o, int fs)
{
	memset(o, 0, sizeof(*o));
	o->fs = fs;
	oracle_proc(o, "main");
}

int oracle_proc(struct oracle *o, const char *name)
{
	for (int i = 0; i < o->nprocs; i++)
		if (!strcmp(o->proc[i], name))
			return i;
	if (o->nprocs == OR_MAX_PROCS)
		return -1;
	snprintf(o->proc[o->nprocs], NAME_LEN, "%s", name);
	o->proc_alive[o->nprocs] = 1;
	return o->nprocs++;
}

static int find_proc(const struct oracle *o, const char *name)
{
	for (int i = 0; i < o->nprocs; i++)
		if (!strcmp(o->proc[i], name))
			return i;
	return -1;
}

int oracle_find_fd(const struct oracle *o, const char *proc, const char *name)
{
	int p = find_proc(o, proc);

	for (int i = 0; p >= 0 && i < o->nfds; i++)
		if (o->fd[i].proc == p && !strcmp(o->fd[i].name, name) &&
		    (o->fd[i].ofd >= 0 || o->fd[i].mapped))
			return i;
	return -1;
}

int oracle_inode(struct oracle *o, const char *path, int create)
{
	for (int i = 0; i < o->ninodes; i++)
		if (o->inode[i].linked && !strcmp(o->inode[i].path, path))
			return i;
	if (!create || o->ninodes == OR_MAX_INODES)
		return -1;
	snprintf(o->inode[o->ninodes].path, PATH_LEN, "%s", path);
	o->inode[o->ninodes].linked = 1;
	o->inode[o->ninodes].wb_err = 0;
	return o->ninodes++;
}

static int new_fd(struct oracle *o, int proc, const char *name, int ofd)
{
	int i;

	for (i = 0; i < o->nfds; i++)
		if (o->fd[i].proc == proc && !strcmp(o->fd[i].name, name))
			break;
	if (i == o->nfds) {
		if (o->nfds == OR_MAX_FDS)
			return -1;
		o->nfds++;
	}
	o->fd[i].proc = proc;
	snprintf(o->fd[i].name, NAME_LEN, "%s", name);
	o->fd[i].ofd = ofd;
	o->fd[i].mapped = 0;
	o->fd[i].map_ofd = -1;
	return i;
}

int oracle_open(struct oracle *o, const char *proc, const char *fd, const char *path, int oflags)
{
	int p = find_proc(o, proc), ino, f;
	struct or_ofd *of;

	if (p < 0 || o->nofds == OR_MAX_OFDS)
		return -1;
	ino = oracle_inode(o, path, 1);
	if (ino < 0)
		return -1;
	f = o->nofds++;
	of = &o->ofd[f];
	of->inode = ino;
	of->refs = 1;
	of->oflags = oflags;
	/* do_dentry_open(): f_wb_err = filemap_sample_wb_err(), f_sb_err = file_sample_sb_err() */
	of->f_wb_err = wb_errseq_sample(&o->inode[ino].wb_err);
	of->sb = (o->fs == FS_RAW && !strcmp(path, "@dev")) ? SB_DEVTMPFS : SB_FS;
	of->f_sb_err = wb_errseq_sample(&o->sb_err[of->sb]);
	return new_fd(o, p, fd, f) < 0 ? -1 : 0;
}

static void put_ofd(struct oracle *o, int f)
{
	if (f >= 0 && o->ofd[f].refs > 0)
		o->ofd[f].refs--;
}

int oracle_close(struct oracle *o, const char *proc, const char *fd)
{
	int i = oracle_find_fd(o, proc, fd);

	if (i < 0 || o->fd[i].ofd < 0)
		return -1;
	put_ofd(o, o->fd[i].ofd);
	o->fd[i].ofd = -1;
	return 0;
}

int oracle_dup(struct oracle *o, const char *proc, const char *fd, const char *newfd)
{
	int i = oracle_find_fd(o, proc, fd), p = find_proc(o, proc);

	if (i < 0 || o->fd[i].ofd < 0)
		return -1;
	o->ofd[o->fd[i].ofd].refs++;
	return new_fd(o, p, newfd, o->fd[i].ofd) < 0 ? -1 : 0;
}

int oracle_fork(struct oracle *o, const char *parent, const char *child)
{
	int p = find_proc(o, parent), c, n;

	if (p < 0 || find_proc(o, child) >= 0)
		return -1;
	c = oracle_proc(o, child);
	if (c < 0)
		return -1;
	n = o->nfds;
	for (int i = 0; i < n; i++) {
		struct or_fd *f = &o->fd[i];
		int j;

		if (f->proc != p || (f->ofd < 0 && !f->mapped))
			continue;
		j = new_fd(o, c, f->name, f->ofd);
		if (j < 0)
			return -1;
		if (f->ofd >= 0)
			o->ofd[f->ofd].refs++;
		/* mappings are inherited too (MAP_SHARED) */
		if (f->mapped) {
			o->fd[j].mapped = 1;
			o->fd[j].map_ofd = f->map_ofd;
			o->ofd[f->map_ofd].refs++;
		}
	}
	return 0;
}

int oracle_exit(struct oracle *o, const char *proc)
{
	int p = find_proc(o, proc);

	if (p < 0)
		return -1;
	for (int i = 0; i < o->nfds; i++) {
		if (o->fd[i].proc != p)
			continue;
		put_ofd(o, o->fd[i].ofd);
		o->fd[i].ofd = -1;
		if (o->fd[i].mapped)
			put_ofd(o, o->fd[i].map_ofd);
		o->fd[i].mapped = 0;
	}
	o->proc_alive[p] = 0;
	return 0;
}

int oracle_mmap(struct oracle *o, const char *proc, const char *fd)
{
	int i = oracle_find_fd(o, proc, fd);

	if (i < 0 || o->fd[i].ofd < 0)
		return -1;
	o->fd[i].mapped = 1;
	o->fd[i].map_ofd = o->fd[i].ofd;	/* the vma holds vm_file */
	o->ofd[o->fd[i].ofd].refs++;
	return 0;
}

int oracle_munmap(struct oracle *o, const char *proc, const char *fd)
{
	int i = oracle_find_fd(o, proc, fd);

	if (i < 0 || !o->fd[i].mapped)
		return -1;
	put_ofd(o, o->fd[i].map_ofd);
	o->fd[i].mapped = 0;
	return 0;
}

void oracle_unlink(struct oracle *o, const char *path)
{
	int i = oracle_inode(o, path, 0);

	if (i >= 0)
		o->inode[i].linked = 0;
}

void oracle_record(struct oracle *o, int inode, int err)
{
	if (inode < 0 || inode >= o->ninodes || err <= 0)
		return;
	/* mapping_set_error(): the mapping, then host->i_sb->s_wb_err */
	wb_errseq_set(&o->inode[inode].wb_err, -err);
	wb_errseq_set(&o->sb_err[SB_FS], -err);
	o->inode[inode].as_flags |= err == ENOSPC ? OR_AS_ENOSPC : OR_AS_EIO;
}

void oracle_umount(struct oracle *o)
{
	/* a new super block and new inodes: nothing carries over */
	for (int i = 0; i < o->ninodes; i++)
		if (!(o->fs == FS_RAW && !strcmp(o->inode[i].path, "@dev"))) {
			o->inode[i].wb_err = 0;
			o->inode[i].as_flags = 0;
		}
	if (o->fs != FS_RAW)
		o->sb_err[SB_FS] = 0;
}

static int inode_held(const struct oracle *o, int ino)
{
	for (int f = 0; f < o->nofds; f++)
		if (o->ofd[f].inode == ino && o->ofd[f].refs > 0)
			return 1;
	return 0;
}

void oracle_drop_caches(struct oracle *o, unsigned value)
{
	if (!(value & 2) || o->fs == FS_RAW)
		return;
	/* prune_icache_sb(): an unreferenced clean inode is evicted and its
	 * mapping (with wb_err) freed; a later open gets a fresh one */
	for (int i = 0; i < o->ninodes; i++)
		if (!inode_held(o, i)) {
			o->inode[i].wb_err = 0;
			o->inode[i].as_flags = 0;
		}
}

/* ------------------------------------------------ the op table's hooks */

void or_hook_open(struct oracle *o, const struct step *st, const char **opened)
{
	oracle_open(o, st->proc, st->fd, st->path, st->oflags);
	*opened = st->path;
}

/* close, then open the same path with the same flags (agent.c drops
 * O_CREAT/O_EXCL/O_TRUNC for the call; the model keeps the flags) */
void or_hook_reopen(struct oracle *o, const struct step *st, const char **opened)
{
	int i = oracle_find_fd(o, st->proc, st->fd), ofd, fl, ino;
	char path[PATH_LEN];

	if (i < 0)
		return;
	ofd = o->fd[i].ofd;
	fl = o->ofd[ofd].oflags;
	snprintf(path, sizeof(path), "%s", o->inode[o->ofd[ofd].inode].path);
	oracle_close(o, st->proc, st->fd);
	oracle_open(o, st->proc, st->fd, path, fl);
	ino = oracle_inode(o, path, 0);
	*opened = ino >= 0 ? o->inode[ino].path : NULL;
}

void or_hook_close(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_close(o, st->proc, st->fd);
}

void or_hook_dup(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_dup(o, st->proc, st->fd, st->fd2);
}

void or_hook_fork(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_fork(o, st->proc, st->fd2);
}

void or_hook_exit(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_exit(o, st->proc);
}

void or_hook_mmap(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_mmap(o, st->proc, st->fd);
}

void or_hook_munmap(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_munmap(o, st->proc, st->fd);
}

void or_hook_unlink(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_unlink(o, st->path);
}

void or_hook_umount(struct oracle *o, const struct step *st, const char **opened)
{
	(void)st;
	(void)opened;
	oracle_umount(o);
}

void or_hook_drop_caches(struct oracle *o, const struct step *st, const char **opened)
{
	(void)opened;
	oracle_drop_caches(o, st->value);
}

const char *oracle_apply(struct oracle *o, const struct step *st)
{
	const char *opened = NULL;

	if (op_table[st->op].model)
		op_table[st->op].model(o, st, &opened);
	return opened;
}

int oracle_fd_oflags(const struct oracle *o, const char *proc, const char *fd)
{
	int i = oracle_find_fd(o, proc, fd);

	return i >= 0 && o->fd[i].ofd >= 0 ? o->ofd[o->fd[i].ofd].oflags : -1;
}

int oracle_is_sync(const struct oracle *o, const struct step *st)
{
	int fl;

	switch (op_table[st->op].sync) {
	case SYNC_YES:
		return 1;
	case SYNC_OSYNC:
		fl = oracle_fd_oflags(o, st->proc, st->fd);
		return fl >= 0 && (fl & (O_SYNC | O_DSYNC));
	default:
		return 0;
	}
}

int oracle_is_dio_write(const struct oracle *o, const struct step *st)
{
	int fl;

	if (st->op != OP_WRITE && st->op != OP_PWRITE)
		return 0;
	fl = oracle_fd_oflags(o, st->proc, st->fd);
	return fl >= 0 && (fl & O_DIRECT);
}

int oracle_ninodes(const struct oracle *o) { return o->ninodes; }
const char *oracle_inode_path(const struct oracle *o, int i) { return o->inode[i].path; }
int oracle_inode_linked(const struct oracle *o, int i) { return o->inode[i].linked; }

int oracle_sync(struct oracle *o, int op, const char *proc, const char *fd, int flags,
		struct or_pred *p)
{
	int i = oracle_find_fd(o, proc, fd), f;
	wb_errseq_t *map, *cur;

	memset(p, 0, sizeof(*p));
	p->inode = p->ofd = -1;
	if (i < 0)
		return -1;
	f = (op == OP_MSYNC) ? (o->fd[i].mapped ? o->fd[i].map_ofd : -1) : o->fd[i].ofd;
	if (f < 0)
		return -1;
	p->ofd = f;
	p->inode = o->ofd[f].inode;
	switch (op) {
	case OP_MSYNC:
		/* MS_ASYNC is a no-op since 2.6.19; MS_SYNC is vfs_fsync_range(vm_file) */
		if (!(flags & MS_SYNC))
			return 0;
		break;
	case OP_SYNC_FILE_RANGE:
		/* only file_fdatawait_range() checks, WAIT_BEFORE first */
		if (!(flags & (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WAIT_AFTER)))
			return 0;
		break;
	case OP_WRITE:
	case OP_PWRITE:
		/* generic_write_sync() -> vfs_fsync_range() for O_SYNC/O_DSYNC */
		if (!(o->ofd[f].oflags & (O_SYNC | O_DSYNC)))
			return 0;
		break;
	case OP_FSYNC:
	case OP_FDATASYNC:
	case OP_SYNCFS:
		break;
	default:
		return 0;
	}
	p->valid = 1;
	if (op == OP_SYNCFS) {
		p->sb = 1;
		map = &o->sb_err[o->ofd[f].sb];
		cur = &o->ofd[f].f_sb_err;
	} else {
		map = &o->inode[p->inode].wb_err;
		cur = &o->ofd[f].f_wb_err;
	}
	p->map_before = *map;
	p->cur_before = *cur;
	p->consumed = *map != *cur;
	/*
	 * btrfs_sync_file() waits with btrfs_wait_ordered_range(), whose
	 * filemap_fdatawait_range() returns filemap_check_errors(): -EIO if
	 * AS_EIO is set (checked last), else -ENOSPC; that is what fsync
	 * returns, while file_check_and_advance_wb_err() still advances the
	 * cursor in the same call.
	 */
	if (wb_fs[o->fs].fsync_as_flags && (op == OP_FSYNC || op == OP_FDATASYNC || op == OP_MSYNC ||
				  op == OP_WRITE || op == OP_PWRITE)) {
		int fl = o->inode[p->inode].as_flags;

		p->flag_err = fl & OR_AS_EIO ? EIO : fl & OR_AS_ENOSPC ? ENOSPC : 0;
	}
	p->err = -wb_errseq_check_and_advance(map, cur);
	p->cur_after = *cur;
	/* file_check_and_advance_wb_err() always clears AS_EIO and AS_ENOSPC */
	if (!p->sb)
		o->inode[p->inode].as_flags = 0;
	return 0;
}

void oracle_judge(const struct or_pred *pred, int actual, const struct step *st, int fs,
		  int matrix_errno, int nondata_faults, struct verdict *v)
{
	int model = pred && pred->valid ? (pred->flag_err ? pred->flag_err : pred->err) : 0;
	int want = st->expect.set ? st->expect.err[fs] : EXPECT_UNSET;

	memset(v, 0, sizeof(*v));
	if (want == -2)
		want = matrix_errno;
	if (want != EXPECT_UNSET) {
		v->explicit_ = 1;
		v->expected = want;
		v->pass = actual == want;
		if (!v->pass)
			snprintf(v->msg, sizeof(v->msg), "returned %s, scenario expects %s%s%s",
				 wb_errno_name(actual), wb_errno_name(want),
				 pred && pred->valid ? " (errseq model: " : "",
				 pred && pred->valid ? wb_errno_name(model) : "");
		if (v->pass && pred && pred->valid && want != model && !st->why[0]) {
			v->pass = 0;
			snprintf(v->msg, sizeof(v->msg),
				 "expects %s where the errseq model says %s: give the kernel's reason in 'why'",
				 wb_errno_name(want), wb_errno_name(model));
		}
		if (v->pass && pred && pred->valid && want != model)
			snprintf(v->msg, sizeof(v->msg), "model %s, kernel %s: %.400s", wb_errno_name(model),
				 wb_errno_name(want), st->why);
		return;
	}
	v->expected = model;
	if (!pred || !pred->valid) {
		v->pass = actual == 0;
		if (!v->pass)
			snprintf(v->msg, sizeof(v->msg), "returned %s; a call without 'expect' must succeed",
				 wb_errno_name(actual));
		return;
	}
	if (actual == model) {
		v->pass = 1;
		if (model)
			snprintf(v->msg, sizeof(v->msg), "errseq %#x -> cursor %#x: reported %s once",
				 pred->map_before, pred->cur_after, wb_errno_name(model));
		return;
	}
	if (!model && nondata_faults) {
		snprintf(v->msg, sizeof(v->msg),
			 "returned %s from a flush/metadata fault during the call; errseq says 0: "
			 "assert this filesystem-specific result with 'expect' and 'why'",
			 wb_errno_name(actual));
		return;
	}
	if (model)
		snprintf(v->msg, sizeof(v->msg),
			 "returned %s, errseq model says %s (mapping %#x, cursor %#x): error %s",
			 wb_errno_name(actual), wb_errno_name(model), pred->map_before, pred->cur_before,
			 actual ? "replaced by another" : "lost");
	else
		snprintf(v->msg, sizeof(v->msg),
			 "returned %s, errseq model says 0 (mapping %#x, cursor %#x): %s",
			 wb_errno_name(actual), pred->map_before, pred->cur_before,
			 "reported twice or from elsewhere");
}
