// SPDX-License-Identifier: GPL-2.0
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int sys_verbose;

int run_cmd(char *out, size_t outlen, const char *fmt, ...)
{
	char cmd[4096];
	int pfd[2], st;
	size_t off = 0;
	ssize_t n;
	pid_t pid;
	va_list ap;
	char sink[512];

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (sys_verbose)
		fprintf(stderr, "+ %s\n", cmd);
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	if (out && outlen)
		out[0] = 0;
	for (;;) {
		if (out && off + 1 < outlen)
			n = read(pfd[0], out + off, outlen - off - 1);
		else
			n = read(pfd[0], sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && off + 1 < outlen) {
			off += (size_t)n;
			out[off] = 0;
		}
	}
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (sys_verbose && out && out[0])
		fprintf(stderr, "%s%s", out, out[strlen(out) - 1] == '\n' ? "" : "\n");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
