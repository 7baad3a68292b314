// SPDX-License-Identifier: GPL-2.0
#include "worker.h"
#include "wb_rec.h"
#include "rng.h"
#include "util.h"
#include "wb_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_WRITE 16384

struct wstate {
	const struct wbs_worker_cfg *cfg;
	struct wb_rec_writer w;
	struct wbs_rng rng;
	int fd[WBS_MAX_FDS];
	int marker;
	uint64_t ino[WBS_MAX_FDS];
	uint64_t writes, write_errors, syncs, marker_errors;
};

static void record(struct wstate *s, unsigned int fdi, unsigned int op,
		   uint64_t t0, uint64_t t1, int ret, int err, unsigned int phase)
{
	struct wb_rec r = {
		.t0 = t0, .t1 = t1, .ino = s->ino[fdi], .pid = (uint32_t)getpid(),
		.ret = ret, .err = ret < 0 ? err : 0,
		.proc = (uint16_t)s->cfg->proc,
		.file = (uint16_t)s->cfg->file[fdi], .fdi = (uint8_t)fdi,
		.op = (uint8_t)op, .phase = (uint8_t)phase,
	};

	wb_rec_put(&s->w, &r);
}

static void mark(struct wstate *s, char what, unsigned int fdi)
{
	const struct wb_call_mark m = {
		.what = what, .proc = s->cfg->proc, .fd = fdi, .seq = s->w.seq,
	};
	char text[64];
	int n;

	if (s->marker < 0)
		return;
	n = wb_call_mark_format(text, sizeof(text), &m);
	if (n < 0 || write(s->marker, text, (size_t)n) != n)
		s->marker_errors++;
}

static void do_sync(struct wstate *s, unsigned int fdi, unsigned int op,
		    unsigned int phase)
{
	uint64_t t0, t1;
	int ret, err;

	mark(s, 'B', fdi);
	t0 = wbs_now_ns();
	if (op == WB_REC_FSYNC)
		ret = fsync(s->fd[fdi]);
	else if (op == WB_REC_FDATASYNC)
		ret = fdatasync(s->fd[fdi]);
	else
		ret = syncfs(s->fd[fdi]);
	err = errno;
	t1 = wbs_now_ns();
	mark(s, 'E', fdi);
	record(s, fdi, op, t0, t1, ret, err, phase);
	s->syncs++;
}

static void do_write(struct wstate *s, unsigned int fdi, char *buf)
{
	size_t fsz = s->cfg->file_size;
	size_t len = (size_t)wbs_rng_range(&s->rng, 1, MAX_WRITE / 512) * 512;
	off_t off;
	uint64_t t0;
	ssize_t n;

	if (len > fsz)
		len = fsz;
	/* never past EOF: overwrites only, so no allocation, no metadata
	 * in the faulted sectors */
	off = (off_t)(wbs_rng_below(&s->rng, (fsz - len) / 512 + 1) * 512);
	memset(buf, (int)(wbs_rng_next(&s->rng) & 0xff), len);
	t0 = wbs_now_ns();
	n = pwrite(s->fd[fdi], buf, len, off);
	s->writes++;
	if (n != (ssize_t)len) {
		s->write_errors++;
		record(s, fdi, WB_REC_WRITE_ERR, t0, wbs_now_ns(), -1,
		       n < 0 ? errno : EIO, WB_REC_PHASE_LOOP);
	}
}

static int wait_eof(int fd)
{
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) != 0)
		if (n < 0 && errno != EINTR)
			return -1;
	return 0;
}

static void signal_byte(int fd)
{
	char c = 1;

	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/* the records, the marker, and every fd open (each open recorded): 0 or 2 */
static int worker_open(struct wstate *s)
{
	const struct wbs_worker_cfg *cfg = s->cfg;
	uint64_t t0;

	if (wb_rec_open(&s->w, cfg->outdir, cfg->proc)) {
		wbs_warn(1, "worker %u: records", cfg->proc);
		return 2;
	}
	wbs_rng_seed(&s->rng, cfg->seed, 1000 + cfg->proc);
	if (cfg->marker) {
		s->marker = open(cfg->marker, O_WRONLY | O_CLOEXEC);
		if (s->marker < 0) {
			wbs_warn(1, "worker %u: %s", cfg->proc, cfg->marker);
			return 2;
		}
	}
	/* below the fault programmer, so its rules and log drains keep pace */
	if (nice(5) < 0)
		wbs_warn(1, "worker %u: nice", cfg->proc);
	for (unsigned int i = 0; i < cfg->nfds; i++) {
		struct stat st;

		t0 = wbs_now_ns();
		s->fd[i] = open(cfg->path[i], O_RDWR | O_CLOEXEC);
		if (s->fd[i] < 0 || fstat(s->fd[i], &st)) {
			wbs_warn(1, "worker %u: open %s", cfg->proc, cfg->path[i]);
			return 2;
		}
		s->ino[i] = st.st_ino;
		record(s, i, WB_REC_OPEN, t0, wbs_now_ns(), s->fd[i], 0, WB_REC_PHASE_LOOP);
	}
	return 0;
}

/* until the deadline, seeded: a write, or an fsync, fdatasync or syncfs */
static void worker_loop(struct wstate *s, uint64_t deadline, char *buf)
{
	while (wbs_now_ns() < deadline) {
		unsigned int fdi = (unsigned int)wbs_rng_below(&s->rng, s->cfg->nfds);
		unsigned int r = (unsigned int)wbs_rng_below(&s->rng, 100);

		if (r < 55)
			do_write(s, fdi, buf);
		else if (r < 75)
			do_sync(s, fdi, WB_REC_FSYNC, WB_REC_PHASE_LOOP);
		else if (r < 94)
			do_sync(s, fdi, WB_REC_FDATASYNC, WB_REC_PHASE_LOOP);
		else
			do_sync(s, fdi, WB_REC_SYNCFS, WB_REC_PHASE_LOOP);
	}
}

/* the worker's summary record: writes, syncs, errors, loop seconds */
static void worker_summary(struct wstate *s, uint64_t loop_start, uint64_t deadline)
{
	uint64_t ms = (wbs_now_ns() - loop_start) / 1000000;
	struct wb_rec sum = {
		.t0 = loop_start, .t1 = deadline, .ino = s->writes,
		.pid = (uint32_t)getpid(), .ret = (int32_t)s->syncs,
		.err = (int32_t)(s->write_errors + s->marker_errors),
		.proc = (uint16_t)s->cfg->proc,
		.file = (uint16_t)(ms / 1000 > 65535 ? 65535 : ms / 1000),
		.op = WB_REC_SUMMARY,
	};

	wb_rec_put(&s->w, &sum);
}

int wbs_worker_main(const struct wbs_worker_cfg *cfg)
{
	struct wstate s = { .cfg = cfg, .marker = -1 };
	uint64_t deadline, loop_start;
	unsigned int i;
	char *buf;

	if (worker_open(&s))
		return 2;
	buf = wbs_xcalloc(MAX_WRITE, 1);
	signal_byte(cfg->ready_fd);
	if (wait_eof(cfg->go_fd))
		return 2;
	loop_start = wbs_now_ns();
	deadline = loop_start + cfg->duration_ns;
	worker_loop(&s, deadline, buf);
	signal_byte(cfg->done_fd);
	/* Final sweep, faults cleared: every error still pending on a
	 * mapping (or the fs) must come out here. */
	if (wait_eof(cfg->sweep_fd))
		return 2;
	for (i = 0; i < cfg->nfds; i++) {
		do_sync(&s, i, WB_REC_FSYNC, WB_REC_PHASE_SWEEP);
		do_sync(&s, i, WB_REC_SYNCFS, WB_REC_PHASE_SWEEP);
	}
	worker_summary(&s, loop_start, deadline);
	for (i = 0; i < cfg->nfds; i++)
		close(s.fd[i]);
	if (s.marker >= 0)
		close(s.marker);
	free(buf);
	return wb_rec_close(&s.w) ? 2 : 0;
}
