/* SPDX-License-Identifier: GPL-2.0 */
/* TAP 14, JUnit XML, the per-filesystem summary and the errno-fidelity table. */
#ifndef WBERR_REPORT_H
#define WBERR_REPORT_H

#include <stdio.h>
#include "result.h"

void report_tap_begin(FILE *out, int n);
void report_tap_result(FILE *out, int idx, const struct inst_result *r);
/* "# " lines: per filesystem, which guarantees hold */
void report_summary(FILE *out, const char *prefix, const struct inst_result *rs, int n);
int report_junit(const char *path, const struct inst_result *rs, int n);
/* errno-fidelity.md and errno-fidelity.csv under @dir; 0 if nothing to write */
int report_fidelity(const char *dir, const struct inst_result *rs, int n);
/* quote for a YAML double-quoted scalar / XML attribute */
void yaml_quote(const char *in, char *out, size_t len);
void xml_escape(const char *in, char *out, size_t len);

#endif
