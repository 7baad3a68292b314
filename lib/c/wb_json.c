// SPDX-License-Identifier: GPL-2.0
#include "wb_json.h"

#include "wb_names.h"

/* the length of the valid UTF-8 sequence at @p, 0 when it is not one */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/*
 * The code point at @p when it is valid UTF-8 that YAML would not keep
 * as it is inside a quoted scalar (results_read() reads results.json
 * with libyaml): the C1 controls (NEL a line break), the line and
 * paragraph separators, U+FFFE and U+FFFF; else 0.
 */
static size_t yaml_unsafe(const unsigned char *p)
{
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return p[1];
	if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
		return 0x2000 | (p[2] & 0x3f);
	if (p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf))
		return 0xffc0 | (p[2] & 0x3f);
	return 0;
}

/* a JSON string: quotes, backslashes and controls (C0, DEL, C1) escaped, bad UTF-8 as U+FFFD */
void wb_json_str(FILE *out, const char *str)
{
	const unsigned char *p = (const unsigned char *)(str ? str : "");
	size_t n;

	if (!str) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, out);
		} else if ((n = yaml_unsafe(p))) {
			fprintf(out, "\\u%04x", (unsigned)n);
			p += n < 0x800 ? 2 : 3;
		} else if ((n = utf8_len(p))) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			fputs("\\ufffd", out);
			p++;
		}
	}
	fputc('"', out);
}

void wb_json_errno(FILE *out, int err)
{
	if (err < 0)
		fputs("null", out);
	else
		wb_json_str(out, wb_errno_name(err));
}
