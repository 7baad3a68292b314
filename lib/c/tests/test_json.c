// SPDX-License-Identifier: GPL-2.0
/* wb_json: what a program prints cannot break the JSON a report holds. */
#include <errno.h>
#include <stdlib.h>

#include "wb_json.h"
#include "wb_test.h"

static char *render(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, in);
	fclose(f);
	return buf;
}

static void put_errno(FILE *f, const char *in)
{
	wb_json_errno(f, atoi(in));
}

int main(void)
{
	char *s;

	s = render(wb_json_str, "a \"q\" \\ b");
	is_str("\"a \\\"q\\\" \\\\ b\"", s, "quotes and backslashes escaped");
	free(s);
	s = render(wb_json_str, "l1\nl2\t");
	is_str("\"l1\\u000al2\\u0009\"", s, "control characters as \\u");
	free(s);
	s = render(wb_json_str, "caf\xc3\xa9 \xff \xc0\xaf");
	is_str("\"caf\xc3\xa9 \\ufffd \\ufffd\\ufffd\"", s, "valid UTF-8 kept, invalid and overlong bytes U+FFFD");
	free(s);
	s = render(wb_json_str, "del\x7f nel\xc2\x85 c1\xc2\x9f ls\xe2\x80\xa8 ps\xe2\x80\xa9 nc\xef\xbf\xbe\xef\xbf\xbf");
	is_str("\"del\\u007f nel\\u0085 c1\\u009f ls\\u2028 ps\\u2029 nc\\ufffe\\uffff\"", s,
	       "DEL, C1, the separators and U+FFFE/FFFF as \\u: YAML would not keep them raw");
	free(s);
	s = render(wb_json_str, "\xc2\xa0\xe2\x80\xa7\xef\xbf\xbd");
	is_str("\"\xc2\xa0\xe2\x80\xa7\xef\xbf\xbd\"", s, "their neighbours kept as they are");
	free(s);
	s = render(wb_json_str, NULL);
	is_str("null", s, "NULL is null");
	free(s);
	s = render(put_errno, "5");
	is_str("\"EIO\"", s, "an errno by name");
	free(s);
	s = render(put_errno, "-1");
	is_str("null", s, "an unknown errno is null");
	free(s);
	return tap_done();
}
