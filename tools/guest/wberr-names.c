// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-names: the names of lib/c's wb_names and wb_fs for shell scripts,
 * so that no script keeps its own table of statuses, op classes, errnos,
 * file systems or mkfs command lines.
 * Usage text below; README.md has examples.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_errseq.h"
#include "wb_fs.h"
#include "wb_names.h"

static const char usage[] =
	"usage: wberr-names statuses [--alias]  every status: name blk_sts ERRNAME errno\n"
	"                                       (--alias: also nexus after resv_conflict)\n"
	"       wberr-names status NAME...      those statuses, same format\n"
	"       wberr-names ops                 the op-class names, one a line\n"
	"       wberr-names errno WORD          ERRNAME errno, for a status name,\n"
	"                                       an errno name or an errno number\n"
	"       wberr-names errseq HEX          an errseq_t decoded:\n"
	"                                       errno=N name=E seen=0|1 counter=N with_seen=HEX\n"
	"       wberr-names fs                  every file system, one a line (raw first)\n"
	"       wberr-names mkfs FS [--dax]     the command that makes FS (on pmem for DAX);\n"
	"                                       status 1 when there is none (raw; no DAX)\n"
	"       wberr-names module FS           the kernel module that has FS (status 1: none)\n";

static void print_status(const char *name, const struct wb_status *s)
{
	printf("%s %d %s %d\n", name, s->blk_sts, wb_errno_name(s->err), s->err);
}

static int cmd_errno(const char *w)
{
	const struct wb_status *s = wb_status_by_name(w);
	char *end;
	long n;

	if (s) {
		printf("%s %d\n", wb_errno_name(s->err), s->err);
		return 0;
	}
	if (isdigit((unsigned char)w[0])) {
		n = strtol(w, &end, 10);
		if (!*end && n >= 0 && n <= (long)WB_ERRSEQ_MAX_ERRNO) {
			printf("%s %ld\n", wb_errno_name((int)n), n);
			return 0;
		}
	} else if (wb_errno_by_name(w) >= 0) {
		printf("%s %d\n", w, wb_errno_by_name(w));
		return 0;
	}
	fprintf(stderr, "wberr-names: errno: unknown status, errno name or number '%s'\n", w);
	return 1;
}

static int cmd_errseq(const char *hex)
{
	char *end;
	unsigned long v = strtoul(hex, &end, 16);
	wb_errseq_t e = (wb_errseq_t)v;

	if (!*hex || *end || v > 0xffffffffUL) {
		fprintf(stderr, "wberr-names: errseq: not a 32-bit hex value '%s'\n", hex);
		return 1;
	}
	printf("errno=%d name=%s seen=%d counter=%u with_seen=%08x\n", wb_errseq_errno(e),
	       wb_errno_name(wb_errseq_errno(e)), wb_errseq_seen(e), wb_errseq_counter(e),
	       e | WB_ERRSEQ_SEEN);
	return 0;
}

/* fs, mkfs FS [--dax], module FS: lib/c/wb_fs.c's table */
static int cmd_fs(int argc, char **argv)
{
	const char *what = argv[1];
	int dax = argc == 4 && !strcmp(argv[3], "--dax"), fs;
	const char *v;

	if (!strcmp(what, "fs")) {
		if (argc != 2)
			return -1;
		for (int i = 0; i < WB_FS__N; i++)
			printf("%s\n", wb_fs[i].name);
		return 0;
	}
	if (argc != 3 + dax || (dax && strcmp(what, "mkfs")))
		return -1;
	fs = wb_fs_by_name(argv[2]);
	if (fs < 0) {
		fprintf(stderr, "wberr-names: %s: unknown file system '%s'\n", what, argv[2]);
		return 1;
	}
	v = !strcmp(what, "module") ? wb_fs[fs].module : dax ? wb_fs[fs].mkfs_dax : wb_fs[fs].mkfs;
	if (!v)
		return 1;
	printf("%s\n", v);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "statuses") && (argc == 2 || (argc == 3 && !strcmp(argv[2], "--alias")))) {
		for (size_t i = 0; i < wb_nr_statuses; i++) {
			print_status(wb_statuses[i].name, &wb_statuses[i]);
			if (argc == 3 && !strcmp(wb_statuses[i].name, wb_status_alias_of))
				print_status(wb_status_alias, &wb_statuses[i]);
		}
		return 0;
	}
	if (!strcmp(cmd, "status") && argc > 2) {
		for (int i = 2; i < argc; i++) {
			const struct wb_status *s = wb_status_by_name(argv[i]);

			if (!s) {
				fprintf(stderr, "wberr-names: status: unknown status '%s'\n", argv[i]);
				return 1;
			}
			print_status(argv[i], s);
		}
		return 0;
	}
	if (!strcmp(cmd, "ops") && argc == 2) {
		for (size_t i = 0; i < wb_nr_ops; i++)
			printf("%s\n", wb_op_names[i].name);
		return 0;
	}
	if (!strcmp(cmd, "errno") && argc == 3)
		return cmd_errno(argv[2]);
	if (!strcmp(cmd, "errseq") && argc == 3)
		return cmd_errseq(argv[2]);
	if (!strcmp(cmd, "fs") || !strcmp(cmd, "mkfs") || !strcmp(cmd, "module")) {
		int rc = cmd_fs(argc, argv);

		if (rc >= 0)
			return rc;
	}
	fputs(usage, strcmp(cmd, "--help") ? stderr : stdout);
	return strcmp(cmd, "--help") ? 2 : 0;
}
