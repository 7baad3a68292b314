// SPDX-License-Identifier: GPL-2.0
#include "agent.h"
#include "ops.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

struct agent_req {
	int step;		/* -1: exit */
	int child_sock;
};

struct afd {
	char name[NAME_LEN];
	int fd;
	char path[PATH_LEN * 2];
	int oflags;
	void *map;
	size_t maplen;
};

/* do_step's answers to the loop, never sent */
#define AGENT_BECAME_CHILD (-2)	/* this process is a fork's new child now */
#define AGENT_EXITS (-3)	/* the process ends after its answer */

struct agent_state {
	struct agents *a;
	int sock;
	int nfds;
	struct afd fds[64];
};

static sigjmp_buf bus_jmp;
static void on_sigbus(int sig) { (void)sig; siglongjmp(bus_jmp, 1); }

static struct afd *afd_find(struct agent_state *s, const char *name)
{
	for (int i = 0; i < s->nfds; i++)
		if (!strcmp(s->fds[i].name, name) && (s->fds[i].fd >= 0 || s->fds[i].map))
			return &s->fds[i];
	return NULL;
}

static struct afd *afd_new(struct agent_state *s, const char *name)
{
	struct afd *f = NULL;

	for (int i = 0; i < s->nfds; i++)
		if (!strcmp(s->fds[i].name, name))
			f = &s->fds[i];
	if (!f && s->nfds < 64)
		f = &s->fds[s->nfds++];
	if (!f)
		return NULL;
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->fd = -1;
	return f;
}

static void full_path(struct agent_state *s, const char *rel, char *out, size_t len)
{
	if (!strcmp(rel, "@dev"))
		snprintf(out, len, "%s", s->a->dev);
	else
		snprintf(out, len, "%s/%s", s->a->mnt, rel);
}

/* what @n bytes read hold, against a step's content: {new, old} */
static int classify(const unsigned char *b, size_t n, const struct step *st)
{
	unsigned first = n ? b[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (b[i] != first)
			return CONTENT_MIXED;
	if (n == 0)
		return CONTENT_MIXED;	/* a short read at EOF: not the file's data */
	if (first == st->content_new)
		return CONTENT_NEW;
	if (first == st->content_old)
		return CONTENT_OLD;
	return first == 0 ? CONTENT_ZERO : CONTENT_MIXED;
}

static void *pattern_buf(size_t size, unsigned pattern)
{
	void *b;

	if (posix_memalign(&b, 4096, size ? size : 1))
		return NULL;
	memset(b, (int)pattern, size);
	return b;
}

/* a store into the mapping; 1 when it raised SIGBUS */
static __attribute__((noinline)) int store(void *map, const struct step *st)
{
	if (sigsetjmp(bus_jmp, 1))
		return 1;
	memset((char *)map + st->offset, (int)st->pattern, (size_t)st->size);
	return 0;
}

/* a load from the mapping into @buf; 1 when it raised SIGBUS */
static __attribute__((noinline)) int load(const void *map, const struct step *st, void *buf)
{
	if (sigsetjmp(bus_jmp, 1))
		return 1;
	memcpy(buf, (const char *)map + st->offset, (size_t)st->size);
	return 0;
}

#define RET(x) do { long long _r = (x); r->ret = _r; r->err = _r < 0 ? errno : 0; } while (0)

/* what an open or reopen opened: its inode and device, for the runner */
static void opened(int fd, struct agent_resp *r)
{
	struct stat sb;

	if (fstat(fd, &sb))
		return;
	r->ino = sb.st_ino;
	r->maj = S_ISBLK(sb.st_mode) ? major(sb.st_rdev) : major(sb.st_dev);
	r->min = S_ISBLK(sb.st_mode) ? minor(sb.st_rdev) : minor(sb.st_dev);
}

static void fail(struct agent_resp *r, int err)
{
	r->ret = -1;
	r->err = err;
}

/* an op's executor (ops.h): @f is the fd its fd key names, checked by the
 * table's fd column; @child_sock the socket a fork's child answers on */
typedef void agent_exec(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
			struct agent_resp *r);

static void ag_open(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		    struct agent_resp *r)
{
	char path[PATH_LEN * 2];
	int fd;

	(void)child_sock;
	full_path(s, st->path, path, sizeof(path));
	fd = open(path, st->oflags, st->mode);
	RET(fd);
	if (fd < 0)
		return;
	f = afd_new(s, st->fd);
	if (!f) {
		close(fd);
		fail(r, EMFILE);
		return;
	}
	f->fd = fd;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->oflags = st->oflags;
	opened(fd, r);
}

static void ag_close(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		     struct agent_resp *r)
{
	(void)s, (void)st, (void)child_sock;
	RET(close(f->fd));
	f->fd = -1;
}

static void ag_dup(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		   struct agent_resp *r)
{
	int fd = dup(f->fd);
	struct afd *n;

	(void)child_sock;
	RET(fd);
	if (fd < 0)
		return;
	n = afd_new(s, st->fd2);
	f = afd_find(s, st->fd);	/* afd_new may not move entries, but be safe */
	n->fd = fd;
	snprintf(n->path, sizeof(n->path), "%s", f->path);
	n->oflags = f->oflags;
}

static void ag_reopen(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		      struct agent_resp *r)
{
	int fd;

	(void)s, (void)st, (void)child_sock;
	close(f->fd);
	f->fd = -1;
	fd = open(f->path, f->oflags & ~(O_CREAT | O_EXCL | O_TRUNC));
	RET(fd);
	if (fd >= 0) {
		f->fd = fd;
		opened(fd, r);
	}
}

static void ag_fork(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		    struct agent_resp *r)
{
	pid_t pid = fork();

	(void)st, (void)f;
	if (pid < 0) {
		fail(r, errno);
	} else if (!pid) {
		s->sock = s->a->peer[child_sock];
		r->ret = AGENT_BECAME_CHILD;
	} else {
		r->pid = pid;
		r->ret = pid;
	}
}

static void ag_exit(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		    struct agent_resp *r)
{
	(void)s, (void)st, (void)f, (void)child_sock;
	r->ret = AGENT_EXITS;
}

static void ag_write(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		     struct agent_resp *r)
{
	void *buf = pattern_buf((size_t)st->size, st->pattern);

	(void)s, (void)child_sock;
	RET(st->op == OP_WRITE ? write(f->fd, buf, (size_t)st->size)
			       : pwrite(f->fd, buf, (size_t)st->size, st->offset));
	free(buf);
}

#define ag_pwrite ag_write

static void ag_pread(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		     struct agent_resp *r)
{
	void *buf = pattern_buf((size_t)st->size, 0);
	ssize_t n;

	(void)s, (void)child_sock;
	n = pread(f->fd, buf, (size_t)st->size, st->offset);
	RET(n);
	if (n >= 0 && st->has_content)
		r->content = classify(buf, (size_t)n, st);
	free(buf);
}

static void ag_mmap(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		    struct agent_resp *r)
{
	void *m = mmap(NULL, (size_t)st->size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, st->offset);

	(void)s, (void)child_sock;
	if (m == MAP_FAILED) {
		fail(r, errno);
		return;
	}
	f->map = m;
	f->maplen = (size_t)st->size;
}

/* the step's range lies inside the mapping: 0, else the error */
static int in_map(const struct afd *f, const struct step *st)
{
	if (!f->map)
		return EBADF;
	return (size_t)(st->offset + st->size) > f->maplen ? ERANGE : 0;
}

static void ag_store(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		     struct agent_resp *r)
{
	(void)s, (void)child_sock;
	if (in_map(f, st))
		fail(r, in_map(f, st));
	else if (store(f->map, st))
		fail(r, EFAULT);	/* SIGBUS: the page is beyond EOF or unbacked */
}

static void ag_load(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		    struct agent_resp *r)
{
	void *buf;

	(void)s, (void)child_sock;
	if (in_map(f, st)) {
		fail(r, in_map(f, st));
		return;
	}
	buf = pattern_buf((size_t)st->size, 0);
	if (!buf)
		fail(r, ENOMEM);
	else if (load(f->map, st, buf))
		fail(r, EFAULT);	/* SIGBUS, as for a store */
	else if (st->has_content)
		r->content = classify(buf, (size_t)st->size, st);
	free(buf);
}

static void ag_msync(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		     struct agent_resp *r)
{
	(void)s, (void)child_sock;
	if (!f->map)
		fail(r, EBADF);
	else
		RET(msync(f->map, f->maplen, st->flags));
}

static void ag_munmap(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		      struct agent_resp *r)
{
	(void)s, (void)st, (void)child_sock;
	if (!f->map) {
		fail(r, EBADF);
		return;
	}
	RET(munmap(f->map, f->maplen));
	f->map = NULL;
}

static void ag_truncate(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
			struct agent_resp *r)
{
	(void)s, (void)child_sock;
	RET(ftruncate(f->fd, st->size));
}

static void ag_fallocate(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
			 struct agent_resp *r)
{
	(void)s, (void)child_sock;
	RET(fallocate(f->fd, st->flags, st->offset, st->size));
}

static void ag_fsync(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
		     struct agent_resp *r)
{
	(void)s, (void)child_sock;
	RET(st->op == OP_FSYNC ? fsync(f->fd) : st->op == OP_FDATASYNC ? fdatasync(f->fd) : syncfs(f->fd));
}

#define ag_fdatasync ag_fsync
#define ag_syncfs ag_fsync

static void ag_sync_file_range(struct agent_state *s, const struct step *st, struct afd *f, int child_sock,
			       struct agent_resp *r)
{
	(void)s, (void)child_sock;
	RET(sync_file_range(f->fd, st->offset, st->has_size ? st->size : 0, (unsigned int)st->flags));
}

#define AGENT_EXEC(e, name, keys, who, sync, ftab, field, hook, fd, exec) \
	[OP_##e] = OP_EXEC(AGENT, who, exec),
static agent_exec *const agent_execs[OP__N] = { WBERR_OPS(AGENT_EXEC) };

/* the fd the step's fd key names, as the table's fd column wants it; NULL
 * and *err when there is none */
static struct afd *step_fd(struct agent_state *s, const struct step *st, int *err)
{
	enum op_fd want = op_table[st->op].fd;
	struct afd *f;

	*err = 0;
	if (!st->fd[0] || want == FD_NONE || want == FD_NEW)
		return NULL;
	f = afd_find(s, st->fd);
	if (!f || (f->fd < 0 && want == FD_OPEN))
		*err = EBADF;
	return f;
}

static void do_step(struct agent_state *s, const struct step *st, int child_sock,
		    struct agent_resp *r)
{
	struct afd *f;
	int err;

	memset(r, 0, sizeof(*r));
	f = step_fd(s, st, &err);
	if (err) {
		fail(r, err);
		return;
	}
	errno = 0;
	if (agent_execs[st->op])
		agent_execs[st->op](s, st, f, child_sock, r);
	else
		fail(r, ENOSYS);
}

static void agent_loop(struct agents *a, int sock)
{
	struct agent_state s = { .a = a, .sock = sock };
	struct sigaction sa = { .sa_handler = on_sigbus };
	struct sigaction ign = { .sa_handler = SIG_IGN, .sa_flags = SA_NOCLDWAIT };

	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGCHLD, &ign, NULL);
	for (;;) {
		struct agent_req q;
		struct agent_resp r;
		ssize_t n = read(s.sock, &q, sizeof(q));

		if (n != sizeof(q) || q.step < 0) {
			if (n == sizeof(q)) {
				memset(&r, 0, sizeof(r));
				if (write(s.sock, &r, sizeof(r)) < 0)
					_exit(1);
			}
			_exit(0);
		}
		do_step(&s, &a->sc->steps[q.step], q.child_sock, &r);
		if (r.ret == AGENT_BECAME_CHILD)
			continue;	/* the new child answers nothing for the fork itself */
		if (r.ret == AGENT_EXITS)
			r.ret = 0;
		if (write(s.sock, &r, sizeof(r)) != sizeof(r))
			_exit(1);
		if (q.step >= 0 && a->sc->steps[q.step].op == OP_EXIT)
			_exit(0);
	}
}

int agents_start(struct agents *a, const struct scenario *sc, int nprocs,
		 const char *mnt, const char *dev)
{
	int sv[2];

	memset(a, 0, sizeof(*a));
	a->sc = sc;
	snprintf(a->mnt, sizeof(a->mnt), "%s", mnt);
	snprintf(a->dev, sizeof(a->dev), "%s", dev);
	if (nprocs > AGENT_MAX)
		return -1;
	for (int i = 0; i < nprocs; i++) {
		if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
			return -1;
		a->ctl[i] = sv[0];
		a->peer[i] = sv[1];
		fcntl(sv[0], F_SETFD, FD_CLOEXEC);
		fcntl(sv[1], F_SETFD, FD_CLOEXEC);
	}
	a->n = nprocs;
	fflush(NULL);
	a->main_pid = fork();
	if (a->main_pid < 0)
		return -1;
	if (!a->main_pid) {
		for (int i = 0; i < nprocs; i++)
			close(a->ctl[i]);
		agent_loop(a, a->peer[0]);
		_exit(0);
	}
	for (int i = 0; i < nprocs; i++)
		close(a->peer[i]);
	return 0;
}

static int read_timeout(int fd, void *buf, size_t len, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc = poll(&p, 1, timeout_ms);

	if (rc <= 0)
		return -1;
	return read(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

int agent_call(struct agents *a, int sock, int step, int child_sock, struct agent_resp *r,
	       int timeout_ms)
{
	struct agent_req q = { .step = step, .child_sock = child_sock };

	if (sock < 0 || sock >= a->n)
		return -1;
	if (write(a->ctl[sock], &q, sizeof(q)) != sizeof(q))
		return -1;
	return read_timeout(a->ctl[sock], r, sizeof(*r), timeout_ms);
}

void agents_stop(struct agents *a, const int *alive)
{
	struct agent_req q = { .step = -1 };
	struct agent_resp r;
	int st;

	for (int i = a->n - 1; i >= 0; i--) {
		if (alive && !alive[i])
			continue;
		if (write(a->ctl[i], &q, sizeof(q)) == sizeof(q))
			read_timeout(a->ctl[i], &r, sizeof(r), 5000);
	}
	for (int i = 0; i < a->n; i++)
		close(a->ctl[i]);
	if (a->main_pid > 0) {
		kill(a->main_pid, SIGKILL);
		waitpid(a->main_pid, &st, 0);
	}
	a->n = 0;
}
