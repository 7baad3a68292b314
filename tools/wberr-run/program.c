// SPDX-License-Identifier: GPL-2.0
/*
 * Program mode (scenarios/README.md, "Programs"): build the device stack,
 * run the setup, start an unmodified program, arm the faults by the plan
 * (at start, after N ms, or when the program prints a marker line),
 * recover the device, run the checker; then judge what every fault came
 * to from the trace of every sync-family call (synctrace.h).
 */
#include "program.h"
#include "report.h"
#include "crosscheck.h"
#include "evidence.h"
#include "faults.h"
#include "stack.h"
#include "sys.h"
#include "synctrace.h"
#include "wb_names.h"
#include "wb_sys.h"
#include "wb_tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the program's scratch directory, outside the file system under test:
 * what it acknowledged must survive a failing device */
#define WORKDIR "/tmp/wberr-program"
#define TRACE_KB 32768

/* one armed fault: how many files it aims at and the dm-wberr rules it became */
struct armed {
	int idx;			/* in prog->faults */
	int nfiles;
	int nrules;
	unsigned rules[MAX_EXT * 2];
};

struct prun {
	const struct exec_cfg *cfg;
	const struct instance *inst;
	const struct program *pg;
	struct inst_result *res;
	struct stack st;
	struct faults fl;
	char outdir[PATH_LEN * 2];
	char armed_path[PATH_LEN];
	int traced;
	int armed;
	struct armed arm[PROG_MAX_FAULTS];	/* one per fault of the plan */
	int narm;
	int program_status;	/* the checker's WBERR_PROGRAM_STATUS; INT_MIN before */
	uint32_t major, minor;	/* st_dev of the file system under test */
	struct wb_files aimed;	/* the files faults aimed at, their extents when armed:
				 * whose the failed bios' sectors were then */
	struct wb_files after;	/* every file on the mount when the program ended */
	struct sc_path *paths;	/* inode -> path of both, for the report */
	size_t npaths;
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* one judged check of the instance; the first failure becomes the reason */
static void check(struct prun *p, int pass, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void check(struct prun *p, int pass, const char *what, const char *fmt, ...)
{
	struct inst_result *r = p->res;
	struct step_result *s, *v;
	va_list ap;

	v = realloc(r->steps, (size_t)(r->nsteps + 1) * sizeof(*v));
	if (!v)
		return;
	r->steps = v;
	s = &v[r->nsteps++];
	memset(s, 0, sizeof(*s));
	s->ran = 1;
	s->pass = pass;
	snprintf(s->what, sizeof(s->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	if (!pass && r->verdict != R_FAIL) {
		r->verdict = R_FAIL;
		snprintf(r->reason, sizeof(r->reason), "%s: %.900s", what, s->msg);
	}
	if (p->cfg->verbose)
		fprintf(stderr, "wberr-run: %s %s: %s\n", pass ? "ok" : "FAIL", what, s->msg);
}

static void mark(struct prun *p, const char *what)
{
	if (p->traced)
		wb_tracefs_mark(p->cfg->tracefs, "wb app %s\n", what);
}

/* the environment every command of the program gets */
static void child_env(const struct prun *p)
{
	const struct program *pg = p->pg;

	setenv("WBERR_MNT", p->cfg->mnt, 1);
	setenv("WBERR_DIR", WORKDIR, 1);
	setenv("HOME", WORKDIR, 1);
	setenv("WBERR_SCENARIO_DIR", p->inst->sc->dir, 1);
	setenv("WBERR_ARMED", p->armed_path, 1);
	setenv("WBERR_FS", fs_names[p->inst->fs], 1);
	setenv("WBERR_INSTANCE", p->inst->id, 1);
	setenv("WBERR_STATUS", p->inst->status ? p->inst->status : "", 1);
	if (p->program_status != INT_MIN) {
		char buf[16];

		snprintf(buf, sizeof(buf), "%d", p->program_status);
		setenv("WBERR_PROGRAM_STATUS", buf, 1);
	}
	for (int i = 0; i < pg->nenv; i++)
		putenv(strdup(pg->env[i]));
}

/*
 * fork + sh -c @cmd in its own session, stdout to @out_fd, stderr to
 * @err_fd, as the program's user when @as_user.  The child never returns.
 */
static pid_t spawn(const struct prun *p, const char *cmd, int as_user, int out_fd, int err_fd)
{
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	/* the dispositions a shell gives a program: wberr-run ignores SIGPIPE,
	 * and an ignored signal stays ignored across exec (a `yes | head`
	 * would write EPIPE forever instead of dying) */
	signal(SIGPIPE, SIG_DFL);
	setsid();
	null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	dup2(out_fd, 1);
	dup2(err_fd, 2);
	child_env(p);
	if (chdir(p->cfg->mnt))
		_exit(126);
	if (as_user && p->pg->has_user) {
		if (setgroups(0, NULL) || setgid(p->pg->gid) || setuid(p->pg->uid)) {
			dprintf(2, "wberr-run: cannot become %u:%u: %s\n", p->pg->uid, p->pg->gid, strerror(errno));
			_exit(126);
		}
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	dprintf(2, "wberr-run: exec /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

/* every process of the program: its user's, or its session's when it runs as root */
static void kill_program(const struct prun *p, pid_t pid)
{
	if (p->pg->has_user) {
		pid_t k = fork();

		if (!k) {
			if (setuid(p->pg->uid))
				_exit(1);
			kill(-1, SIGKILL);	/* every process of this uid but itself */
			_exit(0);
		}
		if (k > 0)
			waitpid(k, NULL, 0);
	}
	if (pid > 0)
		kill(-pid, SIGKILL);
}

/* exit status as a shell reports it; 128+N for a signal, -1 still running */
static int status_code(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return -1;
}

/* waits for @pid up to @timeout_s; its status, or -1 on timeout (then killed) */
static int wait_for(const struct prun *p, pid_t pid, unsigned timeout_s)
{
	uint64_t end = mono_us() + (uint64_t)timeout_s * 1000000u;
	int ws;

	for (;;) {
		pid_t w = waitpid(pid, &ws, WNOHANG);

		if (w == pid)
			return status_code(ws);
		if (w < 0)
			return -1;
		if (mono_us() > end) {
			kill_program(p, pid);
			waitpid(pid, &ws, 0);
			return -1;
		}
		usleep(20000);
	}
}

static int open_out(const struct prun *p, const char *name)
{
	char path[PATH_LEN * 2 + 64];

	snprintf(path, sizeof(path), "%s/%s", p->outdir, name);
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/* sh -c @cmd to completion, output in @name.out; its status, -1 on timeout */
static int run_step_cmd(struct prun *p, const char *label, const char *cmd, int as_user)
{
	char name[64];
	int fd, rc;
	pid_t pid;

	snprintf(name, sizeof(name), "%s.out", label);
	fd = open_out(p, name);
	if (fd < 0)
		return -2;
	pid = spawn(p, cmd, as_user, fd, fd);
	close(fd);
	if (pid < 0)
		return -2;
	rc = wait_for(p, pid, p->pg->timeout_s);
	kill_program(p, pid);	/* what it left behind (a daemon) goes too */
	return rc;
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* st_dev of the file system under test: the device the attributor's faults are on */
static void mount_dev(struct prun *p)
{
	struct stat sb;

	if (!stat(p->cfg->mnt, &sb)) {
		p->major = major(sb.st_dev);
		p->minor = minor(sb.st_dev);
	}
}

/* @rel (inode @ino) and where its data is now, into @fs */
static void know_file(struct prun *p, struct wb_files *fs, const char *rel, uint64_t ino)
{
	struct ext e[MAX_EXT];
	int i = wb_files_find_or_add(fs, ino, rel);
	int n = i < 0 ? 0 : stack_fiemap(&p->st, rel, e, MAX_EXT);

	for (int k = 0; k < n; k++)
		wb_files_add_extent(fs, (unsigned int)i, e[k].first, e[k].last);
}

/* the dm-wberr rules faults_program() just made, as @a's */
static void take_rules(const struct prun *p, struct armed *a)
{
	const struct rule *ru = &p->fl.rules[p->fl.nrules - 1];

	for (int k = 0; k < ru->nk && a->nrules < (int)(sizeof(a->rules) / sizeof(a->rules[0])); k++)
		a->rules[a->nrules++] = ru->kid[k];
}

/* one file's rules for fault @f; 0, or -1 with the refusal in *msg */
static int arm_file(struct prun *p, struct armed *a, const struct fault_spec *f, const char *rel,
		    char *msg, size_t len)
{
	struct fault_spec one = *f;
	char full[PATH_LEN * 2];
	struct stat sb;

	snprintf(one.file, sizeof(one.file), "%s", rel);
	one.grow = f->grow && !a->nrules;	/* the free space once, with the first file */
	if (faults_program(&p->fl, &p->st, &one, p->inst->status, msg, len))
		return -1;
	take_rules(p, a);
	snprintf(full, sizeof(full), "%s/%s", p->cfg->mnt, rel);
	if (!stat(full, &sb)) {
		a->nfiles++;
		know_file(p, &p->aimed, rel, sb.st_ino);
	}
	return 0;
}

/* the plan's faults, on the files they name now; @words: the marker line's rest */
static void arm_faults(struct prun *p, const char *words)
{
	const struct program *pg = p->pg;
	char msg[2048] = "";
	int ok = 1;

	for (int i = 0; i < pg->nfaults && ok; i++) {
		const struct fault_spec *f = &pg->faults[i].fault;
		struct armed *a = &p->arm[p->narm++];

		memset(a, 0, sizeof(*a));
		a->idx = i;
		if (f->rule.has_sectors) {
			ok = !faults_program(&p->fl, &p->st, f, p->inst->status, msg, sizeof(msg));
			if (ok)
				take_rules(p, a);
		} else if (!strcmp(f->file, "$marker")) {
			char w[PATH_LEN], *save = NULL, *tok;

			snprintf(w, sizeof(w), "%s", words ? words : "");
			for (tok = strtok_r(w, " \t", &save); tok && ok; tok = strtok_r(NULL, " \t", &save))
				ok = !arm_file(p, a, f, tok, msg, sizeof(msg));
			if (ok && !a->nfiles) {
				add_msg(msg, sizeof(msg), "fault %s aims at $marker but the marker line named no file", f->id);
				ok = 0;
			}
		} else if (has_glob(f->file)) {
			char pat[PATH_LEN * 2];
			glob_t g;
			size_t skip = strlen(p->cfg->mnt) + 1;

			snprintf(pat, sizeof(pat), "%s/%s", p->cfg->mnt, f->file);
			if (glob(pat, 0, NULL, &g) || !g.gl_pathc) {
				add_msg(msg, sizeof(msg), "fault %s: no file matches %s", f->id, f->file);
				ok = 0;
			}
			for (size_t k = 0; ok && k < g.gl_pathc; k++)
				ok = !arm_file(p, a, f, g.gl_pathv[k] + skip, msg, sizeof(msg));
			globfree(&g);
		} else {
			ok = !arm_file(p, a, f, f->file, msg, sizeof(msg));
		}
		if (ok && a->nrules)
			result_told_status(p->res, f->rule.status, p->inst->status);
	}
	p->armed = 1;
	mark(p, ok ? "armed" : "arm-failed");
	check(p, ok, "arm", "%s", msg);
	/* the program may wait for this before the I/O the faults are meant for */
	close(open(p->armed_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
}

/*
 * Runs the program, copying its stdout to program.out line by line to
 * find the marker; arms by the plan.  Its exit status, -1 on timeout.
 */
static int run_program(struct prun *p)
{
	const struct program *pg = p->pg;
	int pfd[2], out, err, rc = -1, ws, eof = 0;
	char line[4096];
	size_t have = 0;
	uint64_t t0, end;
	pid_t pid;

	out = open_out(p, "program.out");
	err = open_out(p, "program.err");
	if (out < 0 || err < 0 || pipe2(pfd, O_CLOEXEC))
		return -2;
	if (pg->arm == ARM_START)
		arm_faults(p, NULL);
	mark(p, "program start");
	t0 = mono_us();
	end = t0 + (uint64_t)pg->timeout_s * 1000000u;
	pid = spawn(p, pg->run, 1, pfd[1], err);
	close(pfd[1]);
	close(err);
	while (pid > 0) {
		struct pollfd q = { .fd = pfd[0], .events = POLLIN };
		uint64_t now = mono_us();

		if (!p->armed && pg->arm == ARM_AFTER_MS && now - t0 >= (uint64_t)pg->arm_ms * 1000u)
			arm_faults(p, NULL);
		if (now > end) {
			kill_program(p, pid);
			waitpid(pid, &ws, 0);
			rc = -1;
			break;
		}
		if (!eof && poll(&q, 1, 20) > 0) {
			ssize_t n = read(pfd[0], line + have, sizeof(line) - 1 - have);

			if (n <= 0) {
				eof = 1;
			} else {
				char *nl;

				/* the log is best effort: the marker matters, not a full disk */
				(void)!write(out, line + have, (size_t)n);
				have += (size_t)n;
				line[have] = 0;
				while ((nl = strchr(line, '\n')) || have == sizeof(line) - 1) {
					size_t l = nl ? (size_t)(nl - line) : have;

					line[l] = 0;
					if (!p->armed && pg->arm == ARM_MARKER &&
					    !strncmp(line, pg->marker, strlen(pg->marker)))
						arm_faults(p, line + strlen(pg->marker));
					l += nl != NULL;
					memmove(line, line + l, have - l);
					have -= l;
					line[have] = 0;
				}
			}
		} else if (eof) {
			usleep(20000);
		}
		if (waitpid(pid, &ws, WNOHANG) == pid) {
			rc = status_code(ws);
			break;
		}
	}
	close(pfd[0]);
	close(out);
	mark(p, "program end");
	return rc;
}

/* each recovery action in order; a check per action */
static void recover(struct prun *p)
{
	const struct program *pg = p->pg;

	for (int i = 0; i < pg->nrecover; i++) {
		const char *name = recover_names[pg->recover[i]];
		char what[64], msg[512] = "";
		int rc = 0;

		snprintf(what, sizeof(what), "recover %s", name);
		mark(p, what);
		switch (pg->recover[i]) {
		case REC_KILL:
			kill_program(p, 0);
			break;
		case REC_CLEAR_FAULTS:
			rc = faults_clear(&p->fl);
			if (rc)
				snprintf(msg, sizeof(msg), "dm-wberr refused 'clear'");
			break;
		case REC_DROP_CACHES:
			/* no sync first: what the program left dirty stays so */
			rc = wb_write_file("/proc/sys/vm/drop_caches", "3");
			if (rc)
				snprintf(msg, sizeof(msg), "drop_caches: %s", strerror(errno));
			break;
		case REC_REMOUNT:
			rc = stack_umount(&p->st);
			if (!rc)
				rc = stack_mount(&p->st);
			/* still mounted: the umount failed; else the mount did */
			if (rc)
				snprintf(msg, sizeof(msg), "%s: %s", p->st.mounted ? "umount" : "mount", strerror(-rc));
			break;
		case REC_DEVICE_CYCLE:
			rc = stack_cycle(&p->st, msg, sizeof(msg));
			break;
		}
		check(p, rc == 0, what, "%s", msg);
	}
}

/* every file under the mount, with its extents: the attributor's files, the
 * report's paths.  nftw() has no user pointer: the walk's run lives here for
 * its duration only. */
static struct prun *walking;

static int walk_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	size_t skip = strlen(walking->cfg->mnt) + 1;

	(void)ftw;
	if (type == FTW_F && walking->after.nfiles < 32768)
		know_file(walking, &walking->after, strlen(path) > skip ? path + skip : path, sb->st_ino);
	return 0;
}

static void add_paths(struct prun *p, const struct wb_files *fs, uint32_t maj, uint32_t min)
{
	for (unsigned int i = 0; i < fs->nfiles; i++)
		if (!sc_path_of(p->paths, p->npaths, maj, min, fs->ino[i]))
			p->paths[p->npaths++] = (struct sc_path){ .major = maj, .minor = min,
								  .ino = fs->ino[i], .path = fs->path[i] };
}

/* fills p->after, and p->paths from it and p->aimed; the number of paths */
static size_t walk_mount(struct prun *p)
{
	struct stat sb;

	walking = p;
	nftw(p->cfg->mnt, walk_one, 32, FTW_PHYS | FTW_MOUNT);
	walking = NULL;
	if (stat(p->cfg->mnt, &sb))
		return 0;
	p->paths = calloc(p->after.nfiles + p->aimed.nfiles + 1, sizeof(*p->paths));
	if (p->paths) {
		/* an aimed file's name when armed; else the name an inode has
		 * after the run (a file deleted meanwhile may have left its
		 * inode number to another) */
		add_paths(p, &p->aimed, major(sb.st_dev), minor(sb.st_dev));
		add_paths(p, &p->after, major(sb.st_dev), minor(sb.st_dev));
	}
	return p->npaths;
}

/* "postgres[412] fsync(fd 7, pgdata/base/5/16384) = EIO, file 0000abcd" */
static void describe_seer(const struct prun *p, const struct sc_judge *j, const struct sc_seer *se,
			  char *buf, size_t len)
{
	const struct wb_ev *cu = se->cursor >= 0 ? &j->t->v[se->cursor] : NULL;
	const char *path = cu ? sc_path_of(p->paths, p->npaths, cu->es.major, cu->es.minor, cu->es.ino) : NULL;
	const struct wb_call *c;

	if (se->call < 0) {
		snprintf(buf, len, "task %u, outside any traced call, file %s", cu ? cu->pid : 0,
			 cu ? cu->es.file : "?");
		return;
	}
	c = &j->a->calls[se->call];
	snprintf(buf, len, "%s[%u] %s(fd %d%s%s) = %s%s%s", c->comm, c->tgid ? c->tgid : c->tid,
		 wb_call_kind_name(c->kind), c->fd, path ? ", " : "", path ? path : "",
		 c->ret < 0 ? wb_errno_name((int)-c->ret) : "0",
		 cu ? ", file " : se->set < 0 ? ", through the super block" : "", cu ? cu->es.file : "");
}

/* the trace, kept in trace.txt and parsed; 0 or -1 */
static int take_trace(struct prun *p, struct wb_trace *t)
{
	char *text = wb_tracefs_take(p->cfg->tracefs);
	FILE *f;
	int rc;

	if (!text)
		return -1;
	f = wb_fopen_in(p->outdir, "trace.txt", "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	rc = wb_trace_parse(t, text);
	free(text);
	return rc;
}

/* the plan's faults as the judge takes them: each one's expected errno and rules */
static void plan_of(const struct prun *p, struct sc_plan *plan)
{
	for (int i = 0; i < p->narm; i++) {
		const struct armed *a = &p->arm[i];
		const struct fault_spec *fs = &p->pg->faults[a->idx].fault;
		const char *status = strcmp(fs->rule.status, "$status") ? fs->rule.status : p->inst->status;
		const struct wb_status *bs = status ? wb_status_by_name(status) : NULL;

		plan[i] = (struct sc_plan){ .id = (unsigned int)i, .err = fs->rule.action == WB_ACT_FAIL && bs ? bs->err : 0,
					    .rules = a->rules, .nrules = (size_t)a->nrules };
	}
}

static void render(const struct prun *p, const struct sc_judge *j)
{
	struct sc_report rep = { .j = j, .paths = p->paths, .npaths = p->npaths };
	FILE *f = wb_fopen_in(p->outdir, "timeline.txt", "w");

	if (f) {
		sc_render_text(f, &rep);
		fclose(f);
	}
	f = wb_fopen_in(p->outdir, "report.json", "w");
	if (f) {
		sc_render_json(f, &rep);
		fclose(f);
	}
}

/* the record's check: the program's calls, and whether the ring kept them all */
static void check_record(struct prun *p, const struct sc_judge *j)
{
	size_t nsync = 0, nerr = 0, nchk = 0, nchkerr = 0;

	for (size_t i = 0; i < j->a->ncalls; i++) {
		int failed = j->a->calls[i].ret < 0;

		if (sc_sync_result(j, i)) {
			nsync++;
			nerr += failed;
		} else if (j->phase[i] == SC_PHASE_CHECK) {
			nchk++;
			nchkerr += failed;
		}
	}
	p->res->nchecked = (int)nsync;
	p->res->nreported = (int)nerr;
	/* a ring that overflowed may have lost the very call that saw a fault */
	check(p, j->t->lost == 0, "record", "%zu sync-family calls, %zu returned an error, %zu no fault explains; "
	      "the checker's own: %zu, %zu failed; %" PRIu64 " events lost%s (%s/timeline.txt)", nsync, nerr,
	      j->nunexplained, nchk, nchkerr, j->t->lost, j->t->lost ? ": the trace buffer overflowed" : "",
	      p->outdir);
}

/* "on 2 file(s)", or a sector-aimed fault's range */
static void fault_where(const struct prun *p, int i, char *buf, size_t len)
{
	const struct fault_spec *fs = &p->pg->faults[p->arm[i].idx].fault;

	if (fs->rule.has_sectors)
		snprintf(buf, len, "at sectors %" PRIu64 "-%" PRIu64, fs->rule.first, fs->rule.last);
	else
		snprintf(buf, len, "on %d file(s)", p->arm[i].nfiles);
}

/* the verdict's words: who saw it, or why nobody did */
static size_t fault_story(const struct prun *p, const struct sc_judge *j, int i, char *msg, size_t len)
{
	const struct sc_fate *fa = &j->fates[i];
	const struct fault_spec *fs = &p->pg->faults[p->arm[i].idx].fault;
	char where[96];
	size_t o;

	fault_where(p, i, where, sizeof(where));
	o = (size_t)snprintf(msg, len, "%s: %zu bio(s) %s %s, %zu error(s) recorded", sc_verdict_name(fa->verdict),
			     fa->nfired, fs->rule.action == WB_ACT_DROP ? "dropped" : "failed", where, fa->nsets);
	for (size_t k = 0; k < fa->nseers && k < 4 && o < len; k++) {
		char d[400];

		describe_seer(p, j, &fa->seers[k], d, sizeof(d));
		o += (size_t)snprintf(msg + o, len - o, "%s%s", k ? "; " : "; seen by ", d);
	}
	if (fa->nseers > 4 && o < len)
		o += (size_t)snprintf(msg + o, len - o, "; and %zu more", fa->nseers - 4);
	if (fa->verdict == SC_LOST && o < len)
		o += (size_t)snprintf(msg + o, len - o, "; no process ever saw it");
	if (fa->verdict == SC_SILENT && o < len)
		o += (size_t)snprintf(msg + o, len - o, "; no error reached any mapping, no process was told%s",
				      fa->nhit < fa->nfired ? " (of its bios, those on no file's data after "
				      "the run: metadata, free space or a file since deleted)" : "");
	return o < len ? o : len - 1;
}

static void check_fault(struct prun *p, const struct sc_judge *j, int i)
{
	const struct sc_fate *fa = &j->fates[i];
	int want = p->pg->expect_errors, ok;
	char what[96], msg[1536] = "";
	size_t o;

	snprintf(what, sizeof(what), "fault %s", p->pg->faults[p->arm[i].idx].fault.id);
	o = fault_story(p, j, i, msg, sizeof(msg));
	ok = (fa->verdict == SC_SEEN && want == ERRORS_SEEN) || (fa->verdict == SC_LOST && want == ERRORS_LOST) ||
	     (fa->verdict == SC_SILENT && want == ERRORS_SILENT);
	if (!ok && fa->verdict != SC_NOT_FIRED)
		snprintf(msg + o, sizeof(msg) - o, " (expected %s)", errors_expect_names[want]);
	else if (ok && want != ERRORS_SEEN)
		snprintf(msg + o, sizeof(msg) - o, " (expected: %s)", p->pg->why);
	else if (fa->verdict == SC_NOT_FIRED)
		snprintf(msg + o, sizeof(msg) - o, "; the plan missed the program's I/O");
	check(p, ok, what, "%s", msg);
}

/*
 * The trace against the faults: lib/c parses and attributes it, the judge
 * (synctrace.h) says what each fault came to; one check per fault,
 * timeline.txt and report.json for people, and the evidence beside the
 * trace, so that `wberr-run --replay` judges the run again.
 */
static void program_judge(struct prun *p)
{
	struct sc_run r = { 0 };
	struct sc_plan plan[PROG_MAX_FAULTS];

	if (!p->traced)
		return;
	if (take_trace(p, &r.t)) {
		check(p, 0, "trace", "cannot read or parse the trace");
		goto out;
	}
	plan_of(p, plan);
	if (sc_run_judge(&r, p->fl.log, (size_t)p->fl.nlog, &p->aimed, &p->after, p->major, p->minor,
			 (uint32_t)getpid(), plan, (size_t)p->narm)) {
		check(p, 0, "trace", "out of memory attributing the faults");
		goto out;
	}
	render(p, &r.j);
	check_record(p, &r.j);
	for (int i = 0; i < p->narm; i++)
		check_fault(p, &r.j, i);
	if (program_evidence_write(p->outdir, &(struct program_evidence){
		    .id = p->inst->id, .fs = fs_names[p->inst->fs], .status = p->inst->status,
		    .self = (uint32_t)getpid(), .major = p->major, .minor = p->minor,
		    .expect = errors_expect_names[p->pg->expect_errors], .j = &r.j, .plan = plan,
		    .nplan = (size_t)p->narm, .log = p->fl.log, .nlog = (size_t)p->fl.nlog,
		    .aimed = &p->aimed, .after = &p->after }))
		fprintf(stderr, "wberr-run: the evidence of %s in %s is incomplete\n", p->inst->id, p->outdir);
out:
	sc_run_free(&r);
}

static int missing_need(const struct program *pg, char *buf, size_t len)
{
	for (int i = 0; i < pg->nneeds; i++)
		if (access(pg->needs[i], F_OK)) {
			snprintf(buf, len, "needs %s (not in this guest)", pg->needs[i]);
			return 1;
		}
	return 0;
}

static void mkdir_p(const char *path)
{
	char buf[PATH_LEN * 2];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(buf, 0755);
			*s = '/';
		}
	mkdir(buf, 0755);
}

/* <results>/programs/<the id as evidence/ names it> */
static void outdir_for(const struct prun *p, char *buf, size_t len)
{
	char id[256];

	evidence_dirname(p->inst->id, id, sizeof(id));
	snprintf(buf, len, "%.200s/programs/%s", p->cfg->results ? p->cfg->results : "/tmp/wberr-results", id);
}

/* the scratch directory, the device stack, the setup command: 0, or -1 */
static int program_setup(struct prun *p)
{
	const struct exec_cfg *cfg = p->cfg;
	const struct program *pg = p->pg;
	char buf[1024];
	int rc;

	outdir_for(p, p->outdir, sizeof(p->outdir));
	mkdir_p(p->outdir);
	snprintf(p->armed_path, sizeof(p->armed_path), "%s/armed", WORKDIR);
	run_cmd(buf, sizeof(buf), "rm -rf %s && mkdir -p %s", WORKDIR, WORKDIR);
	if (pg->has_user && chown(WORKDIR, pg->uid, pg->gid))
		check(p, 0, "setup", "chown %s: %s", WORKDIR, strerror(errno));
	p->st = (struct stack){ .dmname = cfg->dmname, .disk = cfg->disk, .mnt = cfg->mnt,
				.seed = cfg->seed, .sc = p->inst->sc, .fs = p->inst->fs,
				.data_mode = p->inst->data_mode };
	if (faults_init(&p->fl, cfg->dmname) || stack_setup(&p->st, buf, sizeof(buf))) {
		check(p, 0, "device", "%s", buf);
		return -1;
	}
	if (pg->has_user && chown(cfg->mnt, pg->uid, pg->gid))
		check(p, 0, "setup", "chown %s: %s", cfg->mnt, strerror(errno));
	mount_dev(p);
	if (pg->setup[0] && (rc = run_step_cmd(p, "setup", pg->setup, 0))) {
		check(p, 0, "setup", "exit status %d (%s/setup.out)", rc, p->outdir);
		return -1;
	}
	return 0;
}

/* program mode's trace events: 0, or -1 */
static int program_trace(struct prun *p)
{
	const char *root = p->cfg->tracefs, *what = NULL;
	unsigned char seed;

	if (!root)
		return 0;
	/*
	 * The trace names open file descriptions and io_uring requests by
	 * hashed pointers (%p), and until the CRNG is ready the kernel prints
	 * every one as "(____ptrval____)" (lib/vsprintf.c), which names
	 * nothing; under TCG that lasts well past boot.  A blocking
	 * getrandom() waits for it, and makes the kernel gather the entropy.
	 */
	if (getrandom(&seed, 1, 0) != 1)
		check(p, 0, "trace", "getrandom: %s", strerror(errno));
	if (wb_tracefs_start(root, TRACE_KB, &what) < 0 || wb_tracefs_program(root, &what) < 0) {
		check(p, 0, "trace", "tracefs: %s: %s", what ? what : "?", strerror(errno));
		return -1;
	}
	p->traced = 1;
	return 0;
}

/* the program's run, armed by the plan, and its exit status against the expectation */
static int program_and_arm(struct prun *p)
{
	static const char *const want[] = { "any", "0", "non-zero" };
	const struct program *pg = p->pg;
	int prc = run_program(p), ok;

	if (!p->armed && pg->arm == ARM_MARKER)
		check(p, 0, "arm", "the program never printed the marker \"%s\"", pg->marker);
	else if (!p->armed)
		check(p, 0, "arm", "the program ended before the faults were armed");
	faults_fetch_log(&p->fl);
	walk_mount(p);
	ok = prc >= 0 && (pg->expect_program == EXIT_ANY || (pg->expect_program == EXIT_ZERO) == (prc == 0));
	check(p, ok, "program", prc == -1 ? "timed out after %u s" : "exit status %d (expected %s)",
	      prc == -1 ? pg->timeout_s : (unsigned int)prc, want[pg->expect_program]);
	return prc;
}

/* the checker, after the recovery: 0 intact, 1 a loss found, anything else
 * it could not judge, which is never a pass */
static void program_check(struct prun *p, int prc)
{
	const struct program *pg = p->pg;
	int crc;

	if (!pg->check[0])
		return;
	mark(p, "check start");
	p->program_status = prc;
	crc = run_step_cmd(p, "check", pg->check, 1);
	mark(p, "check end");
	check(p, crc == (pg->expect_check == EXIT_ZERO ? 0 : 1), "check",
	      "%s %d%s%s%s (%s/check.out)", crc == -1 ? "timed out, status" : "exit status", crc,
	      crc > 1 ? ": the checker could not judge (0 = intact, 1 = a loss found)" : "",
	      pg->expect_check == EXIT_NONZERO ? "; expected a finding: " : "",
	      pg->expect_check == EXIT_NONZERO ? pg->why : "", p->outdir);
}

/* the time of each phase, "other" what none of them covers */
static void program_phases(struct prun *p, double t0)
{
	double *ph = p->res->phase;

	ph[PH_DEVICE] = p->st.secs_device;
	ph[PH_MKFS] = p->st.secs_mkfs;
	ph[PH_MOUNT] = p->st.secs_mount;
	result_set_secs(p->res, mono_s() - t0);
}

static void program_teardown(struct prun *p, double t0)
{
	double t_td = mono_s();

	kill_program(p, 0);
	if (p->traced) {
		wb_tracefs_program_off(p->cfg->tracefs);
		wb_tracefs_events_off(p->cfg->tracefs);
	}
	stack_teardown(&p->st);
	p->res->nfaults = p->fl.nlog;
	faults_free(&p->fl);
	p->res->phase[PH_TEARDOWN] = mono_s() - t_td;
	program_phases(p, t0);
	free(p->paths);
	wb_files_free(&p->aimed);
	wb_files_free(&p->after);
}

/* set-up, the program under its plan, the recovery, the checker, the judge */
int program_run(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res)
{
	struct prun *p = calloc(1, sizeof(*p));
	double t0 = mono_s(), t;
	char buf[1024];

	memset(res, 0, sizeof(*res));
	res->inst = inst;
	if (!p)
		return -1;
	*p = (struct prun){ .cfg = cfg, .inst = inst, .pg = inst->sc->prog, .res = res,
			    .program_status = INT_MIN };
	if (missing_need(p->pg, buf, sizeof(buf))) {
		res->verdict = R_SKIP;
		snprintf(res->reason, sizeof(res->reason), "%s", buf);
		free(p);
		return 0;
	}
	res->verdict = R_PASS;
	if (!program_setup(p) && !program_trace(p)) {
		int prc;

		t = mono_s();
		prc = program_and_arm(p);
		res->phase[PH_STEPS] = mono_s() - t;
		t = mono_s();
		recover(p);
		program_check(p, prc);
		faults_fetch_log(&p->fl);
		program_judge(p);
		res->phase[PH_CHECK] = mono_s() - t;
	}
	program_teardown(p, t0);
	free(p);
	return 0;
}
