// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-run's evidence directory (evidence.c) and its replay (replay.c) on
 * the host:
 *  - writer -> reader: a synthetic instance written through the writer the
 *    live run uses reads back field for field, and replays clean;
 *  - the recorded fixtures (tests/evidence/, recorded in the guest by
 *    `wberr-run --evidence` on ext4 with kernel/patches applied) read back
 *    and written again give the same bytes, and replay clean;
 *  - planted violations, each an edit of one recorded file, are caught and
 *    named: a dropped set event, a cursor moved out of its call or to
 *    another errno, a cursor move the model did not expect, an error
 *    without a cause, a syncfs without its f_sb_err move; and evidence that
 *    contradicts itself is refused (exit 2);
 *  - program mode's recorded run (an object store under a fault aimed by
 *    sectors, issue 37) judged again by its own judge, clean, and planted:
 *    its set events dropped (silent), its cursor move dropped (lost).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "evidence.h"
#include "replay.h"
#include "wb_sys.h"
#include "wb_test.h"

#define FIXTURES TOOL_DIR "/tests/evidence"
#define FIDELITY "ext4_errno-fidelity_ioerr_"
#define SYNCFS "ext4_syncfs-sb-err"
/* program mode: an object store's commit fsync under a fault aimed by sectors (issue 37) */
#define OBJSTORE "ext4_objstore-commit-sectors-fault_ioerr_"

static char root[] = "/tmp/wberr-test-evidence.XXXXXX";
static const char *const files[] = { "meta.txt", "steps.txt", "faults.txt", "trace.txt", "recs.0000.bin", NULL };
static const char *const program_files[] = { "meta.txt", "plan.txt", "faults.txt", "trace.txt", "files.txt",
					      "files-after.txt", NULL };

/* "@dir/@sub/@name" (without @sub when NULL), in one of a few rotating buffers */
static char *path_in(const char *dir, const char *sub, const char *name)
{
	static char buf[4][8192];
	static int k;

	k = (k + 1) % 4;
	if (sub)
		snprintf(buf[k], sizeof(buf[k]), "%s/%s/%s", dir, sub, name);
	else
		snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

#define path_of(dir, name) path_in(dir, NULL, name)

static int write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fwrite(data, 1, len, f) == len ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

/* a copy of fixture @name's @list of files as @as under the scratch root; its path */
static const char *copy_files(const char *name, const char *as, const char *const *list)
{
	static char dir[4096];

	snprintf(dir, sizeof(dir), "%s/%s", root, as);
	mkdir(dir, 0755);
	for (size_t i = 0; list[i]; i++) {
		size_t len;
		char *data = wb_read_file(path_in(FIXTURES, name, list[i]), &len);

		if (!data || write_bytes(path_of(dir, list[i]), data, len))
			printf("# cannot copy %s/%s\n", name, list[i]);
		free(data);
	}
	return dir;
}

#define copy_fixture(name, as) copy_files(name, as, files)

/* the replay's TAP and exit status */
static char *replay(const char *dir, int *rc)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	*rc = replay_path(dir, f, 0);
	fclose(f);
	return out;
}

/*
 * Edits file @name of @dir: the first line holding @needle (the @nth, from
 * 1, with @nth > 1) is deleted, or replaced by @with, or moved after the
 * first line holding @after.  Returns 0 when @needle was found.
 */
static int edit(const char *dir, const char *name, const char *needle, int nth, const char *with,
		const char *after)
{
	char *text = wb_read_file(path_of(dir, name), NULL), *out, *line, *at = NULL, *cut;
	size_t len;
	int rc;

	if (!text)
		return -1;
	for (line = text; (line = strstr(line, needle)); line++)
		if (--nth <= 0) {
			at = line;
			break;
		}
	if (!at) {
		free(text);
		return -1;
	}
	while (at > text && at[-1] != '\n')
		at--;
	cut = strchr(at, '\n');
	cut = cut ? cut + 1 : at + strlen(at);
	len = strlen(text) + (with ? strlen(with) : 0) + 2;
	out = calloc(1, len);
	memcpy(out, text, (size_t)(at - text));
	if (with) {
		strcat(out, with);
		strcat(out, "\n");
	}
	if (after) {
		char *rest = cut, *a = strstr(rest, after), *end;

		if (!a) {
			free(text);
			free(out);
			return -1;
		}
		end = strchr(a, '\n');
		end = end ? end + 1 : a + strlen(a);
		strncat(out, rest, (size_t)(end - rest));
		strncat(out, at, (size_t)(cut - at));
		strcat(out, end);
	} else {
		strcat(out, cut);
	}
	rc = wb_write_file(path_of(dir, name), out) ? -1 : 0;
	free(text);
	free(out);
	return rc;
}

/* rewrites the call records of @dir, setting step @step's result to @err */
static int set_record_err(const char *dir, int step, int err)
{
	struct wb_recs rs;
	struct wb_rec_writer w;
	int found = 0;

	if (wb_recs_load(&rs, dir))
		return -1;
	for (unsigned int p = 0; p < EV_MAX_PROCS; p++) {
		int open = 0;

		for (size_t i = 0; i < rs.n; i++) {
			struct wb_rec r = rs.v[i];

			if (r.proc != p)
				continue;
			if (!open && wb_rec_open(&w, dir, p))
				return -1;
			open = 1;
			if (r.seq == (uint32_t)step) {
				r.ret = -1;
				r.err = err;
				found = 1;
			}
			w.seq = r.seq;
			wb_rec_put(&w, &r);
		}
		if (open)
			wb_rec_close(&w);
	}
	wb_recs_free(&rs);
	return found ? 0 : -1;
}

/* -------------------------------------------------- writer -> reader */

/* the synthetic instance: two fault log entries, and a trace per step (one without) */
static const char *const round_trip_faults[] = {
	"0 1000 1 write - 2048 8 ioerr",
	"1 2000 1 write - 4096 8 ok",
};
static const char *const round_trip_traces[] = {
	"# tracer: nop\n"
	"  wberr-run-71 [000] ..... 10.000000: tracing_mark_write: wb B 0 0 0\n"
	"  wberr-run-71 [000] ..... 10.000100: tracing_mark_write: wb E 0 0 0\n",
	NULL,	/* a step without trace text */
	"# tracer: nop\n"
	"  wberr-run-71 [000] ..... 10.000200: tracing_mark_write: wb B 0 0 2\n"
	"  kworker/0:1-9 [000] ..... 10.000300: filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0\n"
	"  wberr-run-80 [000] ..... 10.000400: file_check_and_advance_wb_err: file=0000 dev=253:0 ino=0xc old=0x0 new=0x1005\n"
	"  wberr-run-71 [000] ..... 10.000500: tracing_mark_write: wb E 1 0 2\n",
	"# tracer: nop\n"
	"  wberr-run-71 [000] ..... 10.000600: tracing_mark_write: wb B 1 0 3\n"
	"  wberr-run-71 [000] ..... 10.000700: tracing_mark_write: wb E 1 0 3",	/* no last newline */
};

/*
 * The synthetic instance through the writer the live run uses: open, a
 * fault, an fsync in a child that returns EIO (attributed to @f[0], the
 * model predicting it) and one that succeeds.  Its directory into @dir.
 */
static void write_synthetic(struct wb_fault f[2], char *dir, size_t size)
{
	struct xc_attr attr;
	struct evidence e;
	wb_fault_parse(round_trip_faults[0], &f[0]);
	wb_fault_parse(round_trip_faults[1], &f[1]);
	attr = (struct xc_attr){ .f = &f[0], .path = "d/f", .ino = 0xc };
	is_int(0, evidence_open(&e, root, "ext4/unit[ioerr]"), "writer: opens the instance's directory");
	for (int i = 0; i < 4; i++) {
		struct xc_step xs = { .step = i, .traced = 1, .fault_op = i == 1, .nlog = i < 2 ? 0 : 2 };
		static const char *const ops[] = { "open", "fault", "fsync", "fsync" };
		static const char *const whats[] = { "open(a)", "fault", "fsync(a) in child", "fsync(a) in child" };

		if (i == 2) {
			xs.err = EIO;
			xs.attr = &attr;
			xs.nattr = 1;
		}
		if (i >= 2) {
			xs.cursor = 1;
			xs.pred_ino = 0xc;
			xs.pred = (struct or_pred){ .valid = 1, .consumed = i == 2, .err = i == 2 ? EIO : 0,
						    .cur_before = i == 2 ? 0 : 0x1005, .cur_after = 0x1005 };
		}
		evidence_step(&e, &(struct evidence_step){
			.xs = &xs, .xc_ok = 1, .op = ops[i], .proc = i < 2 ? "main" : "child",
			.what = whats[i], .proc_index = i < 2 ? 0 : 1, .t0 = 100u + 10u * (unsigned)i,
			.t1 = 105u + 10u * (unsigned)i, .ret = i == 2 ? -1 : 0,
			.faults = i == 2 ? f : NULL, .nfaults = i == 2 ? 2 : 0, .trace = round_trip_traces[i] });
	}
	is_int(0, evidence_close(&e, "ext4/unit[ioerr]", "ext4", "ioerr", 7, 1, 0), "writer: closes");
	snprintf(dir, size, "%s/ext4_unit_ioerr_", root);
	is_str(dir, e.dir, "the directory name: [/] became _");
	ok(!access(path_of(dir, "recs.0000.bin"), R_OK) && !access(path_of(dir, "recs.0001.bin"), R_OK),
	   "one records file per process, as wberr-stress writes them");
}

/* what the reader loaded: meta, faults, records, steps and trace, field for field */
static void check_loaded(const struct evidence_in *in, const struct wb_fault f[2])
{
	is_str("ext4/unit[ioerr]", in->id, "meta: id");
	is_str("ext4", in->fs, "meta: fs");
	is_str("ioerr", in->status, "meta: status");
	ok(in->seed == 7 && in->traced == 1 && in->sb_traced == 0 && in->nsteps == 4 && in->live_ok,
	   "meta: seed, traced, sb_traced, steps, live verdict");
	is_int(2, (int)in->faults.n, "faults.txt: both log entries, the drop too");
	ok(in->faults.n == 2 && !memcmp(&in->faults.v[0], &f[0], sizeof(f[0])) &&
	   !memcmp(&in->faults.v[1], &f[1], sizeof(f[1])), "faults.txt: each as fetched");
	is_int(4, (int)in->recs.n, "records: one per step");
	is_int(EIO, in->steps[2].xs.err, "records: step 2's EIO");
	is_int(0, in->steps[3].xs.err, "records: step 3's success");
	is_str("open", in->steps[0].op, "steps: op");
	is_str("child", in->steps[2].proc, "steps: proc");
	is_str("fsync(a) in child", in->steps[2].what, "steps: what, spaces kept");
	ok(in->steps[1].xs.fault_op && !in->steps[0].xs.fault_op, "steps: fault_op");
	ok(in->steps[2].xs.nlog == 2 && in->steps[1].xs.nlog == 0, "steps: nlog");
	ok(in->steps[2].xs.nattr == 1 && in->steps[2].xs.attr[0].f == &in->faults.v[0] &&
	   in->steps[2].xs.attr[0].ino == 0xc && !strcmp(in->steps[2].xs.attr[0].path, "d/f"),
	   "steps: the attributed fault, its inode and path");
	ok(in->steps[2].xs.cursor && in->steps[2].xs.pred_ino == 0xc && in->steps[2].xs.pred.consumed &&
	   in->steps[2].xs.pred.err == EIO && in->steps[2].xs.pred.cur_after == 0x1005,
	   "steps: the model's prediction");
	ok(!in->steps[0].xs.cursor && !in->steps[1].xs.cursor, "steps: no prediction where none was");
	is_str(round_trip_traces[0], in->steps[0].trace, "trace.txt: step 0's text as taken");
	is_str("", in->steps[1].trace, "trace.txt: an empty part stays empty");
	is_str(round_trip_traces[2], in->steps[2].trace, "trace.txt: step 2's text as taken");
	ok(!strncmp(in->steps[3].trace, round_trip_traces[3], strlen(round_trip_traces[3])),
	   "trace.txt: a last line without newline");
}

/* --evidence-failed: a passing instance's directory goes again, only that one */
static void test_evidence_remove(const char *dir)
{
	struct evidence e;

	is_int(0, evidence_open(&e, root, "ext4/passed"), "writer: another instance");
	is_int(0, evidence_close(&e, "ext4/passed", "ext4", NULL, 1, 1, 0), "  closed");
	is_int(0, evidence_remove(root, "ext4/passed"), "evidence_remove: a passing instance's evidence goes");
	ok(access(path_of(root, "ext4_passed"), F_OK) && !access(dir, F_OK), "  and only that one");
}

/* the synthetic instance in @dir replays clean */
static void test_replay_clean(const char *dir)
{
	char *out;
	int rc;

	out = replay(dir, &rc);
	is_int(0, rc, "the synthetic instance replays clean");
	ok(strstr(out, "ok 1 - ext4/unit[ioerr]: 4 steps replayed, 0 failed a cross-check") != NULL,
	   "  its TAP says so");
	if (rc)
		printf("# %s", out);
	free(out);
}

static void test_round_trip(void)
{
	struct wb_fault f[2];
	struct evidence_in in;
	char dir[4096], err[512] = "";
	int rc;

	write_synthetic(f, dir, sizeof(dir));
	rc = evidence_load(&in, dir, err, sizeof(err));
	is_int(0, rc, "reader: loads it%s%s", rc ? ": " : "", err);
	if (rc) {
		evidence_free(&in);
		return;
	}
	check_loaded(&in, f);
	evidence_free(&in);
	test_evidence_remove(dir);
	test_replay_clean(dir);
}

/* a loaded instance written again through the writer */
static int rewrite(const struct evidence_in *in, const char *as)
{
	struct evidence e;
	unsigned long prev = 0;

	if (evidence_open(&e, root, as))
		return -1;
	for (int i = 0; i < in->nsteps; i++) {
		const struct evidence_in_step *s = &in->steps[i];
		const struct wb_rec *r = NULL;

		for (size_t k = 0; k < in->recs.n; k++)
			if (in->recs.v[k].seq == (uint32_t)i)
				r = &in->recs.v[k];
		evidence_step(&e, &(struct evidence_step){
			.xs = &s->xs, .xc_ok = 1, .op = s->op, .proc = s->proc, .what = s->what,
			.proc_index = r->proc, .t0 = r->t0, .t1 = r->t1, .ret = r->ret,
			.faults = in->faults.v + prev, .nfaults = s->xs.nlog - prev, .trace = s->trace });
		prev = s->xs.nlog;
	}
	return evidence_close(&e, in->id, in->fs, strcmp(in->status, "-") ? in->status : NULL,
			      in->seed, in->traced, in->sb_traced);
}

/* ------------------------------------------------------- the fixtures */

static void test_fixture(const char *name)
{
	struct evidence_in in;
	char err[512] = "", *out, again[4096];
	int rc, same = 1;

	rc = evidence_load(&in, path_of(FIXTURES, name), err, sizeof(err));
	is_int(0, rc, "%s: the recording loads%s%s", name, rc ? ": " : "", err);
	if (rc) {
		evidence_free(&in);
		return;
	}
	is_int(0, rewrite(&in, "again"), "%s: written again through the writer", name);
	snprintf(again, sizeof(again), "%s/again", root);
	for (size_t i = 0; files[i]; i++) {
		size_t la, lb;
		char *a = wb_read_file(path_in(FIXTURES, name, files[i]), &la);
		char *b = wb_read_file(path_of(again, files[i]), &lb);

		if (!a || !b || la != lb || memcmp(a, b, la)) {
			printf("# %s differs\n", files[i]);
			same = 0;
		}
		free(a);
		free(b);
	}
	ok(same, "%s: reader -> writer gives the recorded bytes (the fixture is the writer's format)", name);
	evidence_free(&in);

	out = replay(path_of(FIXTURES, name), &rc);
	is_int(0, rc, "%s: the recording replays clean", name);
	ok(strstr(out, "0 failed a cross-check") && !strstr(out, "disagrees"),
	   "  and agrees with the live run");
	if (rc)
		printf("# %s", out);
	free(out);
}

/* --------------------------------------------------- planted violations */

/* replays the edited copy @dir of fixture @name: exit @want_rc, message @want */
static void planted(const char *name, const char *what, int want_rc, const char *want, const char *dir)
{
	char *out;
	int rc;

	out = replay(dir, &rc);
	is_int(want_rc, rc, "planted in %s: %s", name, what);
	ok(strstr(out, want) != NULL, "  named: %s", want);
	if (!strstr(out, want))
		printf("# %s", out);
	if (want_rc == 1)
		ok(strstr(out, "the live run's cross-checks passed: the replay disagrees") != NULL,
		   "  and the replay says the live run judged otherwise");
	free(out);
}

static void test_planted(void)
{
	const char *d;

	d = copy_fixture(FIDELITY, "no-set");
	is_int(0, edit(d, "trace.txt", "filemap_set_wb_err:", 1, NULL, NULL), "  (the edit applies)");
	while (!edit(d, "trace.txt", "filemap_set_wb_err:", 1, NULL, NULL))
		;
	planted(FIDELITY, "every set event dropped", 1,
		"step 8 fsync(a): CROSS-CHECK: fault #1 (ioerr sector 18050) hit f but no filemap_set_wb_err on ino 0xc", d);

	d = copy_fixture(FIDELITY, "moved-out");
	is_int(0, edit(d, "trace.txt", "old=0x0 new=0x1005", 1, NULL, "wb E 0 0 7"), "  (the edit applies)");
	planted(FIDELITY, "fsync's cursor move moved after the call", 1,
		"step 8 fsync(a): CROSS-CHECK: model advances the cursor (0 -> 0x1005) but no file_check_and_advance_wb_err event for ino 0xc", d);

	d = copy_fixture(FIDELITY, "other-errno");
	is_int(0, edit(d, "trace.txt", "old=0x0 new=0x1005", 2,
		       "       wberr-run-316     [000] .....    18.025574: file_check_and_advance_wb_err: file=(____ptrval____) dev=252:0 ino=0xc old=0x0 new=0x101c errno=28 seq=0",
		       NULL), "  (the edit applies)");
	planted(FIDELITY, "the second fd's cursor moved to ENOSPC", 1,
		"step 10 fsync(d): CROSS-CHECK: kernel cursor on ino 0xc moved to 0x101c (ENOSPC), model says EIO", d);

	d = copy_fixture(FIDELITY, "unexpected-move");
	is_int(0, edit(d, "trace.txt", "wb B 0 0 8", 1,
		       "       wberr-run-287     [000] .....    17.997534: tracing_mark_write: wb B 0 0 8\n"
		       "       wberr-run-316     [000] .....    17.998000: file_check_and_advance_wb_err: file=(____ptrval____) dev=252:0 ino=0xc old=0x1005 new=0x3005 errno=5 seq=0",
		       NULL), "  (the edit applies)");
	planted(FIDELITY, "a second cursor move the model did not expect", 1,
		"step 9 fsync(a): CROSS-CHECK: kernel advanced a cursor on ino 0xc (old 0x1005 new 0x3005) where the model saw nothing new", d);

	d = copy_fixture(FIDELITY, "no-cause");
	is_int(0, set_record_err(d, 1, EIO), "  (the record is rewritten)");
	planted(FIDELITY, "pwrite(a) fails before any fault", 1,
		"step 2 pwrite(a): CROSS-CHECK: an error although the device failed nothing", d);

	d = copy_fixture(SYNCFS, "no-sb-move");
	is_int(0, edit(d, "trace.txt", "file_check_and_advance_sb_err:", 1, NULL, NULL), "  (the edit applies)");
	planted(SYNCFS, "syncfs(a)'s f_sb_err move dropped", 1,
		"step 10 syncfs(a): CROSS-CHECK: model advances the cursor (0 -> 0x1005) but no file_check_and_advance_sb_err event for ino 0xc", d);

	d = copy_fixture(FIDELITY, "lost-fault");
	is_int(0, edit(d, "faults.txt", "fault 0 1 ", 1, NULL, NULL), "  (the edit applies)");
	planted(FIDELITY, "the attributed fault dropped from faults.txt", 2,
		"step 7's fault #1 is not in faults.txt", d);

	d = copy_fixture(FIDELITY, "lost-record");
	unlink(path_of(d, "recs.0000.bin"));
	planted(FIDELITY, "the call records gone", 2, "no call record of step 0", d);
}

/*
 * Program mode's recorded run, judged again by its own judge: clean, and
 * the planted cases the live judge must have caught: the kernel recorded
 * nothing (silent), the fsync never consumed the error (lost).
 */
static void test_program(void)
{
	const char *d;
	char *out;
	int rc;

	out = replay(path_of(FIXTURES, OBJSTORE), &rc);
	is_int(0, rc, "%s: the recording is judged clean", OBJSTORE);
	ok(strstr(out, "1 fault(s) judged again: seen (judge: program mode's verdicts)") && !strstr(out, "disagrees"),
	   "  by program mode's judge: seen, as the live run said");
	if (rc)
		printf("# %s", out);
	free(out);

	d = copy_files(OBJSTORE, "program-no-set", program_files);
	is_int(0, edit(d, "trace.txt", "filemap_set_wb_err:", 1, NULL, NULL), "  (the edit applies)");
	while (!edit(d, "trace.txt", "filemap_set_wb_err:", 1, NULL, NULL))
		;
	out = replay(d, &rc);
	is_int(1, rc, "planted in %s: every set event dropped", OBJSTORE);
	ok(strstr(out, "fault 0 silent (expected seen)") && strstr(out, "the live run's verdicts were seen: the replay disagrees"),
	   "  judged silent, and the replay says the live run judged otherwise");
	free(out);

	d = copy_files(OBJSTORE, "program-no-move", program_files);
	is_int(0, edit(d, "trace.txt", "file_check_and_advance_wb_err:", 1, NULL, NULL), "  (the edit applies)");
	out = replay(d, &rc);
	is_int(1, rc, "planted in %s: the fsync's cursor move dropped", OBJSTORE);
	ok(strstr(out, "fault 0 lost (expected seen)") != NULL, "  judged lost: recorded, consumed by no call");
	free(out);

	d = copy_files(OBJSTORE, "program-no-plan", program_files);
	unlink(path_of(d, "plan.txt"));
	out = replay(d, &rc);
	is_int(2, rc, "planted in %s: the plan gone", OBJSTORE);
	ok(strstr(out, "plan.txt") != NULL, "  refused, naming the file");
	free(out);
}

/*
 * wberr-stress's evidence through the same command: a one-worker run
 * written with the writers the tool uses (one fault, its set, an fsync
 * that reports it), judged clean by the stress oracle, and caught when
 * the fsync says 0 although its cursor moved to the error.
 */
static void write_text(const char *path, const char *text)
{
	if (write_bytes(path, text, strlen(text)))
		printf("# cannot write %s\n", path);
}

static const char *stress_run(const char *as, int ret, int err)
{
	static char dir[4096];
	struct wb_files fs = { 0 };
	struct wb_rec_writer w;
	struct wb_rec open = { .t0 = 500000, .t1 = 600000, .ino = 10, .pid = 100, .op = WB_REC_OPEN };
	struct wb_rec sync = { .t0 = 1200010, .t1 = 1200090, .ino = 10, .pid = 100, .ret = ret, .err = err,
			       .op = WB_REC_FSYNC };
	struct wb_fault f = { .ns = 1000000, .sector = 120, .nr = 8, .err = EIO, .opclass = "write",
			      .status = "ioerr", .flags = "-" };
	FILE *m;

	snprintf(dir, sizeof(dir), "%s/%s", root, as);
	mkdir(dir, 0755);
	wb_files_set(&fs, 0, 10, "/f0");
	wb_files_add_extent(&fs, 0, 100, 199);
	wb_files_save(&fs, dir, "files.txt");
	wb_files_free(&fs);
	m = wb_fopen_in(dir, "meta.txt", "w");
	wb_meta_put(m, "tool", "wberr-stress");
	wb_meta_put(m, "dev", "252:0");
	wb_meta_put(m, "sweep_done", "1");
	wb_meta_put(m, "clock_step_ns", "100");
	fclose(m);
	m = wb_fopen_in(dir, "faults.txt", "w");
	wb_faultlog_put_fault(m, 0, &f);
	fclose(m);
	wb_rec_open(&w, dir, 0);
	wb_rec_put(&w, &open);
	wb_rec_put(&w, &sync);
	wb_rec_close(&w);
	write_text(path_of(dir, "trace.txt"),
		      "# entries-in-buffer/entries-written: 4/4   #P:1\n"
		      "     kworker/0:1-7       [000] .....     0.001100: filemap_set_wb_err: dev=252:0 ino=0xa errseq=0x0\n"
		      "    wberr-stress-100     [000] .....     0.001200: tracing_mark_write: wb B 0 0 1\n"
		      "    wberr-stress-100     [000] .....     0.001250: file_check_and_advance_wb_err: file=f dev=252:0 ino=0xa old=0x0 new=0x1005\n"
		      "    wberr-stress-100     [000] .....     0.001300: tracing_mark_write: wb E 0 0 1\n");
	return dir;
}

static void test_stress(void)
{
	char *out;
	int rc;

	out = replay(stress_run("stress-clean", -1, EIO), &rc);
	is_int(0, rc, "wberr-stress's evidence: judged clean");
	ok(strstr(out, "1 syncs, 0 violation(s) (judge: wberr-stress's oracle)") != NULL, "  by wberr-stress's oracle");
	if (rc)
		printf("# %s", out);
	free(out);
	out = replay(stress_run("stress-returned-0", 0, 0), &rc);
	is_int(1, rc, "planted in wberr-stress's evidence: the fsync returns 0 after its cursor moved to EIO");
	ok(strstr(out, "1 violation(s)") != NULL, "  one violation");
	free(out);
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_round_trip();
	test_fixture(FIDELITY);
	test_fixture(SYNCFS);
	test_planted();
	test_program();
	test_stress();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# cannot remove %s\n", root);
	return tap_done();
}
