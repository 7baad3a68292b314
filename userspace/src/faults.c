// SPDX-License-Identifier: GPL-2.0
/* Fault programming and the fault log of one instance; see faults.h. */
#include "faults.h"
#include "crosscheck.h"
#include "dm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOGBUF (1 << 20)

int faults_init(struct faults *fl, const char *dmname)
{
	memset(fl, 0, sizeof(*fl));
	fl->dmname = dmname;
	fl->logbuf = malloc(LOGBUF);
	return fl->logbuf ? 0 : -1;
}

void faults_free(struct faults *fl)
{
	free(fl->log);
	free(fl->logbuf);
	fl->log = NULL;
	fl->logbuf = NULL;
}

/* the log answers as many whole lines as fit: page on until nothing new */
int faults_fetch_log(struct faults *fl)
{
	char msg[64];

	for (int page = 0; page < 1000; page++) {
		snprintf(msg, sizeof(msg), "log %" PRIu64, fl->next_seq);
		if (dm_message(fl->dmname, msg, fl->logbuf, LOGBUF))
			return -1;
		if (!dm_parse_log(fl->logbuf, fl->next_seq, &fl->log, &fl->nlog, &fl->caplog))
			return 0;
		fl->next_seq = fl->log[fl->nlog - 1].seq + 1;
	}
	return 0;
}

int faults_program(struct faults *fl, const struct stack *s, const struct fault_spec *f,
		   const char *matrix_status, char *msg, size_t len)
{
	const char *status = strcmp(f->status, "$status") ? f->status : matrix_status;
	struct rule *ru;
	struct ext e[MAX_EXT];
	int n = 1;
	char cmd[512], out[4096];

	if (fl->nrules == MAX_RULES)
		return -ENOSPC;
	ru = &fl->rules[fl->nrules];
	memset(ru, 0, sizeof(*ru));
	snprintf(ru->id, sizeof(ru->id), "%s", f->id);
	if (f->file[0]) {
		if (s->fs == FS_RAW) {
			add_msg(msg, len, "file-targeted faults need a filesystem");
			return -EINVAL;
		}
		n = stack_fiemap(s, f->file, e, MAX_EXT);
		if (n < 0) {
			add_msg(msg, len, "FIEMAP %s: %s", f->file, strerror(-n));
			return n;
		}
		if (n == 0) {
			add_msg(msg, len, "%s has no allocated extents yet (delayed allocation): "
				"fsync or fallocate it before targeting it", f->file);
			return -ENODATA;
		}
	}
	for (int k = 0; k < n; k++) {
		char *end;
		unsigned long id;

		dm_format_add(f, status, f->file[0] != 0, f->file[0] ? e[k].first : 0,
			      f->file[0] ? e[k].last : 0, cmd, sizeof(cmd));
		if (dm_message(fl->dmname, cmd, out, sizeof(out))) {
			add_msg(msg, len, "'%s' refused: %.300s", cmd, out);
			return -EINVAL;
		}
		id = strtoul(out, &end, 10);
		if (end == out) {
			add_msg(msg, len, "'%s': no rule id in \"%.100s\"", cmd, out);
			return -EINVAL;
		}
		ru->kid[ru->nk++] = (unsigned)id;
		add_msg(msg, len, "rule %lu: %s", id, cmd);
	}
	fl->nrules++;
	return 0;
}

int faults_remove(struct faults *fl, const char *id, char *msg, size_t len)
{
	char cmd[64], out[1024];

	for (int i = 0; i < fl->nrules; i++) {
		if (strcmp(fl->rules[i].id, id))
			continue;
		for (int k = 0; k < fl->rules[i].nk; k++) {
			snprintf(cmd, sizeof(cmd), "remove %u", fl->rules[i].kid[k]);
			if (dm_message(fl->dmname, cmd, out, sizeof(out))) {
				add_msg(msg, len, "'%s' refused: %.200s", cmd, out);
				return -EINVAL;
			}
		}
		fl->rules[i].id[0] = 0;
		fl->rules[i].nk = 0;
		return 0;
	}
	add_msg(msg, len, "no fault with id '%s'", id);
	return -ENOENT;
}

int faults_clear(struct faults *fl)
{
	char out[1024];
	int rc = dm_message(fl->dmname, "clear", out, sizeof(out)) ? -1 : 0;

	fl->nrules = 0;
	return rc;
}
