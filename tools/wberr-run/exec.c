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
#include "report.h"
#include "agent.h"
#include "backend.h"
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
	struct backend bk;	/* the real driver's device and injector (backend.h) */
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
		int last_log;	/* index of the last fault attributed to it */
	} in[OR_MAX_INODES];
	/* the model's inodes for the attributor, by model index: inode number
	 * (once opened) and every extent each has had */
	struct wb_files files;
	uint32_t major, minor;	/* st_dev of the file system under test */
	int sb_trace;		/* the kernel traces f_sb_err moves (patch 0005) */
	struct evidence evd;
	int evd_on;
	uint64_t loop_t0;
	int fatal;
	int matrix_errno;	/* the instance's status's errno ($errno) */
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

/* the model's inode @i as the attributor's file @i */
static void file_of_inode(struct run *r, int i)
{
	wb_files_set(&r->files, (unsigned int)i, r->in[i].known ? r->in[i].ino : 0,
		     oracle_inode_path(&r->o, i));
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
		if (n > 0 && (unsigned int)i >= r->files.nfiles)
			file_of_inode(r, i);
		for (int k = 0; k < n; k++)
			wb_files_add_extent(&r->files, (unsigned int)i, e[k].first, e[k].last);
	}
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
	file_of_inode(r, i);
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

/* the ops the op table gives to the runner itself (ops.h's rn_<name>): 0,
 * or <0 when the instance cannot go on */
typedef int runner_exec(struct run *r, const struct step *st, struct step_result *sr);

static int rn_sync(struct run *r, const struct step *st, struct step_result *sr)
{
	(void)r, (void)st, (void)sr;
	sync();
	return 0;
}

static int rn_drop_caches(struct run *r, const struct step *st, struct step_result *sr)
{
	char v[4];

	(void)r;
	snprintf(v, sizeof(v), "%u", st->value);
	sync();
	if (wb_write_file("/proc/sys/vm/drop_caches", v))
		sr->err = errno;
	return 0;
}

static int rn_umount(struct run *r, const struct step *st, struct step_result *sr)
{
	(void)st;
	sr->err = -stack_umount(&r->st);
	return 0;
}

static int rn_mount(struct run *r, const struct step *st, struct step_result *sr)
{
	(void)st;
	sr->err = -stack_mount(&r->st);
	return 0;
}

static int rn_unlink(struct run *r, const struct step *st, struct step_result *sr)
{
	char path[PATH_LEN * 2];

	snprintf(path, sizeof(path), "%s/%s", r->cfg->mnt, st->path);
	if (unlink(path))
		sr->err = errno;
	return 0;
}

static int rn_sleep(struct run *r, const struct step *st, struct step_result *sr)
{
	(void)r, (void)sr;
	usleep(st->value * 1000u);
	return 0;
}

static int rn_fault(struct run *r, const struct step *st, struct step_result *sr)
{
	int rc = faults_program(&r->fl, &r->st, &st->fault, r->inst->status, sr->msg, sizeof(sr->msg));

	sr->err = rc < 0 ? -rc : 0;
	return 0;
}

static int rn_unfault(struct run *r, const struct step *st, struct step_result *sr)
{
	int rc = faults_remove(&r->fl, st->fault.id, sr->msg, sizeof(sr->msg));

	sr->err = rc < 0 ? -rc : 0;
	return 0;
}

static int rn_clear_faults(struct run *r, const struct step *st, struct step_result *sr)
{
	(void)st;
	if (faults_clear(&r->fl))
		sr->err = EINVAL;
	return 0;
}

static int rn_badblocks(struct run *r, const struct step *st, struct step_result *sr)
{
	int rc = stack_badblocks(&r->st, st->path, (uint64_t)st->offset, (uint64_t)st->size, sr->msg,
				 sizeof(sr->msg));

	sr->err = rc < 0 ? -rc : 0;
	return 0;
}

/* backend thin: the pool's data grown to the step's size */
static int rn_thin_extend(struct run *r, const struct step *st, struct step_result *sr)
{
	if (backend_thin_extend(&r->bk, (unsigned int)(st->size >> 20), sr->msg, sizeof(sr->msg)))
		sr->err = EIO;
	return 0;
}

#define RUNNER_EXEC(e, name, keys, who, sync, ftab, field, hook, fd, exec) \
	[OP_##e] = OP_EXEC(RUNNER, who, exec),
static runner_exec *const runner_execs[OP__N] = { WBERR_OPS(RUNNER_EXEC) };

/* an agent's op: the call in the step's process, and for fork and exit
 * the runner's own bookkeeping of its processes; <0 when it cannot go on */
static int agent_step(struct run *r, int i, struct step_result *sr, struct agent_resp *ar)
{
	const struct step *st = &r->sc->steps[i];
	int sock = sock_of(r, st->proc), fork = st->op == OP_FORK;

	if (fork && (r->nsock >= r->ag.n || r->nproc >= OR_MAX_PROCS)) {
		add_msg(sr->msg, sizeof(sr->msg), "too many processes");
		return -1;
	}
	if (sock < 0 || !r->alive[sock]) {
		sr->err = ESRCH;
		add_msg(sr->msg, sizeof(sr->msg), "no live process '%s'", st->proc);
		return fork ? -1 : 0;
	}
	if (agent_call(&r->ag, sock, i, fork ? r->nsock : -1, ar, fork ? 120000 : 300000)) {
		add_msg(sr->msg, sizeof(sr->msg), "process %s did not answer (hung or died)", st->proc);
		return -1;
	}
	sr->ret = ar->ret;
	sr->err = ar->err;
	sr->content = ar->content;
	if (st->op == OP_EXIT)
		r->alive[sock] = 0;
	if (fork && !ar->err) {
		snprintf(r->pname[r->nproc], NAME_LEN, "%s", st->fd2);
		r->sock_of[r->nproc++] = r->nsock;
		r->alive[r->nsock++] = 1;
	}
	return 0;
}

/* run the step itself, in the runner or in its process (the op table's
 * who and executor); returns <0 when the instance cannot go on */
static int run_step(struct run *r, int i, struct step_result *sr, struct agent_resp *ar)
{
	const struct step *st = &r->sc->steps[i];

	memset(ar, 0, sizeof(*ar));
	if (op_table[st->op].who == OPW_RUNNER)
		return runner_execs[st->op](r, st, sr);
	return agent_step(r, i, sr, ar);
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

/* the blk_status name behind @name on the instance's backend: a real
 * driver's own status is the one its table says the kernel chooses */
static const char *blk_name(const struct instance *inst, const char *name)
{
	const struct wb_native *n = name ? wb_native_by_name(inst->backend, name) : NULL;

	return n ? n->blk : name;
}

static int status_exists(const struct wb_kernel *k, const struct instance *inst,
			 const struct step *st, char *why, size_t len)
{
	const char *name = st->fault.rule.status;

	if (st->op != OP_FAULT || !name[0])
		return 1;
	if (!strcmp(name, "$status"))
		name = inst->status;
	name = blk_name(inst, name);
	return !name || wb_kernel_has_status(k, name, why, len);
}

static int instance_statuses_exist(const struct wb_kernel *k, const struct instance *inst,
				   char *why, size_t len)
{
	const struct scenario *sc = inst->sc;

	if (!k)
		return 1;
	if (inst->status && !wb_kernel_has_status(k, blk_name(inst, inst->status), why, len))
		return 0;
	for (int i = 0; i < sc->nsteps; i++)
		if (!status_exists(k, inst, &sc->steps[i], why, len))
			return 0;
	for (int i = 0; sc->prog && i < sc->prog->nfaults; i++)
		if (!status_exists(k, inst, &sc->prog->faults[i], why, len))
			return 0;
	return 1;
}

/* one step on its way through the pipeline: run, collect, attribute, predict, judge, record */
struct step_ctx {
	int i;
	const struct step *st, *judged;
	struct step_result *sr;
	struct agent_resp ar;
	struct or_pred pred;
	struct verdict v;
	struct xc_step xs;
	struct xc_attr *attr;	/* the step's data faults on known inodes */
	size_t capattr;
	int log_lo, nondata, sync_op, dio_step, xc_ok;
	int unexplained;	/* a real driver's failed completions no armed fault explains */
	uint64_t t0, t1;
	char what[128];
	char *text;		/* the trace taken after the step */
	struct wb_trace t;
	struct wb_attr a;	/* its calls, and the step's faults against the model's files */
};

/* run: the call itself, between its two trace markers */
static void step_run(struct run *r, struct step_ctx *c)
{
	describe_step(c->st, c->what, sizeof(c->what));
	c->sync_op = oracle_is_sync(&r->o, c->st);
	c->dio_step = oracle_is_dio_write(&r->o, c->st);
	if (r->cfg->tracefs)
		mark_step(r, c->st, 'B', c->i);
	c->t0 = now_ns();
	if (!r->loop_t0)
		r->loop_t0 = c->t0;
	if (run_step(r, c->i, c->sr, &c->ar) < 0)
		r->fatal = 1;
	c->t1 = now_ns();
	c->sr->secs = (double)(c->t1 - c->t0) / 1e9;
	r->res->phase[PH_STEPS] += c->sr->secs;
	c->sr->ran = 1;
	if (r->cfg->tracefs)
		mark_step(r, c->st, 'E', c->i);
}

/*
 * collect: what the device failed during the step and the trace taken
 * after it, parsed once and attributed once (lib/c wb_attr): the step's
 * call window, and each fault against the model's files.  The structural
 * change of an open comes first: the inode number it opened names its
 * file for the attributor.
 */
static void step_collect(struct run *r, struct step_ctx *c)
{
	c->log_lo = r->fl.nlog;
	if (faults_fetch_log(&r->fl))
		add_msg(c->sr->msg, sizeof(c->sr->msg), "cannot read the fault log");
	if (r->cfg->tracefs)
		c->text = wb_tracefs_take(r->cfg->tracefs);
	if (xc_attribute(&c->t, &c->a, c->text))
		add_msg(c->sr->msg, sizeof(c->sr->msg), "out of memory for the trace");
	/* a real driver's fault log: the failed completions of that trace */
	c->unexplained = faults_from_trace(&r->fl, &c->t, c->sr->msg, sizeof(c->sr->msg));
	if (r->fl.nlog > c->log_lo)
		refresh_extents(r);
	if (c->st->op == OP_OPEN || c->st->op == OP_REOPEN)
		model_update(r, c->st, c->sr, &c->ar);
	if (wb_attr_faults(&c->a, r->fl.log + c->log_lo, (size_t)(r->fl.nlog - c->log_lo), &r->files,
			   r->major, r->minor))
		add_msg(c->sr->msg, sizeof(c->sr->msg), "out of memory for the trace");
}

/* the model inode a fault of the step (index @k in the step's) landed on, -1 */
static int fault_inode(struct run *r, const struct step_ctx *c, size_t k)
{
	if (r->fs == FS_RAW)
		return oracle_inode(&r->o, "@dev", 1);
	if (!c->a.file_of)
		return -1;
	for (unsigned int f = 0; f < r->files.nfiles; f++)
		if (wb_attr_hit(&c->a, k, f))
			return (int)f;
	/* not in any extent we know: the set the attributor gave it names the inode */
	for (size_t e = 0; e < c->t.n; e++)
		if (c->a.set_fault[e] == (long)k && c->a.file_of[e] >= 0 && r->in[c->a.file_of[e]].known)
			return (int)c->a.file_of[e];
	return -1;
}

/* a kernel fact (lib/c wb_kernel) for the errno this kernel records for @e on @ino */
static int kernel_fact(struct run *r, struct step_ctx *c, const struct wb_fault *e, int ino)
{
	const char *fact = NULL;
	int rec = wb_kernel_data_errno(r->cfg->kernel, fs_names[r->fs], e->err, &fact);
	char note[PATH_LEN + 96];
	int m = 0;

	if (fact && rec != e->err) {
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
		snprintf(note, sizeof(note), "%s records %s on %s:", kernel_name(r->cfg), wb_errno_name(rec),
			 oracle_inode_path(&r->o, ino));
		if (!strstr(c->sr->msg, note))
			add_msg(c->sr->msg, sizeof(c->sr->msg), "%s %s", note, fact);
	}
	return rec;
}

/*
 * The errno the kernel records for fault @e on @ino: a patched kernel
 * traces it, and the model follows the kernel, saying where it differs
 * from the kernel facts (lib/c/wb_kernel.c).
 */
static int recorded_errno(struct run *r, struct step_ctx *c, const struct wb_fault *e, int ino)
{
	int rec = kernel_fact(r, c, e, ino), traced = -1;
	char note[PATH_LEN + 96];

	for (size_t k = 0; k < c->t.n; k++)
		if (c->t.v[k].kind == WB_EV_SET && r->in[ino].known && c->t.v[k].es.ino == r->in[ino].ino &&
		    c->t.v[k].es.err > 0)
			traced = c->t.v[k].es.err;
	if (traced > 0 && traced != rec) {
		snprintf(note, sizeof(note), "kernel records %s on %s where the kernel facts say %s",
			 wb_errno_name(traced), oracle_inode_path(&r->o, ino), wb_errno_name(rec));
		if (!strstr(c->sr->msg, note))
			add_msg(c->sr->msg, sizeof(c->sr->msg), "%s", note);
		rec = traced;
	}
	return rec;
}

static void add_attr(struct step_ctx *c, const struct wb_fault *e, const char *path, unsigned long ino)
{
	if (c->xs.nattr == c->capattr) {
		struct xc_attr *na = realloc(c->attr, (c->capattr * 2 + 8) * sizeof(*na));

		if (!na)
			return;
		c->attr = na;
		c->capattr = c->capattr * 2 + 8;
	}
	c->attr[c->xs.nattr++] = (struct xc_attr){ .f = e, .path = path, .ino = ino };
}

/* one fault of the step: its inode, the errno recorded there, the model told */
static void attribute_fault(struct run *r, struct step_ctx *c, int k)
{
	const struct wb_fault *e = &r->fl.log[k];
	struct step_result *sr = c->sr;
	int ino;

	r->res->nfaults++;
	if (!e->err)
		return;		/* dropped: completed without error */
	if (is_data_write(e) && !r->res->observed[0])
		snprintf(r->res->observed, sizeof(r->res->observed), "%s", e->status);
	if (!is_data_write(e)) {
		if (strcmp(e->opclass, "read"))
			c->nondata++;
		add_msg(sr->msg, sizeof(sr->msg), "fault #%" PRIu64 " %s %s sector %" PRIu64 "+%" PRIu64 " %s (not file data)",
			e->seq, e->opclass, e->flags, e->sector, e->nr, e->status);
		return;
	}
	if (c->dio_step) {
		add_msg(sr->msg, sizeof(sr->msg), "fault #%" PRIu64 " %s sector %" PRIu64 "+%" PRIu64 " %s on the O_DIRECT write itself",
			e->seq, e->opclass, e->sector, e->nr, e->status);
		return;
	}
	ino = fault_inode(r, c, (size_t)(k - c->log_lo));
	if (ino < 0) {
		c->nondata++;
		add_msg(sr->msg, sizeof(sr->msg), "fault #%" PRIu64 " write sector %" PRIu64 "+%" PRIu64 " %s hit no tracked file (metadata?)",
			e->seq, e->sector, e->nr, e->status);
		return;
	}
	oracle_record(&r->o, ino, recorded_errno(r, c, e, ino));
	r->in[ino].last_log = k + 1;
	/* cross-check (xc_step): the kernel must have recorded it on that inode */
	if (r->in[ino].known)
		add_attr(c, e, oracle_inode_path(&r->o, ino), r->in[ino].ino);
}

/* attribute: every fault of the step to the model, and the scenario's own records */
static void step_attribute(struct run *r, struct step_ctx *c)
{
	const struct step *st = c->st;

	for (int k = c->log_lo; k < r->fl.nlog; k++)
		attribute_fault(r, c, k);
	if (st->rec_path[0]) {
		int ino = oracle_inode(&r->o, st->rec_path, 0);

		if (ino >= 0) {
			oracle_record(&r->o, ino, st->rec_err);
			add_msg(c->sr->msg, sizeof(c->sr->msg), "the filesystem records %s on %s (scenario: %s)",
				wb_errno_name(st->rec_err), st->rec_path, st->why);
		}
	}
}

/* predict: what the model says a sync call returns, and the step as judged on this kernel */
static void step_predict(struct run *r, struct step_ctx *c)
{
	const struct step *st = c->st;
	struct step_result *sr = c->sr;

	memset(&c->pred, 0, sizeof(c->pred));
	if (c->sync_op && !sr->err && sr->ret < 0)
		sr->err = EIO;
	c->judged = kernel_adjusted(r, st, c->sync_op && !c->dio_step, r->matrix_errno, sr);
	if (c->sync_op && oracle_sync(&r->o, st->op, st->proc, st->fd, st->flags, &c->pred) == 0 && c->pred.valid) {
		sr->checked = 1;
		r->res->nchecked++;
		r->res->nreported += sr->err != 0;
	}
}

/* the model's verdict on the call, its content, DAX, and the fault behind an error */
static void judge_model(struct run *r, struct step_ctx *c)
{
	const struct step *st = c->st;
	struct step_result *sr = c->sr;

	oracle_judge(sr->checked ? &c->pred : NULL, sr->err, c->judged, r->fs, r->matrix_errno, c->nondata, &c->v);
	sr->explicit_ = c->v.explicit_;
	sr->expected = c->v.expected;
	sr->pass = c->v.pass;
	if (c->v.msg[0])
		add_msg(sr->msg, sizeof(sr->msg), "%s", c->v.msg);
	if (st->has_content && !sr->err)
		judge_content(c->judged, r->fs, sr);
	if ((st->op == OP_LOAD || st->op == OP_STORE) && sr->err == EFAULT)
		add_msg(sr->msg, sizeof(sr->msg), "SIGBUS");
	if (r->sc->dax && st->op == OP_OPEN && !sr->err && st->path[0] != '@' && !dax_in_effect(r, st, sr))
		sr->pass = 0;
	if (sr->err && c->pred.valid && c->pred.err && c->pred.inode >= 0) {
		int k = r->in[c->pred.inode].last_log - 1;

		if (k >= 0)
			add_msg(sr->msg, sizeof(sr->msg), "from fault #%" PRIu64 " %s sector %" PRIu64 "+%" PRIu64 " %s",
				r->fl.log[k].seq, r->fl.log[k].opclass, r->fl.log[k].sector, r->fl.log[k].nr,
				r->fl.log[k].status);
	}
}

/*
 * judge: the model's verdict, then the cross-checks (every attributed
 * fault left a set on its inode, the trace agrees with the model's cursor
 * move, an error has a logged fault behind it)
 */
static void step_judge(struct run *r, struct step_ctx *c)
{
	struct xc_step *xs = &c->xs;

	judge_model(r, c);
	xs->step = c->i;
	xs->err = c->sr->err;
	xs->explicit_ = c->v.explicit_;
	xs->fault_op = c->st->op == OP_FAULT || c->st->op == OP_UNFAULT;
	xs->nlog = (unsigned long)r->fl.nlog;
	xs->traced = r->cfg->tracefs != NULL;
	xs->sb_traced = r->sb_trace > 0;
	xs->attr = c->attr;
	xs->cursor = c->pred.valid && c->pred.inode >= 0 && r->in[c->pred.inode].known;
	xs->pred_ino = xs->cursor ? r->in[c->pred.inode].ino : 0;
	xs->pred = c->pred;
	c->xc_ok = c->a.trace && xc_step(xs, &c->a, c->sr->msg, sizeof(c->sr->msg)) && !c->unexplained;
	c->sr->pass &= c->xc_ok;
}

/* record: the evidence, the model's structural change, the instance's verdict */
static void step_record(struct run *r, struct step_ctx *c)
{
	const struct step *st = c->st;
	struct step_result *sr = c->sr;

	if (r->evd_on)
		evidence_step(&r->evd, &(struct evidence_step){
			.xs = &c->xs, .xc_ok = c->xc_ok, .op = op_names[st->op], .proc = st->proc,
			.what = c->what, .proc_index = proc_index(r, st->proc), .t0 = c->t0, .t1 = c->t1,
			.ret = (int)sr->ret, .faults = r->fl.log + c->log_lo,
			.nfaults = (size_t)(r->fl.nlog - c->log_lo), .trace = c->text });
	if (st->op != OP_OPEN && st->op != OP_REOPEN)
		model_update(r, st, sr, &c->ar);
	if (!sr->pass) {
		r->res->verdict = R_FAIL;
		if (!r->res->reason[0])
			snprintf(r->res->reason, sizeof(r->res->reason), "step %d %.60s (%.100s:%d): %.700s",
				 c->i + 1, c->what, r->sc->file, st->line, sr->msg);
	}
	if (r->cfg->verbose)
		fprintf(stderr, "  [%s] step %d %-24s -> %-10s %s %s\n", r->inst->id, c->i + 1, c->what,
			wb_errno_name(sr->err), sr->pass ? "ok" : "FAIL", sr->msg);
}

static void one_step(struct run *r, int i)
{
	struct step_ctx c = { .i = i, .st = &r->sc->steps[i], .sr = &r->res->steps[i] };

	step_run(r, &c);
	step_collect(r, &c);
	step_attribute(r, &c);
	step_predict(r, &c);
	step_judge(r, &c);
	step_record(r, &c);
	wb_attr_free(&c.a);
	wb_trace_free(&c.t);
	free(c.text);
	free(c.attr);
}

/* a reason to skip the instance on this guest, into res->reason: 1, else 0 */
static int skipped(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res)
{
	if (!instance_statuses_exist(cfg->kernel, inst, res->reason, sizeof(res->reason)))
		return 1;
	/* a status this kernel lacks: dm-wberr would refuse the rule by
	 * name; nothing about writeback errors to judge */
	if (inst->sc->dax && !cfg->pmem) {
		snprintf(res->reason, sizeof(res->reason),
			 "no persistent memory in this guest (harness/run-guest --pmem, $WBERR_PMEM)");
		return 1;
	}
	if (inst->backend != WB_BK_DM_WBERR) {
		struct backend probe = { .kind = inst->backend, .nvme = cfg->nvme, .scratch = cfg->disk };

		if (!backend_probe(&probe, inst->sc->size_mb, res->reason, sizeof(res->reason)))
			return 1;
	}
	return 0;
}

/* st_dev of the file system under test */
static void stack_dev(struct run *r)
{
	struct stat sb;

	if (r->fs != FS_RAW && !stat(r->cfg->mnt, &sb)) {
		r->major = major(sb.st_dev);
		r->minor = minor(sb.st_dev);
	}
}

/* the device stack, the processes, the trace and the evidence: 0, or -1 with the reason */
static int setup(struct run *r)
{
	const struct exec_cfg *cfg = r->cfg;
	struct inst_result *res = r->res;
	int nprocs = 1, rc;

	for (int i = 0; i < r->sc->nsteps; i++)
		nprocs += r->sc->steps[i].op == OP_FORK;
	if (nprocs > AGENT_MAX) {
		snprintf(res->reason, sizeof(res->reason), "too many processes (%d > %d)", nprocs, AGENT_MAX);
		return -1;
	}
	rc = stack_setup(&r->st, res->reason, sizeof(res->reason));
	res->phase[PH_DEVICE] = r->st.secs_device;
	res->phase[PH_MKFS] = r->st.secs_mkfs;
	res->phase[PH_MOUNT] = r->st.secs_mount;
	if (rc)
		return -1;
	stack_dev(r);
	if (agents_start(&r->ag, r->sc, nprocs, cfg->mnt, r->fs == FS_RAW ? r->st.wdev : r->st.dev)) {
		snprintf(res->reason, sizeof(res->reason), "cannot start processes: %s", strerror(errno));
		return -1;
	}
	snprintf(r->pname[0], NAME_LEN, "main");
	r->sock_of[0] = 0;
	r->nproc = 1;
	r->nsock = 1;
	r->alive[0] = 1;
	if (cfg->tracefs && (r->sb_trace = wb_tracefs_start(cfg->tracefs, 8192, NULL)) < 0) {
		snprintf(res->reason, sizeof(res->reason), "tracefs setup failed at %s", cfg->tracefs);
		return -1;
	}
	/* a real driver's fault log is the trace's failed completions */
	if (cfg->tracefs && r->fl.bk && wb_tracefs_blk(cfg->tracefs, 1)) {
		snprintf(res->reason, sizeof(res->reason), "cannot trace the block layer's completions at %s: %s",
			 cfg->tracefs, strerror(errno));
		return -1;
	}
	if (!cfg->tracefs && r->fl.bk) {
		snprintf(res->reason, sizeof(res->reason), "backend %s needs the trace: its fault log is the "
			 "failed completions the block layer traces", wb_backends[r->fl.bk->kind].name);
		return -1;
	}
	if (cfg->evidence) {
		r->evd_on = !evidence_open(&r->evd, cfg->evidence, r->inst->id);
		if (!r->evd_on)
			fprintf(stderr, "wberr-run: cannot write evidence under %s: %s\n", cfg->evidence,
				strerror(errno));
	}
	return 0;
}

static struct run *run_new(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res)
{
	const struct scenario *sc = inst->sc;
	const struct wb_native *nat = inst->status ? wb_native_by_name(inst->backend, inst->status) : NULL;
	const struct wb_status *mbs = nat ? wb_status_by_name(nat->blk) :
				      inst->status ? wb_status_by_name(inst->status) : NULL;
	struct run *r = calloc(1, sizeof(*r));

	res->nsteps = sc->nsteps;
	res->steps = calloc((size_t)sc->nsteps, sizeof(*res->steps));
	if (!r || !res->steps || faults_init(&r->fl, cfg->dmname)) {
		free(r);
		return NULL;
	}
	r->cfg = cfg;
	r->inst = inst;
	r->sc = sc;
	r->res = res;
	r->fs = inst->fs;
	r->matrix_errno = mbs ? mbs->err : 0;
	r->bk = (struct backend){ .kind = inst->backend, .nvme = cfg->nvme, .scratch = cfg->disk };
	r->st = (struct stack){ .dmname = cfg->dmname, .disk = sc->dax ? cfg->pmem : cfg->disk, .mnt = cfg->mnt,
				.seed = cfg->seed, .sc = sc, .fs = inst->fs, .data_mode = inst->data_mode,
				.bk = inst->backend != WB_BK_DM_WBERR ? &r->bk : NULL };
	r->fl.bk = r->st.bk;
	oracle_init(&r->o, r->fs);
	return r;
}

/* the device stack down, the evidence closed, the time of each phase */
static void finish(struct run *r, double t0)
{
	struct inst_result *res = r->res;
	double t_td = now_s();

	teardown(r);
	res->phase[PH_TEARDOWN] = now_s() - t_td;
	res->fired = r->bk.fired;
	if (r->cfg->tracefs && r->fl.bk)
		wb_tracefs_blk(r->cfg->tracefs, 0);
	if (r->evd_on) {
		if (r->fs != FS_RAW)
			wb_files_save(&r->files, r->evd.dir, "files.txt");
		if (evidence_close(&r->evd, r->inst->id, fs_names[r->inst->fs], r->inst->status, r->cfg->seed,
				   r->cfg->tracefs != NULL, r->sb_trace > 0))
			fprintf(stderr, "wberr-run: evidence of %s in %s is incomplete\n", r->inst->id, r->evd.dir);
	}
	wb_files_free(&r->files);
	faults_free(&r->fl);
	result_set_secs(res, now_s() - t0);
}

/* set-up, the step loop, teardown */
int exec_instance(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res)
{
	double t0 = now_s();
	struct run *r;

	memset(res, 0, sizeof(*res));
	res->inst = inst;
	if (skipped(cfg, inst, res)) {
		res->verdict = R_SKIP;
		return 0;
	}
	if (inst->sc->prog)
		return program_run(cfg, inst, res);
	r = run_new(cfg, inst, res);
	if (!r)
		return -1;
	if (setup(r)) {
		res->verdict = R_FAIL;
	} else {
		res->verdict = R_PASS;
		for (int i = 0; i < r->sc->nsteps && !r->fatal; i++)
			one_step(r, i);
		if (r->fatal && res->verdict == R_PASS)
			res->verdict = R_FAIL;
		/* the fault log, the trace, the model and the cross-checks */
		if (r->loop_t0)
			res->phase[PH_CHECK] = (double)(now_ns() - r->loop_t0) / 1e9 - res->phase[PH_STEPS];
	}
	finish(r, t0);
	free(r);
	return 0;
}
