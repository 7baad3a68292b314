/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON strings wberr-run writes (program mode's report.json, a run's
 * results.json): the one escaper, so every file reads back with any JSON
 * parser whatever a program printed.
 */
#ifndef WB_JSON_H
#define WB_JSON_H

#include <stdio.h>

/* a JSON string: quotes, backslashes and controls escaped, bad UTF-8 as
 * U+FFFD; NULL is null */
void wb_json_str(FILE *out, const char *str);
/* an errno by name ("EIO", "0"), null when negative (unknown) */
void wb_json_errno(FILE *out, int err);

#endif
