// SPDX-License-Identifier: GPL-2.0
/* The scenario parser: what it accepts and how precisely it refuses. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wb_names.h"
#include "wb_rule.h"
#include "parse.h"
#include "wb_test.h"

static char err[2048];

static int parse(const char *text, struct scenario_set *set)
{
	return parse_buffer("t.yaml", text, strlen(text), set, err, sizeof(err));
}

/* parse and expect exactly this error message */
static void refuses(const char *text, const char *want, const char *what)
{
	struct scenario_set set = { 0 };
	int rc = parse(text, &set);

	is_int(-1, rc, "refuses %s", what);
	is_str(want, err, "  with the exact position and key path");
	scenario_set_free(&set);
}

/* @key in an ops.h keys string ("*fd *path flags"), *@req when starred */
static int key_in(const char *keys, const char *key, int *req)
{
	char want[40];
	const char *p;

	snprintf(want, sizeof(want), " %s ", key);
	for (p = keys; *p; p++) {
		size_t l = strcspn(p, " ");
		int star = *p == '*';

		if (l - (size_t)star == strlen(key) && !strncmp(p + star, key, strlen(key))) {
			*req = star;
			return 1;
		}
		p += l;
		if (!*p)
			break;
	}
	(void)want;
	return 0;
}

static const char *good =
	"name: all-fds\n"
	"guarantee: every fd sees the error once\n"
	"fs: [ext4, xfs]\n"
	"data_mode: ordered\n"
	"mkfs_options: [-b, '4096']\n"
	"steps:\n"
	"  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CREAT]}\n"
	"  - {op: pwrite, fd: a, size: 64k, pattern: 0xcd}\n"
	"  - {op: fault, id: r1, ops: write, status: nexus, file: f, count: 1}\n"
	"  - {op: fsync, fd: a, expect: EIO}\n"
	"  - {op: fsync, fd: a, expect: {xfs: EIO, default: 0}, why: shut down}\n"
	"  - {op: sync_file_range, fd: a, flags: [WAIT_BEFORE, WRITE, WAIT_AFTER]}\n"
	"  - {op: fork, child: kid}\n"
	"  - {op: fsync, proc: kid, fd: a}\n";

static void test_good_file(void)
{
	struct scenario_set set = { 0 };
	struct instance *inst;
	const struct scenario *sc;
	int n;

	is_int(0, parse(good, &set), "a valid scenario parses (%s)", err);
	if (set.n != 1)
		return;
	sc = &set.v[0];
	is_str("all-fds", sc->name, "name");
	is_int((1 << FS_EXT4) | (1 << FS_XFS), sc->fs_mask, "fs list");
	is_str("-b 4096", sc->mkfs_opts, "mkfs options joined");
	is_int(8, sc->nsteps, "8 steps");
	is_int(O_RDWR | O_CREAT, sc->steps[0].oflags, "open flags OR'ed");
	is_int(65536, sc->steps[1].size, "64k is 65536");
	is_int(0xcd, sc->steps[1].pattern, "hex pattern");
	is_str("nexus", sc->steps[2].fault.rule.status, "nexus kept for dm-wberr to resolve");
	is_int(WB_OP_WRITE, sc->steps[2].fault.rule.ops, "ops");
	is_int(EIO, sc->steps[3].expect.err[FS_RAW], "a scalar expectation applies to every fs");
	is_int(EIO, sc->steps[4].expect.err[FS_XFS], "per-fs expectation");
	is_int(0, sc->steps[4].expect.err[FS_EXT4], "default for the others");
	is_int(SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER,
	       sc->steps[5].flags, "sync_file_range flags");
	is_str("kid", sc->steps[7].proc, "proc");
	is_int(14, sc->steps[7].line, "step line numbers are kept");
	n = expand_instances(&set, &inst);
	is_int(2, n, "one instance per filesystem");
	if (n == 2) {
		is_str("ext4/all-fds", inst[0].id, "instance id");
		is_str("xfs/all-fds", inst[1].id, "instance id");
	}
	free(inst);
	scenario_set_free(&set);
}

static void test_matrix(void)
{
	struct scenario_set set = { 0 };
	struct instance *inst;
	int n;

	is_int(0, parse("name: fid\nfs: raw\nfidelity: true\nmatrix: {status: all}\nsteps:\n"
			"  - {op: fault, ops: write, status: $status}\n"
			"  - {op: open, fd: d, path: '@dev', flags: [O_RDWR, O_DIRECT], expect: $errno}\n", &set),
	       "matrix over all statuses parses (%s)", err);
	n = expand_instances(&set, &inst);
	is_int((int)wb_nr_statuses, n, "one instance per status");
	if (n > 1)
		is_str("raw/fid[timeout]", inst[1].id, "id names the status");
	free(inst);
	scenario_set_free(&set);
}

/* fs: all, every file system of lib/c's table */
static void test_fs_all(void)
{
	struct scenario_set set = { 0 };
	struct instance *inst = NULL;
	int n;

	is_int(0, parse("name: a\nfs: all\nsteps: [{op: sync}]\n", &set), "fs: all parses (%s)", err);
	n = expand_instances(&set, &inst);
	is_int(FS__N, n, "one instance per file system of the table");
	if (n == FS__N)
		is_str("btrfs/a", inst[FS_BTRFS].id, "in the table's order");
	free(inst);
	scenario_set_free(&set);
	refuses("name: x\nfs: [all]\nsteps: [{op: sync}]\n",
		"t.yaml:2:6: fs[0]: unknown value \"all\" (expected one of: raw, ext4, ext2, xfs, btrfs)",
		"all inside a list");
}

static void test_list_of_scenarios(void)
{
	struct scenario_set set = { 0 };

	is_int(0, parse("- name: a\n  fs: raw\n  steps: [{op: sync}]\n- name: b\n  fs: ext2\n  steps: [{op: sync}]\n", &set),
	       "a file may hold a list of scenarios");
	is_int(2, set.n, "two of them");
	scenario_set_free(&set);
	refuses("- name: a\n  fs: raw\n  steps: [{op: sync}]\n- name: a\n  fs: raw\n  steps: [{op: sync}]\n",
		"t.yaml:4:1: name: duplicate scenario name \"a\" (first in t.yaml:1)", "duplicate names");
}

static void test_refusals(void)
{
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fsync, fd: a, flgs: 1}\n",
		"t.yaml:4:24: steps[0].flgs: unknown key 'flgs' for op fsync (allowed: fd,proc, expect, why, on_kernel, label, records)",
		"an unknown step key");
	refuses("name: x\nfs: ext4\nsteps:\n  - op: open\n    fd: a\n    path: f\n    flags: [O_RDWR, O_CRAT]\n",
		"t.yaml:7:21: steps[0].flags[1]: unknown flag \"O_CRAT\" (expected one of: O_RDONLY, O_WRONLY, O_RDWR, "
		"O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_SYNC, O_DSYNC, O_DIRECT, O_NOATIME, O_CLOEXEC, O_NONBLOCK)",
		"an unknown open flag");
	refuses("name: x\nfs: zfs\nsteps: [{op: sync}]\n",
		"t.yaml:2:5: fs: unknown value \"zfs\" (expected one of: raw, ext4, ext2, xfs, btrfs)",
		"an unknown filesystem");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fsync, fd: a, expect: EIOO}\n",
		"t.yaml:4:32: steps[0].expect: unknown errno name \"EIOO\" (use 0, EIO, ETIMEDOUT, ... or $errno)",
		"an unknown errno");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: pwrite, fd: a, size: lots}\n",
		"t.yaml:4:31: steps[0].size: expected a non-negative integer (k/m/g suffix allowed), got \"lots\"",
		"a bad integer");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: pwrite, fd: a}\n",
		"t.yaml:4:5: steps[0]: op pwrite needs key 'size'", "a missing required key");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: bogus}\n",
		"t.yaml:4:37: steps[0].status: unknown status \"bogus\" (expected one of: notsupp, timeout, nospc, transport, "
		"target, resv_conflict, medium, protection, resource, ioerr, again, dev_resource, zone_open_resource, "
		"zone_active_resource, offline, duration_limit, inval, nexus, $status, or a status of the scenario's "
		"backend: docs/real-drivers.md)",
		"an unknown status");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fsync, fd: [a]}\n",
		"t.yaml:4:21: steps[0].fd: expected a scalar, got a list", "a wrong type");
	refuses("name: x\nfs: xfs\ndata_mode: journal\nsteps: [{op: sync}]\n",
		"t.yaml:3:12: data_mode: data_mode applies to ext4 only", "data_mode on xfs");
	refuses("name: x\nfs: ext4\nsize_mb: 10\nsteps: [{op: sync}]\n",
		"t.yaml:3:10: size_mb: size_mb must be 64..4096", "a tiny device");
	refuses("name: x\nfs: ext4\ncost: 0\nsteps: [{op: sync}]\n",
		"t.yaml:3:7: cost: cost must be 1..3600", "a cost of 0 s (--shard weighs every instance)");
	refuses("name: x\nfs: ext4\nstep: []\n",
		"t.yaml:3:1: step: unknown key 'step' (allowed: name, description, guarantee, fs, data_mode, "
		"mkfs_options, mount_options, size_mb, backend, pool_mb, stack, dax, oracle, fidelity, cost, matrix, steps, program)",
		"an unknown scenario key");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fsync, fd: a, fd: b}\n",
		"t.yaml:4:24: steps[0].fd: duplicate key", "a duplicate key");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fsnc, fd: a}\n",
		"t.yaml:4:10: steps[0].op: unknown value \"fsnc\" (expected one of: open, close, dup, reopen, fork, exit, "
		"write, pwrite, pread, mmap, store, load, msync, munmap, truncate, fallocate, unlink, fsync, fdatasync, syncfs, "
		"sync_file_range, sync, drop_caches, umount, mount, fault, unfault, clear_faults, sleep, badblocks, thin_extend)",
		"an unknown op");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: ioerr, sectors: 10-5}\n",
		"t.yaml:4:53: steps[0].sectors: empty sector range \"10-5\" (last < first)", "an empty range");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: $status}\n",
		"t.yaml:4:5: steps[0]: status $status needs a 'matrix: {status: ...}' in the scenario",
		"$status outside a matrix");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: open, fd: a, path: /etc/passwd}\n",
		"t.yaml:4:29: steps[0].path: path must be relative to the mount point without '..' (or @dev for the device)",
		"an absolute path");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fsync, fd: a\n",
		"t.yaml:5:1: YAML syntax: did not find expected ',' or '}' while parsing a flow mapping",
		"a YAML syntax error");
	refuses("- name: x\n  fs: ext4\n  steps:\n    - {op: sync}\n    - {op: sleep}\n",
		"t.yaml:5:7: [0].steps[1]: op sleep needs key 'ms'", "errors inside a list of scenarios");
}

static void test_per_fs_options_and_records(void)
{
	struct scenario_set set = { 0 };

	is_int(0, parse("name: x\nfs: [btrfs, xfs]\nmount_options: {btrfs: [nodatacow, noatime]}\nsteps:\n"
			"  - {op: fsync, fd: b, records: {g: EIO}, why: xfs_discard_folio() on a shut-down fs}\n", &set),
	       "per-fs mount options and 'records' parse (%s)", err);
	if (set.n == 1) {
		is_int(1, set.v[0].has_mount_opts_fs, "per-fs options flagged");
		is_str("nodatacow,noatime", set.v[0].mount_opts_fs[FS_BTRFS], "btrfs options joined");
		is_str("", set.v[0].mount_opts_fs[FS_XFS], "none for xfs");
		is_str("g", set.v[0].steps[0].rec_path, "records path");
		is_int(EIO, set.v[0].steps[0].rec_err, "records errno");
	}
	scenario_set_free(&set);
	refuses("name: x\nfs: ext4\nmount_options: {zfs: a}\nsteps: [{op: sync}]\n",
		"t.yaml:3:17: mount_options.zfs: unknown value \"zfs\" (expected one of: raw, ext4, ext2, xfs, btrfs)",
		"per-fs options for an unknown filesystem");
}

/* on_kernel: per-kernel expectations with their reasons */
static void test_on_kernel(void)
{
	struct scenario_set set = { 0 };

	is_int(0, parse("name: k\nfs: [ext4, xfs]\nsteps:\n"
			"  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CREAT]}\n"
			"  - op: fsync\n    fd: a\n    expect: ETIMEDOUT\n"
			"    on_kernel:\n      \"6.1\": {expect: {ext4: 0}, why: 6.1 fsync.c:171 commits the journal only}\n"
			"  - op: pread\n    fd: a\n    size: 4k\n    content: {new: 1, old: 2}\n"
			"    on_kernel: {'6.1': {expect_content: new, why: the journal copy}}\n", &set),
	       "on_kernel with expect and expect_content parses (%s)", err);
	if (set.n == 1) {
		const struct step *st = &set.v[0].steps[1];

		is_int(1, st->non_kernel, "one kernel entry");
		is_str("6.1", st->on_kernel[0].release, "its release");
		is_int(0, st->on_kernel[0].expect.err[FS_EXT4], "ext4 expects 0 there");
		is_int(EXPECT_UNSET, st->on_kernel[0].expect.err[FS_XFS], "xfs keeps the step's own");
		is_int(ETIMEDOUT, st->expect.err[FS_EXT4], "the step's own expectation is kept");
		is_int(CONTENT_NEW, set.v[0].steps[2].on_kernel[0].expect_content[FS_XFS], "expect_content per kernel");
	}
	scenario_set_free(&set);
	is_int(0, parse("name: k\nfs: ext4\nsteps:\n"
			"  - {op: sync, on_kernel: {patched: {expect: EIO, why: kernel/patches 0007}}}\n", &set),
	       "on_kernel 'patched' parses (%s)", err);
	if (set.n == 1)
		is_str("patched", set.v[0].steps[0].on_kernel[0].release, "its key is kept as given");
	scenario_set_free(&set);
	refuses("name: k\nfs: ext4\nsteps:\n  - {op: sync, expect: 0, on_kernel: {'6.1': {expect: EIO}}}\n",
		"t.yaml:4:46: steps[0].on_kernel.6.1: on_kernel 6.1 needs 'why': the kernel's reason, from its source",
		"an on_kernel entry without why");
	refuses("name: k\nfs: ext4\nsteps:\n  - {op: sync, on_kernel: {'6.x': {expect: EIO, why: w}}}\n",
		"t.yaml:4:28: steps[0].on_kernel: on_kernel: '6.x' is neither a release major.minor such as \"6.1\" nor \"patched\"",
		"a release that is not major.minor");
	refuses("name: k\nfs: ext4\nsteps:\n  - {op: sync, on_kernel: {'6.1': {why: w}}}\n",
		"t.yaml:4:35: steps[0].on_kernel.6.1: on_kernel 6.1 changes nothing: give expect or expect_content",
		"an on_kernel entry that changes nothing");
	refuses("name: k\nfs: ext4\nsteps:\n  - {op: sync, on_kernel: {'6.1': {expect: 0, why: w, skip: 1}}}\n",
		"t.yaml:4:55: steps[0].on_kernel.6.1: on_kernel 6.1: unknown key 'skip' (allowed: expect, expect_content, why)",
		"an unknown key inside on_kernel");
}

/* pread's content/expect_content, and data_mode as a list */
static void test_content_and_data_modes(void)
{
	struct scenario_set set = { 0 };
	struct instance *inst = NULL;
	const struct step *st;
	int n;

	is_int(0, parse("name: c\nfs: [ext4, xfs]\ndata_mode: [default, journal]\nsteps:\n"
			"  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CREAT]}\n"
			"  - {op: pread, fd: a, size: 4k, content: {new: 0x22, old: 17}, expect_content: {xfs: old, default: new}}\n",
			&set), "content, a per-fs expect_content and two data modes parse (%s)", err);
	if (set.n != 1)
		return;
	st = &set.v[0].steps[1];
	is_int(1, st->has_content, "content set");
	is_int(0x22, (int)st->content_new, "new byte");
	is_int(17, (int)st->content_old, "old byte");
	is_int(CONTENT_OLD, st->expect_content[FS_XFS], "xfs expects old");
	is_int(CONTENT_NEW, st->expect_content[FS_EXT4], "default: new");
	n = expand_instances(&set, &inst);
	is_int(3, n, "ext4 once per data mode, xfs once");
	if (n == 3) {
		is_str("ext4/c[data=default]", inst[0].id, "the mode in the id");
		is_str("ext4/c[data=journal]", inst[1].id, "the other mode");
		is_int(DM_JOURNAL, inst[1].data_mode, "instance data mode");
		is_str("xfs/c", inst[2].id, "xfs has no mode in its id");
		is_int(DM_DEFAULT, inst[2].data_mode, "and runs in the default mode");
	}
	free(inst);
	scenario_set_free(&set);

	refuses("name: x\nfs: ext4\nsteps:\n  - {op: pread, fd: a, size: 4k, expect_content: new}\n",
		"t.yaml:4:5: steps[0]: expect_content needs content: {new: <byte>, old: <byte>}",
		"expect_content without content");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: pread, fd: a, size: 4k, content: {new: 1}}\n",
		"t.yaml:4:43: steps[0].content: content needs both new and old", "content without old");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: pread, fd: a, size: 4k, content: {new: 1, old: 1}}\n",
		"t.yaml:4:43: steps[0].content: content: new and old are the same byte, a read could not tell them apart",
		"content with one byte twice");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: pread, fd: a, size: 4k, content: {new: 1, old: 2}, expect_content: stale}\n",
		"t.yaml:4:77: steps[0].expect_content: unknown value \"stale\" (expected one of: new, old, zero, mixed)",
		"an unknown content kind");
	is_int(0, parse("name: f\nfs: ext4\nsteps:\n"
			"  - {op: fault, ops: write, status: ioerr, action: 'delay:20:pass', bio_flags: [meta, '!sync'], split: true}\n",
			&set), "a fault with dm-wberr 1.1's keys parses (%s)", err);
	if (set.n == 1) {
		const struct fault_spec *f = &set.v[0].steps[0].fault;

		is_int(WB_ACT_PASS, f->rule.action, "delay then pass");
		is_int(20, (int)f->rule.delay_ms, "delay ms");
		ok(f->rule.flags_set == 2 && f->rule.flags_clear == 1, "bio flags: meta required, sync excluded");
		is_int(1, f->rule.split, "split");
	}
	scenario_set_free(&set);
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: ioerr, bio_flags: [meta, metadata]}\n",
		"t.yaml:4:62: steps[0].bio_flags: unknown bio flag \"metadata\" (expected one of: sync, meta, prio, fua, "
		"preflush, rahead, background, nowait, idle, polled, nounmap; '!' before one excludes it)",
		"an unknown bio flag");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: ioerr, action: 'delay:0'}\n",
		"t.yaml:4:52: steps[0].action: unknown action \"delay:0\" (expected fail, drop or "
		"delay:<ms>[:fail|:drop|:pass], ms 1..60000)", "a delay of 0 ms");
	refuses("name: x\nfs: ext4\ndata_mode: [journal, journal]\nsteps: [{op: sync}]\n",
		"t.yaml:3:22: data_mode[1]: data mode \"journal\" given twice", "a data mode twice");
}

static void test_program(void)
{
	static const char *prog =
		"name: sq\n"
		"fs: [ext4, xfs]\n"
		"matrix: {status: [ioerr, timeout]}\n"
		"program:\n"
		"  needs: [/opt/apps/usr/bin/sqlite3]\n"
		"  env: {PATH: /opt/apps/usr/bin}\n"
		"  user: '1000'\n"
		"  run: sh run.sh\n"
		"  arm: {marker: WBERR-ARM}\n"
		"  faults:\n"
		"    - {ops: write, status: $status, file: app.db, count: 1}\n"
		"    - {id: j, ops: write, status: ioerr, file: 'base/*/16384'}\n"
		"  recover: [kill, clear_faults, remount]\n"
		"  check: sh check.sh\n"
		"  expect: {program: zero, check: fail, errors: seen}\n"
		"  why: the checkpoint retried and lost the update\n";
	struct scenario_set set = { 0 };
	const struct program *pg;
	struct instance *inst;

	is_int(0, parse(prog, &set), "a program scenario parses (%s)", err);
	if (set.n != 1 || !set.v[0].prog)
		return;
	pg = set.v[0].prog;
	is_int(0, set.v[0].nsteps, "no steps");
	is_int(ARM_MARKER, pg->arm, "armed on a marker");
	is_str("WBERR-ARM", pg->marker, "the marker");
	is_int(2, pg->nfaults, "two faults");
	is_int(OP_FAULT, pg->faults[0].op, "a fault needs no op");
	is_str("f1", pg->faults[0].fault.id, "an unnamed fault gets an id");
	is_str("base/*/16384", pg->faults[1].fault.file, "a glob");
	is_int(3, pg->nrecover, "three recovery actions");
	is_int(REC_REMOUNT, pg->recover[2], "in order");
	is_int(1000, (int)pg->uid, "uid");
	is_int(EXIT_NONZERO, pg->expect_check, "the checker must find the loss");
	is_str("PATH=/opt/apps/usr/bin", pg->env[0], "env");
	is_str(".", set.v[0].dir, "the file's directory");
	is_int(4, expand_instances(&set, &inst), "2 fs x 2 statuses");
	free(inst);
	scenario_set_free(&set);

	refuses("name: x\nfs: ext4\nsteps: [{op: sync}]\nprogram: {run: x, faults: [{ops: write, status: ioerr, file: a}]}\n",
		"t.yaml:4:10: program: a scenario has 'steps' or 'program', not both", "steps and program");
	refuses("name: x\nfs: ext4\nprogram: {run: x, faults: [{ops: write, status: ioerr, sectors: 0-7, grow: true}]}\n",
		"t.yaml:3:28: program.faults[0]: grow follows a file: it needs 'file'", "grow without file");
	refuses("name: x\nfs: ext4\nprogram: {faults: [{ops: write, status: ioerr, file: a}]}\n",
		"t.yaml:3:10: program: program needs 'run' (the command, sh -c)", "a program without run");
	refuses("name: x\nfs: ext4\nprogram: {run: x, faults: [{op: fsync, fd: a}]}\n",
		"t.yaml:3:33: program.faults[0].op: only op fault belongs here", "another op among faults");
	refuses("name: x\nfs: ext4\nprogram: {run: x, faults: [{ops: write, status: ioerr}]}\n",
		"t.yaml:3:28: program.faults[0]: a program's fault needs 'file' (a path, a glob or $marker) or 'sectors'",
		"a fault aimed nowhere");
	refuses("name: x\nfs: ext4\nprogram: {run: x, arm: {at: 3}, faults: [{ops: write, status: ioerr, file: a}]}\n",
		"t.yaml:3:25: program.arm.at: unknown key 'at' (expected after_ms or marker)", "a bad arm");
	refuses("name: x\nfs: ext4\nprogram: {run: x, recover: [reboot], faults: [{ops: write, status: ioerr, file: a}]}\n",
		"t.yaml:3:29: program.recover[0]: unknown value \"reboot\" (expected one of: kill, clear_faults, drop_caches, remount, device_cycle)",
		"an unknown recovery");
	refuses("name: x\nfs: ext4\nprogram: {run: x, expect: {check: fail}, faults: [{ops: write, status: ioerr, file: a}]}\n",
		"t.yaml:3:10: program: an expected finding (check: fail, errors: lost or silent) needs 'why'",
		"a finding without why");
	refuses("name: x\nfs: ext4\nprogram: {run: x, user: 0, faults: [{ops: write, status: ioerr, file: a}]}\n",
		"t.yaml:3:25: program.user: user must be UID or UID:GID, non-zero (the program runs unprivileged)",
		"root as the user");
	refuses("name: x\nfs: raw\nprogram: {run: x, faults: [{ops: write, status: ioerr, sectors: 0-7}]}\n",
		"t.yaml:3:10: program: a program needs a file system, not raw", "raw");
}

/*
 * The fault step's keys are dm-wberr's rule grammar (wb_rule.h's table,
 * dm-wberr-abi.h): every key of the table is a key of the fault op
 * (ops.h) and takes the table's range, no more, no less.
 */
static void test_rule_keys(void)
{
	struct scenario_set set = { 0 };
	int req;

	for (int k = 0; k < WB_KEY__N; k++)
		if (!key_in(op_table[OP_FAULT].keys, wb_rule_keys[k].yaml, &req) || req)
			ok(0, "the fault op takes the rule key %s, optional", wb_rule_keys[k].yaml);
	for (const char *p = op_table[OP_FAULT].keys; *p;) {
		char key[32];
		int n = 0;

		sscanf(p, " %*[*]%n", &n);
		p += n;
		if (sscanf(p, "%31s%n", key, &n) != 1)
			break;
		p += n;
		if (strcmp(key, "id") && strcmp(key, "ops") && strcmp(key, "status") && strcmp(key, "file") && strcmp(key, "grow") &&
		    wb_rule_key_by_yaml(key) < 0)
			ok(0, "fault key %s is a rule key (or id, ops, status, file, grow)", key);
	}
	ok(1, "the fault op's keys are the rule table's plus id, ops, status and file");
	is_int(0, parse("name: p\nfs: ext4\nsteps:\n"
			"  - {op: fault, ops: write, status: ioerr, prob: 0, skip: 18446744073709551615,"
			" count: 4294967296, every: 1}\n", &set),
	       "prob 0 and 64-bit skip and count parse, as dm-wberr takes them (%s)", err);
	if (set.n == 1) {
		const struct wb_rule *r = &set.v[0].steps[0].fault.rule;

		ok(r->prob == 0 && r->skip == UINT64_MAX && r->count == 4294967296ULL && r->every == 1,
		   "their values");
	}
	scenario_set_free(&set);
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: ioerr, every: 0}\n",
		"t.yaml:4:51: steps[0].every: every must be >= 1", "every 0");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: ioerr, prob: 1000001}\n",
		"t.yaml:4:50: steps[0].prob: 1000001 is out of range (max 1000000)", "prob past a million ppm");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: fault, ops: write, status: ioerr, skip: 17179869184g}\n",
		"t.yaml:4:50: steps[0].skip: expected a non-negative integer (k/m/g suffix allowed), got \"17179869184g\"",
		"a suffix that overflows 64 bits");
}

static void test_dax(void)
{
	struct scenario_set set = { 0 };

	is_int(0, parse("name: d\nfs: [ext4, xfs]\ndax: true\nsteps:\n"
			"  - {op: open, fd: a, path: f, flags: [O_RDWR, O_CREAT]}\n"
			"  - {op: badblocks, path: f, offset: 4k, size: 4k}\n"
			"  - {op: mmap, fd: a, size: 8k}\n"
			"  - {op: load, fd: a, offset: 4k, size: 4k, content: {new: 1, old: 2}, expect_content: new}\n",
			&set), "a dax scenario with badblocks and a load parses (%s)", err);
	if (set.n == 1) {
		is_int(1, set.v[0].dax, "dax set");
		is_int(OP_BADBLOCKS, set.v[0].steps[1].op, "badblocks op");
		is_int(4096, (int)set.v[0].steps[1].offset, "badblocks offset");
		is_int(OP_LOAD, set.v[0].steps[3].op, "load op");
		is_int(CONTENT_NEW, set.v[0].steps[3].expect_content[FS_XFS], "a load's content is judged");
	}
	scenario_set_free(&set);
	refuses("name: x\nfs: [ext4, btrfs]\ndax: true\nsteps: [{op: sync}]\n",
		"t.yaml:3:6: dax: dax runs on ext4 and xfs (btrfs has no DAX; raw is the block device, not a mapping of pmem)",
		"dax on btrfs");
	refuses("name: x\nfs: ext4\ndax: true\ndata_mode: journal\nsteps: [{op: sync}]\n",
		"t.yaml:3:6: dax: dax takes no data_mode (ext4 refuses dax with data=journal)", "dax with a data mode");
	refuses("name: x\nfs: ext4\nsteps:\n  - {op: badblocks, path: f, size: 4k}\n",
		"t.yaml:4:5: steps[0]: badblocks needs 'dax: true' (they are the persistent memory's own list)",
		"badblocks without dax");
	refuses("name: x\nfs: ext4\ndax: true\nsteps:\n  - {op: badblocks, path: f, offset: 100, size: 4k}\n",
		"t.yaml:5:5: steps[0]: badblocks marks whole sectors of a file: a path in the mount, offset and size "
		"multiples of 512, size > 0", "badblocks off a sector boundary");
}

/* backend: the instances it makes, and every step a backend cannot express refused */
static void test_backends(void)
{
	struct scenario_set set = { 0 };
	struct instance *inst = NULL;
	int n;

	is_int(0, parse("name: b\nfs: [raw, ext4]\nbackend: [dm-wberr, nvme]\nsteps:\n"
			"  - {op: fault, ops: write, status: medium, count: 1}\n  - {op: sync}\n", &set),
	       "a count-based fault on dm-wberr and nvme parses (%s)", err);
	n = expand_instances(&set, &inst);
	is_int(4, n, "one instance per backend and file system");
	if (n == 4) {
		is_str("raw/b", inst[0].id, "dm-wberr's ids are as before");
		is_str("ext4/b@nvme", inst[3].id, "another backend's id ends in @<backend>");
		is_int(WB_BK_NVME, inst[3].backend, "and the instance has it");
	}
	free(inst);
	scenario_set_free(&set);
	is_int(0, parse("name: n\nfs: raw\nbackend: [dm-wberr, scsi_debug, thin]\npool_mb: 64\nmatrix: {status: native}\n"
			"steps: [{op: sync}]\n", &set), "status: native parses (%s)", err);
	n = expand_instances(&set, &inst);
	if (n > 0)
		is_str("raw/n[notsupp]", inst[0].id, "native on dm-wberr: dm-wberr's statuses");
	ok(n > (int)wb_nr_statuses + 1 && !strcmp(inst[n - 1].id, "raw/n[no-space]@thin") &&
	   !strcmp(inst[wb_nr_statuses].id, "raw/n[medium-unrecovered]@scsi_debug"),
	   "then scsi_debug's own and thin's (%d instances)", n);
	free(inst);
	scenario_set_free(&set);
	refuses("name: x\nfs: ext4\nbackend: nvme\nsteps:\n  - {op: fault, ops: write, status: ioerr, file: f}\n",
		"t.yaml:5:5: steps[0]: backend nvme: nvme cannot aim a fault at a file: the NVMe injector fails the "
		"namespace's next commands whatever their LBA (drivers/nvme/host/fault_inject.c:57-82)",
		"a file-targeted fault on nvme");
	refuses("name: x\nfs: raw\nbackend: [scsi_debug]\nsteps:\n  - {op: fault, ops: write, status: offline}\n",
		"t.yaml:5:5: steps[0]: backend scsi_debug: scsi_debug has no status the kernel turns into "
		"BLK_STS_OFFLINE (wb_backend.c lists what it can produce)", "a status scsi_debug cannot produce");
	refuses("name: x\nfs: raw\nbackend: scsi_debug\nsteps:\n  - {op: fault, ops: write, status: write-fault}\n",
		"t.yaml:5:5: steps[0]: backend scsi_debug: scsi_debug has no status \"write-fault\"",
		"another backend's status");
	refuses("name: x\nfs: raw\nbackend: [dm-wberr, thin]\npool_mb: 64\nsteps:\n  - {op: fault, ops: write, status: nospc}\n",
		"t.yaml:6:5: steps[0]: backend thin: thin takes no fault step: a thin pool fails writes only when it "
		"runs out of data space: write more than pool_mb holds", "a fault step on thin");
	refuses("name: x\nfs: raw\nbackend: thin\nsteps: [{op: sync}]\n",
		"t.yaml:3:10: backend: backend thin needs pool_mb: the pool's data size", "thin without pool_mb");
	refuses("name: x\nfs: raw\nbackend: thin\npool_mb: 400\nsteps: [{op: sync}]\n",
		"t.yaml:4:10: pool_mb: a pool of 400 MiB under a volume of 320 MiB (size_mb) never runs out of space",
		"a pool that cannot fill");
	refuses("name: x\nfs: raw\npool_mb: 64\nsteps: [{op: sync}]\n",
		"t.yaml:3:10: pool_mb: pool_mb is backend thin's", "pool_mb without thin");
	refuses("name: x\nfs: ext4\nbackend: [nvme, nvme]\nsteps: [{op: sync}]\n",
		"t.yaml:3:17: backend[1]: backend nvme named twice", "a backend twice");
	refuses("name: x\nfs: ext4\nbackend: loop\nsteps: [{op: sync}]\n",
		"t.yaml:3:10: backend: unknown backend \"loop\" (expected dm-wberr, scsi_debug, nvme or thin)",
		"an unknown backend");
	refuses("name: x\nfs: ext4\nstack: lvm\nbackend: nvme\nsteps: [{op: sync}]\n",
		"t.yaml:4:10: backend: stack: lvm stacks on dm-wberr only", "lvm over nvme");
	refuses("name: x\nfs: raw\nbackend: nvme\nmatrix: {status: all}\nsteps: [{op: sync}]\n",
		"t.yaml:4:9: matrix: backend nvme: nvme has no status the kernel turns into BLK_STS_TIMEOUT "
		"(wb_backend.c lists what it can produce) (matrix status: native runs a backend's own)",
		"dm-wberr's statuses on nvme");
}

int main(void)
{
	test_backends();
	test_fs_all();
	test_rule_keys();
	test_dax();
	test_program();
	test_content_and_data_modes();
	test_per_fs_options_and_records();
	test_on_kernel();
	test_good_file();
	test_matrix();
	test_list_of_scenarios();
	test_refusals();
	return tap_done();
}
