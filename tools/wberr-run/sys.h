/* SPDX-License-Identifier: GPL-2.0 */
/* Running shell commands (guest side); file helpers are lib/c's wb_sys. */
#ifndef WBERR_SYS_H
#define WBERR_SYS_H

#include <stddef.h>

/* /bin/sh -c CMD, stdout+stderr into @out; returns the exit status or -1 */
int run_cmd(char *out, size_t outlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
extern int sys_verbose;

#endif
