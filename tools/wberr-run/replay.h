/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wberr-run --replay: any evidence directory judged again on the host, by
 * the judge its meta.txt names (tool=, lib/c wb_meta.h) through the code
 * the live run used: wberr-run's cross-checks (xc_step()), program mode's
 * verdicts (sc_run_judge()), wberr-stress's oracle (wbs_oracle_check()).
 * No device, no tracefs.
 */
#ifndef WBERR_REPLAY_H
#define WBERR_REPLAY_H

#include <stdio.h>

/*
 * @path is one instance's directory (it holds meta.txt) or a root of them
 * (an --evidence root, a --results programs/ directory: each subdirectory
 * that holds one, in name order).  Prints TAP 14 to @out: one point per
 * instance naming the judge, the CROSS-CHECK messages of each failing step
 * or the verdicts that differ as comments (everything with @verbose).
 * Returns 0 when every instance is judged clean, 1 when one is not, 2 when
 * evidence cannot be read (also a "not ok").
 */
int replay_path(const char *path, FILE *out, int verbose);

#endif
