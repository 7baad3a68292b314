/* SPDX-License-Identifier: GPL-2.0 */
/* Scenario files (YAML) -> struct scenario, refusing anything unknown. */
#ifndef WBERR_PARSE_H
#define WBERR_PARSE_H

#include <stddef.h>
#include "scenario.h"

/*
 * Parse one file and append its scenarios to @set.  On error returns -1 and
 * writes "file:line:column: key.path: reason" into @err.
 */
int parse_file(const char *path, struct scenario_set *set, char *err, size_t errlen);
/* Same, from a buffer; @name is used in messages. */
int parse_buffer(const char *name, const char *buf, size_t len,
		 struct scenario_set *set, char *err, size_t errlen);
/* A file or every *.yaml under a directory (sorted, recursive). */
int parse_path(const char *path, struct scenario_set *set, char *err, size_t errlen);

#endif
