// SPDX-License-Identifier: GPL-2.0
/*
 * Executing an instance: set up the device stack (stack.c), run each step
 * in the runner or the named process (agent.c, the op table's who), then
 * after each step read the fault log (faults.c) and the trace, attribute
 * every failed write to an inode (FIEMAP extents, then the trace), feed the
 * errseq model (oracle.c), cross-check it against the kernel's evidence
 * (crosscheck.c) and judge the step; with --evidence, record what the
 * cross-checks judged (evidence.c).
 */
#include "exec.h"
#include "agent.h"
#include "crosscheck.h"
#include "evidence.h"
#include "faults.h"
#include "stack.h"
#include "wb_names.h"
#include "wb_tracefs.h"
#include "oracle.h"
#include "program.h"
#include "sys.h"
#include "wb_sys.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

struct run {
	const struct exec_cfg *cfg;
	const struct instance *inst;
	const struct scenario *sc;
	struct inst_result *res;
	int fs;
	struct stack st;	/* device, LV, filesystem */
	struct faults fl;	/* dm-wberr rules and the fault log */
	struct oracle o;
	struct agents ag;
	int sock_of[OR_MAX_PROCS];
	char pname[OR_MAX_PROCS][NAME_LEN];
	int nproc, nsock;
	int alive[AGENT_MAX];
	struct {
		unsigned long ino;
		int known;
		struct ext ext[MAX_EXT];
		int next;
		int last_log;	/* index of the last fault attributed to it */
	} in[OR_MAX_INODES];
	/*
	 * Where a kernel fact (lib/c wb_kernel) had a data fault recorded as
	 * another errno than its status's (6.1 ext4: EIO for a timeout): a
	 * scenario's explicit expectation of the status's errno on a call
	 * that reports writeback means the recorded one on this kernel.
	 */
	struct { int from, to; const char *why; } recmap[8];
	int nrecmap;
	struct step adjusted;	/* the step as judged on this kernel */
};

static void teardown(struct run *r)
{
	if (r->ag.n)
		agents_stop(&r->ag, r->alive);
	stack_teardown(&r->st);
}

static unsigned int proc_index(const struct run *r, const char *proc)
{
	for (int i = 0; i < r->nproc; i++)
		if (!strcmp(r->pname[i], proc))
			return (unsigned int)i;
	return 0;	/* the runner's own steps: "main" */
}

/* the call marker around step @i (lib/c wb_call_mark) */
static void mark_step(struct run *r, const struct step *st, char what, int i)
{
	const struct wb_call_mark m = {
		.what = what, .proc = proc_index(r, st->proc), .seq = (unsigned int)i,
	};
	char text[64];

	if (wb_call_mark_format(text, sizeof(text), &m) > 0)
		wb_tracefs_mark(r->cfg->tracefs, "%s", text);
}

static int sock_of(struct run *r, const char *proc)
{
	for (int i = 0; i < r->nproc; i++)
		if (!strcmp(r->pname[i], proc))
			return r->sock_of[i];
	return -1;
}

/* remember every extent a tracked file has had */
static void refresh_extents(struct run *r)
{
	if (r->fs == FS_RAW || !r->st.mounted)
		return;
	for (int i = 0; i < oracle_ninodes(&r->o); i++) {
		struct ext e[MAX_EXT];
		int n;

		if (!oracle_inode_linked(&r->o, i) || oracle_inode_path(&r->o, i)[0] == '@')
			continue;
		n = stack_fiemap(&r->st, oracle_inode_path(&r->o, i), e, MAX_EXT);
		for (int k = 0; k < n; k++) {
			int dup = 0;

			for (int j = 0; j < r->in[i].next; j++)
				dup |= r->in[i].ext[j].first == e[k].first && r->in[i].ext[j].last == e[k].last;
			if (!dup && r->in[i].next < MAX_EXT)
				r->in[i].ext[r->in[i].next++] = e[k];
		}
	}
}

static int inode_by_sector(struct run *r, uint64_t first, uint64_t nr)
{
	uint64_t last = first + (nr ? nr : 1) - 1;

	for (int i = 0; i < oracle_ninodes(&r->o); i++)
		for (int j = 0; j < r->in[i].next; j++)
			if (first <= r->in[i].ext[j].last && last >= r->in[i].ext[j].first)
				return i;
	return -1;
}

static int inode_by_ino(struct run *r, unsigned long ino)
{
	for (int i = 0; i < oracle_ninodes(&r->o); i++)
		if (r->in[i].known && r->in[i].ino == ino)
			return i;
	return -1;
}

static int is_data_write(const struct wb_fault *e)
{
	return (!strcmp(e->opclass, "write") || !strcmp(e->opclass, "fua")) && e->nr > 0;
}

static void note_open(struct run *r, const char *path, const struct agent_resp *ar)
{
	int i = oracle_inode(&r->o, path, 0);

	if (i < 0)
		return;
	r->in[i].known = 1;
	/* a device's pages live in the bdev inode, numbered by the kernel dev_t */
	r->in[i].ino = r->fs == FS_RAW && path[0] == '@' ? ((unsigned long)ar->maj << 20) | ar->min : ar->ino;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a dax instance's file must really be DAX (STATX_ATTR_DAX, since 5.8):
 * xfs mounts -o dax=always on a device without DAX and falls back to the
 * page cache, which would make every DAX result a page-cache one */
static int dax_in_effect(struct run *r, const struct step *st, struct step_result *sr)
{
	char path[PATH_LEN * 2];
	struct statx sx;

	snprintf(path, sizeof(path), "%s/%s", r->cfg->mnt, st->path);
	if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx)) {
		add_msg(sr->msg, sizeof(sr->msg), "statx %s: %s", st->path, strerror(errno));
		return 0;
	}
	if (!S_ISREG(sx.stx_mode) || ((sx.stx_attributes_mask & STATX_ATTR_DAX) &&
				      (sx.stx_attributes & STATX_ATTR_DAX)))
		return 1;
	add_msg(sr->msg, sizeof(sr->msg), "%s is not DAX (STATX_ATTR_DAX clear): the page cache is in the way",
		st->path);
	return 0;
}

/* the ops the op table gives to the runner itself */
static int run_runner_op(struct run *r, const struct step *st, struct step_result *sr)
{
	char path[PATH_LEN * 2];
	int rc;

	switch (st->op) {
	case OP_SYNC:
		sync();
		return 0;
	case OP_DROP_CACHES: {
		char v[4];

		snprintf(v, sizeof(v), "%u", st->value);
		sync();
		if (wb_write_file("/proc/sys/vm/drop_caches", v))
			sr->err = errno;
		return 0;
	}
	case OP_UMOUNT:
		sr->err = -stack_umount(&r->st);
		return 0;
	case OP_MOUNT:
		rc = stack_mount(&r->st);
		sr->err = -rc;
		return 0;
	case OP_UNLINK:
		snprintf(path, sizeof(path), "%s/%s", r->cfg->mnt, st->path);
		if (unlink(path))
			sr->err = errno;
		return 0;
	case OP_SLEEP:
		usleep(st->value * 1000u);
		return 0;
	case OP_FAULT:
		rc = faults_program(&r->fl, &r->st, &st->fault, r->inst->status, sr->msg, sizeof(sr->msg));
		sr->err = rc < 0 ? -rc : 0;
		return 0;
	case OP_UNFAULT:
		rc = faults_remove(&r->fl, st->fault.id, sr->msg, sizeof(sr->msg));
		sr->err = rc < 0 ? -rc : 0;
		return 0;
	case OP_CLEAR_FAULTS:
		if (faults_clear(&r->fl))
			sr->err = EINVAL;
		return 0;
	case OP_BADBLOCKS:
		rc = stack_badblocks(&r->st, st->path, (uint64_t)st->offset, (uint64_t)st->size,
				     sr->msg, sizeof(sr->msg));
		sr->err = rc < 0 ? -rc : 0;
		return 0;
	default:
		add_msg(sr->msg, sizeof(sr->msg), "op %s is no runner op", op_names[st->op]);
		return -1;
	}
}

/* run the step itself, in the runner or in its process (the op table's
 * who); returns <0 when the instance cannot go on */
static int run_step(struct run *r, int i, struct step_result *sr, struct agent_resp *ar)
{
	const struct step *st = &r->sc->steps[i];
	int sock = -1;

	memset(ar, 0, sizeof(*ar));
	if (op_table[st->op].who == OPW_RUNNER)
		return run_runner_op(r, st, sr);
	switch (st->op) {
	case OP_FORK:
		if (r->nsock >= r->ag.n || r->nproc >= OR_MAX_PROCS) {
			add_msg(sr->msg, sizeof(sr->msg), "too many processes");
			return -1;
		}
		sock = sock_of(r, st->proc);
		if (agent_call(&r->ag, sock, i, r->nsock, ar, 120000)) {
			add_msg(sr->msg, sizeof(sr->msg), "process %s did not answer", st->proc);
			return -1;
		}
		sr->ret = ar->ret;
		sr->err = ar->err;
		if (!ar->err) {
			snprintf(r->pname[r->nproc], NAME_LEN, "%s", st->fd2);
			r->sock_of[r->nproc++] = r->nsock;
			r->alive[r->nsock++] = 1;
		}
		return 0;
	case OP_EXIT:
		sock = sock_of(r, st->proc);
		if (agent_exit(&r->ag, sock, ar))
			sr->err = ESRCH;
		else
			r->alive[sock] = 0;
		return 0;
	default:
		sock = sock_of(r, st->proc);
		if (sock < 0 || !r->alive[sock]) {
			sr->err = ESRCH;
			add_msg(sr->msg, sizeof(sr->msg), "no live process '%s'", st->proc);
			return 0;
		}
		if (agent_call(&r->ag, sock, i, -1, ar, 300000)) {
			add_msg(sr->msg, sizeof(sr->msg), "process %s did not answer (hung or died)", st->proc);
			return -1;
		}
		sr->ret = ar->ret;
		sr->err = ar->err;
		sr->content = ar->content;
		return 0;
	}
}

/* after the step: the model's structural update for what succeeded (the
 * op table's hook), and the inode number of what an open opened */
static void model_update(struct run *r, const struct step *st, const struct step_result *sr,
			 const struct agent_resp *ar)
{
	const char *opened;

	if (sr->err)
		return;
	opened = oracle_apply(&r->o, st);
	if (opened)
		note_open(r, opened, ar);
}

/* a pread's content against expect_content (what it found is kept for
 * the content table either way) */
static void judge_content(const struct step *st, int fs, struct step_result *sr)
{
	int want = st->expect_content[fs];

	add_msg(sr->msg, sizeof(sr->msg), "read %s", content_names[sr->content]);
	if (want == CONTENT_UNSET || want == sr->content)
		return;
	sr->pass = 0;
	add_msg(sr->msg, sizeof(sr->msg), "expected %s%s%s", content_names[want],
		st->why[0] ? ": " : "", st->why);
}

static void describe_step(const struct step *st, char *buf, size_t len)
{
	if (st->fd[0])
		snprintf(buf, len, "%s(%s)%s%s", op_names[st->op], st->fd,
			 strcmp(st->proc, "main") ? " in " : "", strcmp(st->proc, "main") ? st->proc : "");
	else if (st->path[0])
		snprintf(buf, len, "%s(%.80s)", op_names[st->op], st->path);
	else
		snprintf(buf, len, "%s", op_names[st->op]);
}

/* the kernel's release for a message ("this kernel" when unknown) */
static const char *kernel_name(const struct exec_cfg *cfg)
{
	return cfg->kernel && cfg->kernel->release[0] ? cfg->kernel->release : "this kernel";
}

/* the step's on_kernel entry for this kernel and file system, or NULL */
static const struct kernel_expect *step_on_kernel(const struct run *r, const struct step *st)
{
	for (int i = 0; i < st->non_kernel; i++) {
		const struct kernel_expect *ke = &st->on_kernel[i];

		if (wb_kernel_matches(r->cfg->kernel, ke->release) &&
		    ((ke->expect.set && ke->expect.err[r->fs] != EXPECT_UNSET) ||
		     ke->expect_content[r->fs] != CONTENT_UNSET))
			return ke;
	}
	return NULL;
}

/*
 * @st as judged on this kernel.  A step's on_kernel entry for it replaces
 * what the step expects, and its why is in the step's message.  Else,
 * where the scenario expects, on a call that reports writeback
 * (@reports_wb), the errno of a status whose data fault this kernel
 * records as another (r->recmap), it expects the recorded one; the step's
 * message says so, with the kernel's reason.  Otherwise @st itself.
 */
static const struct step *kernel_adjusted(struct run *r, const struct step *st, int reports_wb,
					  int matrix_errno, struct step_result *sr)
{
	const struct kernel_expect *ke = step_on_kernel(r, st);
	int want = st->expect.set ? st->expect.err[r->fs] : EXPECT_UNSET;

	if (ke) {
		r->adjusted = *st;
		if (ke->expect.set && ke->expect.err[r->fs] != EXPECT_UNSET) {
			r->adjusted.expect.set = 1;
			r->adjusted.expect.err[r->fs] = ke->expect.err[r->fs];
		}
		if (ke->expect_content[r->fs] != CONTENT_UNSET)
			r->adjusted.expect_content[r->fs] = ke->expect_content[r->fs];
		snprintf(r->adjusted.why, sizeof(r->adjusted.why), "%s", ke->why);
		add_msg(sr->msg, sizeof(sr->msg), "on %s (on_kernel %s): %s", kernel_name(r->cfg),
			ke->release, ke->why);
		return &r->adjusted;
	}
	if (want == -2)		/* $errno */
		want = matrix_errno;
	if (!reports_wb || want <= 0)
		return st;
	for (int m = 0; m < r->nrecmap; m++) {
		if (r->recmap[m].from != want)
			continue;
		r->adjusted = *st;
		r->adjusted.expect.err[r->fs] = r->recmap[m].to;
		add_msg(sr->msg, sizeof(sr->msg), "the scenario's %s is %s on %s: %s",
			wb_errno_name(want), wb_errno_name(r->recmap[m].to),
			kernel_name(r->cfg),
			r->recmap[m].why);
		return &r->adjusted;
	}
	return st;
}

static int status_exists(const struct wb_kernel *k, const struct instance *inst,
			 const struct step *st, char *why, size_t len)
{
	const char *name = st->fault.status;

	if (st->op != OP_FAULT || !name[0])
		return 1;
	if (!strcmp(name, "$status"))
		name = inst->status;
	return !name || wb_kernel_has_status(k, name, why, len);
}

static int instance_statuses_exist(const struct wb_kernel *k, const struct instance *inst,
				   char *why, size_t len)
{
	const struct scenario *sc = inst->sc;

	if (!k)
		return 1;
	if (inst->status && !wb_kernel_has_status(k, inst->status, why, len))
		return 0;
	for (int i = 0; i < sc->nsteps; i++)
		if (!status_exists(k, inst, &sc->steps[i], why, len))
			return 0;
	for (int i = 0; sc->prog && i < sc->prog->nfaults; i++)
		if (!status_exists(k, inst, &sc->prog->faults[i], why, len))
			return 0;
	return 1;
}

int exec_instance(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res)
{
	struct run *r = calloc(1, sizeof(*r));
	const struct scenario *sc = inst->sc;
	int nprocs = 1, fatal = 0;
	double t0 = now_s();
	const struct wb_status *mbs = inst->status ? wb_status_by_name(inst->status) : NULL;
	int matrix_errno = mbs ? mbs->err : 0;
	char *trace_text = NULL;
	struct wb_tev *ev = NULL;
	struct xc_attr *attr = NULL;	/* the step's data faults on known inodes */
	int nev = 0, capev = 0, sb_trace = 0;
	size_t capattr = 0;
	struct evidence evd;
	int evd_on = 0, rc_setup;
	uint64_t loop_t0 = 0;
	double t_td;

	memset(res, 0, sizeof(*res));
	res->inst = inst;
	/* a status this kernel lacks: dm-wberr would refuse the rule by
	 * name; nothing about writeback errors to judge */
	if (!instance_statuses_exist(cfg->kernel, inst, res->reason, sizeof(res->reason))) {
		res->verdict = R_SKIP;
		free(r);
		return 0;
	}
	if (sc->dax && !cfg->pmem) {
		snprintf(res->reason, sizeof(res->reason),
			 "no persistent memory in this guest (qemu/run-guest --pmem, $WBERR_PMEM)");
		res->verdict = R_SKIP;
		free(r);
		return 0;
	}
	if (sc->prog) {
		free(r);
		return program_run(cfg, inst, res);
	}
	res->nsteps = sc->nsteps;
	res->steps = calloc((size_t)sc->nsteps, sizeof(*res->steps));
	if (!r || !res->steps)
		return -1;
	r->cfg = cfg;
	r->inst = inst;
	r->sc = sc;
	r->res = res;
	r->fs = inst->fs;
	r->st = (struct stack){ .dmname = cfg->dmname, .disk = sc->dax ? cfg->pmem : cfg->disk, .mnt = cfg->mnt,
				.seed = cfg->seed, .sc = sc, .fs = inst->fs,
				.data_mode = inst->data_mode };
	if (faults_init(&r->fl, cfg->dmname)) {
		free(r);
		return -1;
	}
	oracle_init(&r->o, r->fs);
	for (int i = 0; i < sc->nsteps; i++)
		nprocs += sc->steps[i].op == OP_FORK;
	if (nprocs > AGENT_MAX) {
		snprintf(res->reason, sizeof(res->reason), "too many processes (%d > %d)", nprocs, AGENT_MAX);
		res->verdict = R_FAIL;
		goto out;
	}
	rc_setup = stack_setup(&r->st, res->reason, sizeof(res->reason));
	res->phase[PH_DEVICE] = r->st.secs_device;
	res->phase[PH_MKFS] = r->st.secs_mkfs;
	res->phase[PH_MOUNT] = r->st.secs_mount;
	if (rc_setup) {
		res->verdict = R_FAIL;
		goto out;
	}
	if (agents_start(&r->ag, sc, nprocs, cfg->mnt, r->fs == FS_RAW ? r->st.wdev : r->st.dev)) {
		snprintf(res->reason, sizeof(res->reason), "cannot start processes: %s", strerror(errno));
		res->verdict = R_FAIL;
		goto out;
	}
	snprintf(r->pname[0], NAME_LEN, "main");
	r->sock_of[0] = 0;
	r->nproc = 1;
	r->nsock = 1;
	r->alive[0] = 1;
	if (cfg->tracefs && (sb_trace = wb_tracefs_start(cfg->tracefs, 8192, NULL)) < 0) {
		snprintf(res->reason, sizeof(res->reason), "tracefs setup failed at %s", cfg->tracefs);
		res->verdict = R_FAIL;
		goto out;
	}
	if (cfg->evidence) {
		evd_on = !evidence_open(&evd, cfg->evidence, inst->id);
		if (!evd_on)
			fprintf(stderr, "wberr-run: cannot write evidence under %s: %s\n", cfg->evidence,
				strerror(errno));
	}
	res->verdict = R_PASS;
	for (int i = 0; i < sc->nsteps && !fatal; i++) {
		const struct step *st = &sc->steps[i], *judged;
		struct step_result *sr = &res->steps[i];
		struct agent_resp ar;
		struct or_pred pred;
		struct verdict v;
		struct xc_step xs = { .step = i };
		int log_lo, nondata = 0, sync_op, dio_step, xc_ok;
		uint64_t t0, t1;
		char what[128];

		describe_step(st, what, sizeof(what));
		sync_op = oracle_is_sync(&r->o, st);
		dio_step = oracle_is_dio_write(&r->o, st);
		if (cfg->tracefs)
			mark_step(r, st, 'B', i);
		t0 = now_ns();
		if (!loop_t0)
			loop_t0 = t0;
		if (run_step(r, i, sr, &ar) < 0)
			fatal = 1;
		t1 = now_ns();
		res->phase[PH_STEPS] += (double)(t1 - t0) / 1e9;
		sr->ran = 1;
		if (cfg->tracefs)
			mark_step(r, st, 'E', i);
		/* what the device failed during the step */
		log_lo = r->fl.nlog;
		if (faults_fetch_log(&r->fl))
			add_msg(sr->msg, sizeof(sr->msg), "cannot read the fault log");
		nev = 0;
		free(trace_text);
		trace_text = NULL;
		if (cfg->tracefs && (trace_text = wb_tracefs_take(cfg->tracefs)))
			trace_parse(trace_text, &ev, &nev, &capev);
		if (r->fl.nlog > log_lo)
			refresh_extents(r);
		/* the structural change first (an open's inode number is needed to
		 * attribute by trace), then the recorded errors, then the check */
		if (st->op == OP_OPEN || st->op == OP_REOPEN)
			model_update(r, st, sr, &ar);
		for (int k = log_lo; k < r->fl.nlog; k++) {
			const struct wb_fault *e = &r->fl.log[k];
			int ino = -1;

			res->nfaults++;
			if (!e->err)
				continue;	/* dropped: completed without error */
			if (!is_data_write(e)) {
				if (strcmp(e->opclass, "read"))
					nondata++;
				add_msg(sr->msg, sizeof(sr->msg), "fault #%" PRIu64 " %s %s sector %" PRIu64 "+%" PRIu64 " %s (not file data)",
					e->seq, e->opclass, e->flags, e->sector, e->nr, e->status);
				continue;
			}
			if (dio_step) {
				add_msg(sr->msg, sizeof(sr->msg), "fault #%" PRIu64 " %s sector %" PRIu64 "+%" PRIu64 " %s on the O_DIRECT write itself",
					e->seq, e->opclass, e->sector, e->nr, e->status);
				continue;
			}
			if (r->fs == FS_RAW)
				ino = oracle_inode(&r->o, "@dev", 1);
			else
				ino = inode_by_sector(r, e->sector, e->nr);
			if (ino < 0) {
				/* not in any extent we know: ask the trace which inode got it */
				for (int t = 0; t < nev && ino < 0; t++)
					if (ev[t].kind == WB_TEV_SET)
						ino = inode_by_ino(r, ev[t].ino);
			}
			if (ino < 0) {
				nondata++;
				add_msg(sr->msg, sizeof(sr->msg), "fault #%" PRIu64 " write sector %" PRIu64 "+%" PRIu64 " %s hit no tracked file (metadata?)",
					e->seq, e->sector, e->nr, e->status);
				continue;
			}
			{
				const char *fact = NULL;
				int rec = wb_kernel_data_errno(cfg->kernel, fs_names[r->fs], e->err, &fact);
				int traced = -1;

				if (fact && rec != e->err) {
					int m = 0;

					while (m < r->nrecmap && r->recmap[m].from != e->err)
						m++;
					if (m == r->nrecmap && m < (int)(sizeof(r->recmap) / sizeof(r->recmap[0]))) {
						r->recmap[m].from = e->err;
						r->recmap[m].to = rec;
						r->recmap[m].why = fact;
						r->nrecmap++;
					}
				}
				if (fact) {
					char note[PATH_LEN + 96];

					snprintf(note, sizeof(note), "%s records %s on %s:",
						 kernel_name(cfg),
						 wb_errno_name(rec), oracle_inode_path(&r->o, ino));
					if (!strstr(sr->msg, note))
						add_msg(sr->msg, sizeof(sr->msg), "%s %s", note, fact);
				}
				/* a patched kernel traces the errno it records: the
				 * model follows the kernel, and says where it differs
				 * from the kernel facts (lib/c/wb_kernel.c) */
				for (int t = 0; t < nev; t++)
					if (ev[t].kind == WB_TEV_SET && r->in[ino].known &&
					    ev[t].ino == r->in[ino].ino && ev[t].err > 0)
						traced = ev[t].err;
				if (traced > 0 && traced != rec) {
					char note[PATH_LEN + 96];

					snprintf(note, sizeof(note), "kernel records %s on %s where the kernel facts say %s",
						 wb_errno_name(traced), oracle_inode_path(&r->o, ino), wb_errno_name(rec));
					if (!strstr(sr->msg, note))
						add_msg(sr->msg, sizeof(sr->msg), "%s", note);
					rec = traced;
				}
				oracle_record(&r->o, ino, rec);
			}
			r->in[ino].last_log = k + 1;
			/* cross-check (xc_step): the kernel must have recorded it on that inode */
			if (r->in[ino].known) {
				if (xs.nattr == capattr) {
					struct xc_attr *na = realloc(attr, (capattr * 2 + 8) * sizeof(*na));

					if (!na)
						continue;
					attr = na;
					capattr = capattr * 2 + 8;
				}
				attr[xs.nattr++] = (struct xc_attr){ .f = e, .path = oracle_inode_path(&r->o, ino),
								     .ino = r->in[ino].ino };
			}
		}
		if (st->rec_path[0]) {
			int ino = oracle_inode(&r->o, st->rec_path, 0);

			if (ino >= 0) {
				oracle_record(&r->o, ino, st->rec_err);
				add_msg(sr->msg, sizeof(sr->msg), "the filesystem records %s on %s (scenario: %s)",
					wb_errno_name(st->rec_err), st->rec_path, st->why);
			}
		}
		memset(&pred, 0, sizeof(pred));
		if (sync_op && !sr->err && sr->ret < 0)
			sr->err = EIO;
		judged = kernel_adjusted(r, st, sync_op && !dio_step, matrix_errno, sr);
		if (sync_op && oracle_sync(&r->o, st->op, st->proc, st->fd, st->flags, &pred) == 0 && pred.valid) {
			sr->checked = 1;
			res->nchecked++;
			res->nreported += sr->err != 0;
			oracle_judge(&pred, sr->err, judged, r->fs, matrix_errno, nondata, &v);
		} else {
			oracle_judge(NULL, sr->err, judged, r->fs, matrix_errno, nondata, &v);
		}
		sr->explicit_ = v.explicit_;
		sr->expected = v.expected;
		sr->pass = v.pass;
		if (v.msg[0])
			add_msg(sr->msg, sizeof(sr->msg), "%s", v.msg);
		if (st->has_content && !sr->err)
			judge_content(judged, r->fs, sr);
		if ((st->op == OP_LOAD || st->op == OP_STORE) && sr->err == EFAULT)
			add_msg(sr->msg, sizeof(sr->msg), "SIGBUS");
		if (sc->dax && st->op == OP_OPEN && !sr->err && st->path[0] != '@' && !dax_in_effect(r, st, sr))
			sr->pass = 0;
		if (sr->err && pred.valid && pred.err && pred.inode >= 0) {
			int k = r->in[pred.inode].last_log - 1;

			if (k >= 0)
				add_msg(sr->msg, sizeof(sr->msg), "from fault #%" PRIu64 " %s sector %" PRIu64 "+%" PRIu64 " %s",
					r->fl.log[k].seq, r->fl.log[k].opclass, r->fl.log[k].sector, r->fl.log[k].nr, r->fl.log[k].status);
		}
		/* the cross-checks: every attributed fault left a set on its
		 * inode, the trace agrees with the model's cursor move, an error
		 * has a logged fault behind it */
		xs.err = sr->err;
		xs.explicit_ = v.explicit_;
		xs.fault_op = st->op == OP_FAULT || st->op == OP_UNFAULT;
		xs.nlog = (unsigned long)r->fl.nlog;
		xs.traced = cfg->tracefs != NULL;
		xs.sb_traced = sb_trace > 0;
		xs.attr = attr;
		xs.cursor = pred.valid && pred.inode >= 0 && r->in[pred.inode].known;
		xs.pred_ino = xs.cursor ? r->in[pred.inode].ino : 0;
		xs.pred = pred;
		xc_ok = xc_step(&xs, ev, nev, sr->msg, sizeof(sr->msg));
		sr->pass &= xc_ok;
		if (evd_on)
			evidence_step(&evd, &(struct evidence_step){
				.xs = &xs, .xc_ok = xc_ok, .op = op_names[st->op], .proc = st->proc,
				.what = what, .proc_index = proc_index(r, st->proc), .t0 = t0, .t1 = t1,
				.ret = (int)sr->ret, .faults = r->fl.log + log_lo,
				.nfaults = (size_t)(r->fl.nlog - log_lo), .trace = trace_text });
		if (st->op != OP_OPEN && st->op != OP_REOPEN)
			model_update(r, st, sr, &ar);
		if (!sr->pass) {
			res->verdict = R_FAIL;
			if (!res->reason[0])
				snprintf(res->reason, sizeof(res->reason), "step %d %.60s (%.100s:%d): %.700s", i + 1, what,
					 sc->file, st->line, sr->msg);
		}
		if (cfg->verbose)
			fprintf(stderr, "  [%s] step %d %-24s -> %-10s %s %s\n", inst->id, i + 1, what,
				wb_errno_name(sr->err), sr->pass ? "ok" : "FAIL", sr->msg);
	}
	if (fatal && res->verdict == R_PASS)
		res->verdict = R_FAIL;
	/* the fault log, the trace, the model and the cross-checks */
	if (loop_t0)
		res->phase[PH_CHECK] = (double)(now_ns() - loop_t0) / 1e9 - res->phase[PH_STEPS];
out:
	t_td = now_s();
	teardown(r);
	res->phase[PH_TEARDOWN] = now_s() - t_td;
	if (evd_on && evidence_close(&evd, inst->id, fs_names[inst->fs], inst->status, cfg->seed,
				     cfg->tracefs != NULL, sb_trace > 0))
		fprintf(stderr, "wberr-run: evidence of %s in %s is incomplete\n", inst->id, evd.dir);
	free(trace_text);
	free(ev);
	free(attr);
	faults_free(&r->fl);
	free(r);
	res->secs = now_s() - t0;
	res->phase[PH_OTHER] = res->secs;
	for (int p = 0; p < PH_OTHER; p++)
		res->phase[PH_OTHER] -= res->phase[p];
	if (res->phase[PH_OTHER] < 0)
		res->phase[PH_OTHER] = 0;
	return 0;
}
