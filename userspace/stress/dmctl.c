// SPDX-License-Identifier: GPL-2.0
#include "dmctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 32

int wbs_dmsetup(struct wbs_buf *out, const char *const argv[])
{
	const char *args[MAX_ARGS + 2] = { "dmsetup" };
	int pfd[2], status;
	char chunk[4096];
	ssize_t n;
	pid_t pid;
	size_t i;

	for (i = 0; argv[i] && i < MAX_ARGS; i++)
		args[i + 1] = argv[i];
	args[i + 1] = NULL;
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (!pid) {
		dup2(pfd[1], 1);
		execvp("dmsetup", (char *const *)args);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (out)
			wbs_buf_add(out, chunk, (size_t)n);
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int wbs_dm_message(struct wbs_buf *out, const char *dev, const char *fmt, ...)
{
	const char *argv[MAX_ARGS + 1] = { "message", dev, "0" };
	char text[1024], *save = NULL, *w;
	unsigned int n = 3;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (w = strtok_r(text, " ", &save); w && n < MAX_ARGS;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	return wbs_dmsetup(out, argv);
}
