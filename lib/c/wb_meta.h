/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.txt of an evidence directory (docs/architecture.md, "Evidence"):
 * key=value lines about the run.  Every key any tool writes is a row of
 * the one table below, with the tools that write it and what it means;
 * wb_meta_put() writes only keys of the table, and lib/c/tests/test_meta.c
 * holds docs/architecture.md's key list to it.
 *
 * tool= names the judge that re-judges the directory (`wberr-run --replay`):
 *   wberr-run     the step model's cross-checks (tools/wberr-run/crosscheck.c)
 *   wberr-stress  the no-lost-error oracle (tools/wberr-stress/oracle.c)
 *   program       program mode's verdicts (tools/wberr-run/synctrace.c)
 */
#ifndef WB_META_H
#define WB_META_H

#include <stdint.h>
#include <stdio.h>

/*      key               writers                      what it says */
#define WB_META_KEYS(X) \
	X(tool,            "all",                        "the judge: wberr-run, wberr-stress or program") \
	X(id,              "wberr-run program",          "the instance, fs/name[status]") \
	X(fs,              "wberr-run program",          "the file system") \
	X(status,          "wberr-run program",          "the matrix status, - when none") \
	X(seed,            "wberr-run wberr-stress",     "the run's seed") \
	X(traced,          "wberr-run",                  "1: the errseq events were traced") \
	X(sb_traced,       "wberr-run",                  "1: the kernel traces f_sb_err moves (kernel/patches 0005)") \
	X(steps,           "wberr-run",                  "how many steps steps.txt describes") \
	X(live_crosscheck, "wberr-run",                  "what the live run's cross-checks said: ok or fail") \
	X(dev,             "wberr-stress program",       "major:minor of the file system under test (st_dev)") \
	X(self,            "program",                    "the runner's pid: its own calls are no program's") \
	X(expect,          "program",                    "what the plan's faults must come to: seen, lost or silent") \
	X(live_verdicts,   "program",                    "each fault's verdict in the live run, by plan order") \
	X(procs,           "wberr-stress",               "worker processes") \
	X(fds,             "wberr-stress",               "fds per worker") \
	X(shared,          "wberr-stress",               "of them, shared with another worker") \
	X(file_kib,        "wberr-stress",               "test file size") \
	X(duration_s,      "wberr-stress",               "the injection window's planned length") \
	X(prob_ppm,        "wberr-stress",               "the base rules' probability") \
	X(robust,          "wberr-stress",               "1: suspends, resumes and reloads during the run") \
	X(go_ns,           "wberr-stress",               "CLOCK_MONOTONIC ns the injection window opened") \
	X(stop_ns,         "wberr-stress",               "and closed") \
	X(sweep_done,      "wberr-stress",               "1: every fd was synced after the faults were cleared") \
	X(sb_margin_ns,    "wberr-stress",               "the syncfs lost check's margin (default 2000000)") \
	X(workers_failed,  "wberr-stress",               "workers that did not finish") \
	X(rules_added,     "wberr-stress",               "dm-wberr rules added") \
	X(rules_removed,   "wberr-stress",               "and removed") \
	X(suspends,        "wberr-stress",               "suspend and resume cycles") \
	X(reloads,         "wberr-stress",               "table reloads") \
	X(dm_failures,     "wberr-stress",               "dm-wberr messages refused") \
	X(clock_step_ns,   "wberr-stress",               "CLOCK_MONOTONIC's granularity") \
	X(cpus,            "wberr-stress",               "the guest's CPUs") \
	X(fio_rc,          "wberr-stress",               "fio_rc.<i>: each fio job's exit status") \
	X(fio_job,         "wberr-stress",               "fio_job.<i>: its job file")

struct wb_meta_key {
	const char *key, *writers, *doc;
};
extern const struct wb_meta_key wb_meta_keys[];
extern const unsigned int wb_nr_meta_keys;

/* key=value into @f; a key outside the table (its ".<i>" suffix aside) is
 * a bug of the caller: 0, or -1 and nothing written */
int wb_meta_put(FILE *f, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* a loaded meta.txt */
struct wb_meta {
	char *text;		/* owned: the values point into it */
	const char **key, **val;
	unsigned int n;
};
/* @dir/meta.txt into a zeroed @m: 0, or -1 (errno) */
int wb_meta_load(struct wb_meta *m, const char *dir);
/* the value of @key, or @dflt */
const char *wb_meta_get(const struct wb_meta *m, const char *key, const char *dflt);
uint64_t wb_meta_u64(const struct wb_meta *m, const char *key, uint64_t dflt);
void wb_meta_free(struct wb_meta *m);

#endif
