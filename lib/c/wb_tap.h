/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one TAP 14 writer: wberr-run's result stream and every host unit
 * test print through it.  State lives in a struct the caller owns, so a
 * test can reset it.
 */
#ifndef WB_TAP_H
#define WB_TAP_H

#include <stdio.h>

struct wb_tap {
	FILE *out;
	int n;		/* points printed so far */
	int fail;	/* of which not ok */
};

void wb_tap_init(struct wb_tap *t, FILE *out);
/* "TAP version 14" and, when @plan >= 0, "1..plan" up front */
void wb_tap_header(struct wb_tap *t, int plan);
/*
 * "ok N - desc" or "not ok N - desc", then " # directive" when @directive
 * is not NULL, then the newline; returns N.  @idx > 0 numbers the point
 * explicitly (a stream whose results arrive out of order); 0 numbers it
 * next.
 */
int wb_tap_point(struct wb_tap *t, int pass, int idx, const char *directive,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* a YAML diagnostic block: "  ---", the lines given (already indented), "  ..." */
void wb_tap_yaml_begin(struct wb_tap *t);
void wb_tap_yaml_end(struct wb_tap *t);
/* "# text" */
void wb_tap_diag(struct wb_tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* the trailing plan "1..N"; returns 0 when every point passed, else 1 */
int wb_tap_done(struct wb_tap *t);

#endif
