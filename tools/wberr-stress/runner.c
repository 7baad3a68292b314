// SPDX-License-Identifier: GPL-2.0
#include "runner.h"
#include "extents.h"
#include "wb_meta.h"
#include "faults.h"
#include "tracefs.h"
#include "util.h"
#include "wb_sys.h"
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

void wbs_run_defaults(struct wbs_run_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->tracefs = "/sys/kernel/tracing";
	cfg->seed = 1;
	cfg->procs = 16;
	cfg->fds = 4;
	cfg->shared = 4;
	cfg->file_kib = 256;
	cfg->duration_s = 30;
	cfg->prob_ppm = 50000;
	cfg->period_ms = 250;
	cfg->max_delay_ms = 50;
	cfg->buffer_kb = 16384;
}

static unsigned int nfiles(const struct wbs_run_cfg *cfg)
{
	return cfg->procs + cfg->shared;
}

static void file_path(const struct wbs_run_cfg *cfg, unsigned int i, char *p,
		      size_t len)
{
	snprintf(p, len, "%s/wbs/f%03u", cfg->dir, i);
}

/* fd j of worker p: the first half on its private file (two fds of one
 * process on one file), the rest on shared files. */
static unsigned int fd_file(const struct wbs_run_cfg *cfg, unsigned int p,
			    unsigned int j)
{
	if (j < (cfg->fds + 1) / 2 || !cfg->shared)
		return p;
	return cfg->procs + (p + j) % cfg->shared;
}

/* Creates, preallocates and fully writes every test file, so that the
 * stress only overwrites already-written blocks. */
static int make_files(const struct wbs_run_cfg *cfg, struct wb_files *fs)
{
	size_t size = (size_t)cfg->file_kib * 1024;
	char path[4096], *buf = wbs_xcalloc(size, 1);
	unsigned int i;
	int fd, rc = -1;

	snprintf(path, sizeof(path), "%s/wbs", cfg->dir);
	if (mkdir(path, 0755) && errno != EEXIST) {
		wbs_warn(1, "mkdir %s", path);
		goto out;
	}
	for (i = 0; i < nfiles(cfg); i++) {
		file_path(cfg, i, path, sizeof(path));
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			wbs_warn(1, "create %s", path);
			goto out;
		}
		memset(buf, 'a' + (int)(i % 26), size);
		if (fallocate(fd, 0, 0, (off_t)size) ||
		    pwrite(fd, buf, size, 0) != (ssize_t)size || fsync(fd)) {
			wbs_warn(1, "fill %s", path);
			close(fd);
			goto out;
		}
		close(fd);
	}
	sync();
	for (i = 0; i < nfiles(cfg); i++) {
		file_path(cfg, i, path, sizeof(path));
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || wbs_files_add(fs, i, fd, path)) {
			if (fd >= 0)
				close(fd);
			goto out;
		}
		close(fd);
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

static pid_t spawn_fio(const struct wbs_run_cfg *cfg, const char *job,
		       unsigned int n)
{
	char out[4096], dir[4096], rt[32];
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/fio", cfg->dir);
	mkdir(dir, 0755);
	snprintf(out, sizeof(out), "--output=%s/fio.%u.json", cfg->out, n);
	snprintf(rt, sizeof(rt), "%u", (unsigned int)(cfg->duration_s + 0.5));
	pid = fork();
	if (pid)
		return pid;
	if (nice(5) < 0)
		wbs_warn(1, "fio: nice");
	setenv("WBERR_FIO_DIR", dir, 1);
	setenv("WBERR_FIO_RUNTIME", rt, 1);
	execlp("fio", "fio", "--output-format=json", out, job, (char *)NULL);
	_exit(127);
}

/* The smallest step CLOCK_MONOTONIC takes here: a TSC clocksource gives
 * tens of ns, refined-jiffies (no TSC calibration, no HPET) 1/HZ. */
static uint64_t clock_step_ns(void)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		uint64_t a = wbs_now_ns(), b;

		while ((b = wbs_now_ns()) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	return best;
}

static int read_bytes(int fd, unsigned int n)
{
	char c;

	while (n) {
		ssize_t r = read(fd, &c, 1);

		if (r == 0)
			return -1;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		n--;
	}
	return 0;
}

static int write_meta(const struct wbs_run_cfg *cfg, dev_t dev,
		      uint64_t go, uint64_t stop, int sweep_done,
		      const int *fio_rc, const struct wbs_faults *fp,
		      unsigned int workers_failed)
{
	FILE *f = wb_fopen_in(cfg->out, "meta.txt", "we");
	char key[32];

	if (!f)
		return -1;
	wb_meta_put(f, "tool", "wberr-stress");
	wb_meta_put(f, "dev", "%u:%u", major(dev), minor(dev));
	wb_meta_put(f, "seed", "%" PRIu64, cfg->seed);
	wb_meta_put(f, "procs", "%u", cfg->procs);
	wb_meta_put(f, "fds", "%u", cfg->fds);
	wb_meta_put(f, "shared", "%u", cfg->shared);
	wb_meta_put(f, "file_kib", "%u", cfg->file_kib);
	wb_meta_put(f, "duration_s", "%.1f", cfg->duration_s);
	wb_meta_put(f, "prob_ppm", "%u", cfg->prob_ppm);
	wb_meta_put(f, "robust", "%d", cfg->robust);
	wb_meta_put(f, "go_ns", "%" PRIu64, go);
	wb_meta_put(f, "stop_ns", "%" PRIu64, stop);
	wb_meta_put(f, "sweep_done", "%d", sweep_done);
	wb_meta_put(f, "workers_failed", "%u", workers_failed);
	wb_meta_put(f, "rules_added", "%lu", fp->rules_added);
	wb_meta_put(f, "rules_removed", "%lu", fp->rules_removed);
	wb_meta_put(f, "suspends", "%lu", fp->suspends);
	wb_meta_put(f, "reloads", "%lu", fp->reloads);
	wb_meta_put(f, "dm_failures", "%lu", fp->failures);
	wb_meta_put(f, "clock_step_ns", "%" PRIu64, clock_step_ns());
	wb_meta_put(f, "cpus", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	for (unsigned int i = 0; i < cfg->nfio; i++) {
		snprintf(key, sizeof(key), "fio_rc.%u", i);
		wb_meta_put(f, key, "%d", fio_rc[i]);
		snprintf(key, sizeof(key), "fio_job.%u", i);
		wb_meta_put(f, key, "%s", cfg->fio[i]);
	}
	return fclose(f);
}

static pid_t fork_worker(const struct wbs_run_cfg *cfg, unsigned int p,
			 int pipes[4][2], char paths[][4096])
{
	struct wbs_worker_cfg wc = {
		.proc = p, .nfds = cfg->fds, .seed = cfg->seed,
		.duration_ns = (uint64_t)(cfg->duration_s * 1e9),
		.file_size = (size_t)cfg->file_kib * 1024, .outdir = cfg->out,
		.ready_fd = pipes[0][1], .go_fd = pipes[1][0],
		.done_fd = pipes[2][1], .sweep_fd = pipes[3][0],
	};
	char marker[4096];
	unsigned int j;
	pid_t pid;

	snprintf(marker, sizeof(marker), "%s/trace_marker", cfg->tracefs);
	wc.marker = marker;
	for (j = 0; j < cfg->fds; j++) {
		wc.file[j] = fd_file(cfg, p, j);
		wc.path[j] = paths[wc.file[j]];
	}
	pid = fork();
	if (pid)
		return pid;
	close(pipes[0][0]);
	close(pipes[1][1]);
	close(pipes[2][0]);
	close(pipes[3][1]);
	_exit(wbs_worker_main(&wc));
}

/* one run: what wbs_run()'s stages share */
struct run {
	const struct wbs_run_cfg *cfg;
	int pipes[4][2];	/* ready, go, done, sweep: workers <-> runner */
	pid_t *wpid, fio_pid[WBS_MAX_FIO];
	int fio_rc[WBS_MAX_FIO];
	unsigned int failed;	/* workers that did not exit 0 */
	struct wb_files fs;
	struct wbs_faults fp;
	uint64_t go, stop;
	char (*paths)[4096];
	struct stat st;
};

/* the options, the output directory, the test files and their extents,
 * the fault programmer, tracing and the pipes: 0, 1 (failed) or 2 (usage) */
static int run_setup(struct run *r)
{
	const struct wbs_run_cfg *cfg = r->cfg;
	struct wbs_faults_cfg fc = {
		.dev = cfg->dev, .seed = cfg->seed, .prob_ppm = cfg->prob_ppm,
		.max_delay_ms = cfg->max_delay_ms, .robust = cfg->robust,
	};

	if (cfg->fds < 1 || cfg->fds > WBS_MAX_FDS || !cfg->procs) {
		wbs_warn(0, "--fds must be 1..%d and --procs > 0", WBS_MAX_FDS);
		return 2;
	}
	if (mkdir(cfg->out, 0755) && errno != EEXIST) {
		wbs_warn(1, "mkdir %s", cfg->out);
		return 2;
	}
	if (stat(cfg->dir, &r->st)) {
		wbs_warn(1, "%s", cfg->dir);
		return 2;
	}
	if (make_files(cfg, &r->fs) || wb_files_save(&r->fs, cfg->out, "files.txt"))
		return 2;
	r->paths = wbs_xcalloc(nfiles(cfg), sizeof(*r->paths));
	for (unsigned int i = 0; i < nfiles(cfg); i++)
		file_path(cfg, i, r->paths[i], sizeof(r->paths[i]));
	if (wbs_faults_init(&r->fp, &fc, &r->fs, cfg->out) ||
	    wbs_tracefs_start(cfg->tracefs, cfg->buffer_kb))
		return 1;
	for (unsigned int i = 0; i < 4; i++)
		if (pipe2(r->pipes[i], O_CLOEXEC)) {
			wbs_warn(1, "pipe");
			return 1;
		}
	return 0;
}

/* the workers forked and their files open: 0, or -1 (then reap them) */
static int start_workers(struct run *r)
{
	const struct wbs_run_cfg *cfg = r->cfg;

	r->wpid = wbs_xcalloc(cfg->procs, sizeof(*r->wpid));
	fflush(NULL);
	for (unsigned int i = 0; i < cfg->procs; i++)
		r->wpid[i] = fork_worker(cfg, i, r->pipes, r->paths);
	close(r->pipes[0][1]);
	close(r->pipes[1][0]);
	close(r->pipes[2][1]);
	close(r->pipes[3][0]);
	if (read_bytes(r->pipes[0][0], cfg->procs)) {
		wbs_warn(0, "a worker failed to open its files");
		close(r->pipes[1][1]);
		close(r->pipes[3][1]);
		return -1;
	}
	return 0;
}

/* the injection window: faults armed, the workers let go, one seeded
 * action a period until the duration is up */
static void inject(struct run *r)
{
	const struct wbs_run_cfg *cfg = r->cfg;
	int did_suspend = 0, did_reload = 0;
	uint64_t end;

	/* the programmer must keep pace with 16+ busy processes (nice 5) */
	if (setpriority(PRIO_PROCESS, 0, -5))
		wbs_warn(1, "setpriority");
	/* every fd is open (sampled a clean wb_err): now the faults */
	wbs_faults_arm(&r->fp);
	for (unsigned int i = 0; i < cfg->nfio; i++)
		r->fio_pid[i] = spawn_fio(cfg, cfg->fio[i], i);
	r->go = wbs_now_ns();
	wbs_faults_event(&r->fp, "go");
	close(r->pipes[1][1]);
	end = r->go + (uint64_t)(cfg->duration_s * 1e9);
	for (unsigned long steps = 0; wbs_now_ns() < end; steps++) {
		uint64_t now = wbs_now_ns();

		/* with --robust, at least one of each whatever the dice say */
		if (cfg->robust && !did_suspend && now > r->go + (end - r->go) / 3) {
			wbs_faults_suspend_resume(&r->fp);
			did_suspend = 1;
		} else if (cfg->robust && !did_reload && now > r->go + 2 * (end - r->go) / 3) {
			wbs_faults_reload(&r->fp);
			did_reload = 1;
		} else {
			wbs_faults_step(&r->fp);
		}
		/* log_size 65536 holds minutes of faults: drain now and then */
		if (steps % 4 == 3)
			wbs_faults_drain(&r->fp, 1);
		wbs_sleep_ns((uint64_t)cfg->period_ms * 1000000ull / 2 +
			     (wbs_now_ns() % (cfg->period_ms + 1)) * 1000000ull);
	}
	if (read_bytes(r->pipes[2][0], cfg->procs))
		wbs_warn(0, "a worker died in its loop");
	r->stop = wbs_now_ns();
	wbs_faults_event(&r->fp, "stop");
}

/* No more faults; held (delayed) bios fail within max_delay_ms; then
 * write everything back so no error can appear after the sweep.  sync(2)
 * does not consume errors (keep_errors waits).  The workers sweep. */
static void sweep(struct run *r)
{
	wbs_faults_clear(&r->fp);
	wbs_sleep_ns(((uint64_t)r->cfg->max_delay_ms + 100) * 1000000ull);
	sync();
	wbs_faults_drain(&r->fp, 0);
	wbs_faults_event(&r->fp, "sweep");
	close(r->pipes[3][1]);
}

/* every worker's and fio job's exit status */
static void reap(struct run *r)
{
	const struct wbs_run_cfg *cfg = r->cfg;
	int status;

	for (unsigned int i = 0; i < cfg->procs; i++)
		if (waitpid(r->wpid[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			r->failed++;
	for (unsigned int i = 0; i < cfg->nfio; i++) {
		if (r->fio_pid[i] > 0 && waitpid(r->fio_pid[i], &status, 0) == r->fio_pid[i])
			r->fio_rc[i] = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		else
			r->fio_rc[i] = -1;
	}
}

/* the fault log's last entries, the trace and meta.txt: the exit status */
static int finish(struct run *r)
{
	const struct wbs_run_cfg *cfg = r->cfg;
	int rc;

	wbs_faults_drain(&r->fp, 0);
	wbs_faults_event(&r->fp, "end");
	if (wbs_tracefs_stop(cfg->tracefs, cfg->out) ||
	    write_meta(cfg, r->st.st_dev, r->go, r->stop, !r->failed, r->fio_rc, &r->fp, r->failed))
		return 1;
	rc = r->failed ? 1 : 0;
	for (unsigned int i = 0; i < cfg->nfio; i++)
		if (r->fio_rc[i])
			rc = 1;
	return rc;
}

int wbs_run(const struct wbs_run_cfg *cfg)
{
	struct run *r = wbs_xcalloc(1, sizeof(*r));
	int rc;

	r->cfg = cfg;
	rc = run_setup(r);
	if (!rc) {
		if (!start_workers(r)) {
			inject(r);
			sweep(r);
		}
		reap(r);
		rc = finish(r);
	}
	wbs_faults_close(&r->fp);
	wb_files_free(&r->fs);
	free(r->paths);
	free(r->wpid);
	free(r);
	return rc;
}
