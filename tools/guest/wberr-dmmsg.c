// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-dmmsg: "dmsetup message NAME 0 WORD..." in a static program, for
 * the guest tests that send a message per check (tests/dm-wberr/rc's msg).
 *
 *   wberr-dmmsg NAME [WORD...]
 *
 * The words are joined by single spaces, as dmsetup joins them, and sent
 * at sector 0.  What it prints, and its exit status, are dmsetup's: the
 * target's answer on stdout (a newline added when it lacks one); on a
 * refusal "device-mapper: message ioctl on NAME  failed: <strerror>" and
 * "Command failed." on stderr, status 1.  tests/dm-wberr/034 holds the
 * two to each other.  Under TCG dmsetup takes some 50 ms a call, nearly
 * all of it in the dynamic loader; this program some 5 ms (lib/c/wb_dmmsg.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_dmmsg.h"

/* argv's words, joined by single spaces, in a buffer the caller frees */
static char *join_words(int n, char **words)
{
	size_t len = 1, off = 0;
	char *text;

	for (int i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	text[0] = '\0';
	for (int i = 0; i < n; i++)
		off += (size_t)sprintf(text + off, "%s%s", i ? " " : "", words[i]);
	return text;
}

int main(int argc, char **argv)
{
	struct wb_dmmsg m = { 0 };
	char *text;
	size_t len;
	int ctl, rc;

	if (argc < 2) {
		fprintf(stderr, "usage: wberr-dmmsg NAME [WORD...]\n");
		return 2;
	}
	text = join_words(argc - 2, argv + 2);
	if (!text) {
		perror("wberr-dmmsg");
		return 1;
	}
	ctl = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		perror("wberr-dmmsg: /dev/mapper/control");
		return 1;
	}
	rc = wb_dmmsg_send(ctl, argv[1], text, &m);
	if (rc) {
		fprintf(stderr, "device-mapper: message ioctl on %s  failed: %s\n"
			"Command failed.\n", argv[1], strerror(rc));
		return 1;
	}
	/* dmsetup's _message(): the answer as it is when it ends a line */
	if (m.reply) {
		len = strlen(m.reply);
		fputs(m.reply, stdout);
		if (len && m.reply[len - 1] != '\n')
			putchar('\n');
	}
	wb_dmmsg_free(&m);
	free(text);
	close(ctl);
	return fflush(stdout) ? 1 : 0;
}
