/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wberr-run --replay: the cross-checks of recorded instances judged again
 * on the host, from an evidence directory (evidence.h) through the same
 * xc_step() the live run calls.  No device, no tracefs.
 */
#ifndef WBERR_REPLAY_H
#define WBERR_REPLAY_H

#include <stdio.h>

/*
 * @path is one instance's directory (it holds meta.txt) or an --evidence
 * root (each subdirectory that holds one, in name order).  Prints TAP 14 to
 * @out: one point per instance, the CROSS-CHECK messages of each failing
 * step as comments (every step's with @verbose).  Returns 0 when every
 * instance replays clean, 1 when a cross-check fails, 2 when evidence
 * cannot be read (also a "not ok").
 */
int replay_path(const char *path, FILE *out, int verbose);

#endif
