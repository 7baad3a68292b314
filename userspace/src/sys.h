/* SPDX-License-Identifier: GPL-2.0 */
/* Running commands and small file helpers (guest side). */
#ifndef WBERR_SYS_H
#define WBERR_SYS_H

#include <stddef.h>

/* /bin/sh -c CMD, stdout+stderr into @out; returns the exit status or -1 */
int run_cmd(char *out, size_t outlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int write_file(const char *path, const char *s);
int read_file(const char *path, char **buf, size_t *len);
extern int sys_verbose;

#endif
