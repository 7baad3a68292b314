// SPDX-License-Identifier: GPL-2.0
#include "wb_dm.h"

#include <errno.h>
#include <inttypes.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int wb_dm_verbose;

/* libdevmapper's error messages (a refused message) go here, not to stderr */
static char last_error[512];

static void dm_log(int level, const char *file, int line, int dm_errno_or_class,
		   const char *f, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno_or_class;
	if (level > 3)	/* above _LOG_ERR: warnings and debug chatter */
		return;
	va_start(ap, f);
	vsnprintf(last_error, sizeof(last_error), f, ap);
	va_end(ap);
}

const char *wb_dm_error(void)
{
	return last_error;
}

static struct dm_task *task(int type, const char *name)
{
	static int inited;
	struct dm_task *dmt;

	if (!inited) {
		dm_log_with_errno_init(dm_log);
		/* no udev in the guest: libdevmapper makes the nodes itself */
		dm_udev_set_sync_support(0);
		inited = 1;
	}
	last_error[0] = 0;
	dmt = dm_task_create(type);
	if (!dmt) {
		snprintf(last_error, sizeof(last_error), "dm_task_create failed");
		return NULL;
	}
	if (!dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return NULL;
	}
	return dmt;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	if (!wb_dm_verbose)
		return;
	fputs("+ dmsetup ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Runs @dmt and destroys it.  Table changes (create, resume, remove) go
 * through a cookie as in dmsetup: with udev sync off it is 0 and
 * dm_udev_wait() only makes or removes the nodes the call stacked.
 */
static int run(struct dm_task *dmt, int nodes)
{
	uint32_t cookie = 0;
	int ok, err = 0;

	ok = (!nodes || dm_task_set_cookie(dmt, &cookie, 0)) && dm_task_run(dmt);
	if (!ok) {
		err = dm_task_get_errno(dmt);
		if (err <= 0)
			err = EIO;
		if (!last_error[0])
			snprintf(last_error, sizeof(last_error), "%s", strerror(err));
	}
	if (nodes)
		dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ok ? 0 : -err;
}

int wb_dm_table_split(const char *line, uint64_t *start, uint64_t *len,
		      char *target, size_t tlen, const char **params, size_t *plen)
{
	int t0 = 0, t1 = 0;
	const char *end, *nl = strchr(line, '\n');

	/* %*s would run over a newline into the next line when this one ends early */
	if (sscanf(line, "%" SCNu64 " %" SCNu64 " %n%*s%n", start, len, &t0, &t1) != 2 ||
	    !t1 || (nl && line + t0 > nl) || (size_t)(t1 - t0) >= tlen)
		return -1;
	memcpy(target, line + t0, (size_t)(t1 - t0));
	target[t1 - t0] = 0;
	*params = line + t1;
	while (**params == ' ' || **params == '\t')
		(*params)++;
	end = strchr(*params, '\n');
	*plen = end ? (size_t)(end - *params) : strlen(*params);
	return 0;
}

/* every line of @table as a target of @dmt; with @dmt NULL only checks */
static int add_targets(struct dm_task *dmt, const char *table)
{
	const char *line = table;
	int n = 0;

	while (line && *line) {
		const char *nl = strchr(line, '\n'), *params;
		char target[64], *p;
		uint64_t start, len;
		size_t plen;
		int ok;

		if (*line != '\n') {
			if (wb_dm_table_split(line, &start, &len, target, sizeof(target),
					      &params, &plen)) {
				snprintf(last_error, sizeof(last_error), "bad table line: %.400s", line);
				return -1;
			}
			if (dmt) {
				p = strndup(params, plen);
				ok = p && dm_task_add_target(dmt, start, len, target, p);
				free(p);
				if (!ok)
					return -1;
			}
			n++;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!n)
		snprintf(last_error, sizeof(last_error), "empty table");
	return n ? 0 : -1;
}

/*
 * A create or load task carrying @table.  A bad table is refused before
 * dm_task_create() opens dm's control node (the host tests rely on it).
 * NULL and *@rc (-EINVAL, -ENOMEM) on failure.
 */
static struct dm_task *table_task(int type, const char *name, const char *table, int *rc)
{
	struct dm_task *dmt;

	last_error[0] = 0;
	*rc = -EINVAL;
	if (add_targets(NULL, table))
		return NULL;
	dmt = task(type, name);
	if (!dmt) {
		*rc = -ENOMEM;
		return NULL;
	}
	if (add_targets(dmt, table)) {
		dm_task_destroy(dmt);
		return NULL;
	}
	return dmt;
}

int wb_dm_create(const char *name, const char *table)
{
	struct dm_task *dmt;
	char node[256];
	int rc;

	say("create %s --table '%s'", name, table);
	dmt = table_task(DM_DEVICE_CREATE, name, table, &rc);
	if (!dmt)
		return rc;
	rc = run(dmt, 1);
	if (rc)
		return rc;
	/* what the callers open next; missing means the node handling broke */
	snprintf(node, sizeof(node), "%s/%s", dm_dir(), name);
	if (access(node, F_OK)) {
		rc = -errno;
		snprintf(last_error, sizeof(last_error), "created, but no %s: %s", node,
			 strerror(errno));
		return rc;
	}
	return 0;
}

int wb_dm_reload(const char *name, const char *table)
{
	struct dm_task *dmt;
	int rc;

	say("load %s --table '%s'", name, table);
	dmt = table_task(DM_DEVICE_RELOAD, name, table, &rc);
	return dmt ? run(dmt, 0) : rc;
}

int wb_dm_suspend(const char *name, int nolockfs)
{
	struct dm_task *dmt = task(DM_DEVICE_SUSPEND, name);

	say("suspend %s%s", nolockfs ? "--nolockfs " : "", name);
	if (!dmt)
		return -ENOMEM;
	if (nolockfs && !dm_task_skip_lockfs(dmt)) {
		dm_task_destroy(dmt);
		return -EIO;
	}
	return run(dmt, 0);
}

int wb_dm_resume(const char *name)
{
	struct dm_task *dmt = task(DM_DEVICE_RESUME, name);

	say("resume %s", name);
	return dmt ? run(dmt, 1) : -ENOMEM;
}

int wb_dm_remove(const char *name, int retry)
{
	struct dm_task *dmt = task(DM_DEVICE_REMOVE, name);

	say("remove %s%s", retry ? "--retry " : "", name);
	if (!dmt)
		return -ENOMEM;
	/* --retry: a just-unmounted fs or a scanning tool may hold it a moment */
	if (retry)
		dm_task_retry_remove(dmt);
	return run(dmt, 1);
}

int wb_dm_message(const char *name, const char *msg, char *out, size_t outlen)
{
	struct dm_task *dmt = task(DM_DEVICE_TARGET_MSG, name);
	const char *resp;
	int rc;

	say("message %s 0 %s", name, msg);
	if (out && outlen)
		out[0] = 0;
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_sector(dmt, 0) || !dm_task_set_message(dmt, msg)) {
		dm_task_destroy(dmt);
		return -ENOMEM;
	}
	if (!dm_task_run(dmt)) {
		rc = dm_task_get_errno(dmt);
		rc = rc > 0 ? -rc : -EIO;
		if (out && outlen)
			snprintf(out, outlen, "%s", last_error);
		dm_task_destroy(dmt);
		return rc;
	}
	resp = dm_task_get_message_response(dmt);
	if (resp && out && outlen)
		snprintf(out, outlen, "%s", resp);
	dm_task_destroy(dmt);
	return 0;
}

/* TABLE and STATUS answer the same shape: one (start, len, type, params) a target */
static int targets(int type, const char *verb, const char *name, char *out, size_t outlen)
{
	struct dm_task *dmt = task(type, name);
	uint64_t start, length;
	char *ttype, *params;
	void *next = NULL;
	size_t off = 0;
	int rc;

	say("%s %s", verb, name);
	if (outlen)
		out[0] = 0;
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_run(dmt)) {
		rc = dm_task_get_errno(dmt);
		dm_task_destroy(dmt);
		return rc > 0 ? -rc : -EIO;
	}
	do {
		next = dm_get_next_target(dmt, next, &start, &length, &ttype, &params);
		if (!ttype)
			break;
		if (off < outlen)
			off += (size_t)snprintf(out + off, outlen - off, "%" PRIu64 " %" PRIu64 " %s%s%s\n",
						start, length, ttype, params && *params ? " " : "",
						params ? params : "");
	} while (next);
	dm_task_destroy(dmt);
	if (off >= outlen) {
		snprintf(last_error, sizeof(last_error), "%s %s: answer too long", verb, name);
		return -ENOSPC;
	}
	return 0;
}

int wb_dm_table(const char *name, char *out, size_t outlen)
{
	return targets(DM_DEVICE_TABLE, "table", name, out, outlen);
}

int wb_dm_status(const char *name, char *out, size_t outlen)
{
	return targets(DM_DEVICE_STATUS, "status", name, out, outlen);
}

int wb_dm_wberr_table(char *buf, size_t len, uint64_t sectors, const char *dev, uint64_t seed)
{
	int n = snprintf(buf, len, "0 %" PRIu64 " wberr %s 0 4 log_size 65536 seed %" PRIu64,
			 sectors, dev, seed);

	return n >= 0 && (size_t)n < len ? 0 : -1;
}
