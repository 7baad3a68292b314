/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenario processes.  Each named process of a scenario is an agent: a
 * forked process that owns its fds and mappings and performs one step per
 * request on a socketpair.  "fork" makes an agent fork a child agent that
 * inherits its fds (the same open file descriptions).
 */
#ifndef WBERR_AGENT_H
#define WBERR_AGENT_H

#include <sys/types.h>
#include "scenario.h"

#define AGENT_MAX 16

struct agent_resp {
	long long ret;
	int err;		/* errno of a failed call, 0 otherwise */
	unsigned long ino;	/* open: st_ino of the file */
	unsigned maj, min;	/* open: st_dev (or st_rdev for a device) */
	pid_t pid;		/* fork: the child */
	int content;		/* pread with content: CONTENT_* of what it read */
};

struct agents {
	int n;			/* sockets in use */
	int ctl[AGENT_MAX];	/* controller ends */
	int peer[AGENT_MAX];	/* agent ends (closed in the controller after start) */
	pid_t main_pid;
	const struct scenario *sc;
	char mnt[256];
	char dev[256];
};

/* create @nprocs socket pairs and fork the "main" agent on socket 0 */
int agents_start(struct agents *a, const struct scenario *sc, int nprocs,
		 const char *mnt, const char *dev);
/* run step @step in the agent on socket @sock; @child_sock for fork */
int agent_call(struct agents *a, int sock, int step, int child_sock, struct agent_resp *r,
	       int timeout_ms);
/* ask every live agent to exit, reap main */
void agents_stop(struct agents *a, const int *alive);

#endif
