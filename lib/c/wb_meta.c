// SPDX-License-Identifier: GPL-2.0
/* meta.txt, its keys in one table; wb_meta.h. */
#include "wb_meta.h"
#include "wb_sys.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define META_ROW(k, who, doc) { #k, who, doc },
const struct wb_meta_key wb_meta_keys[] = { WB_META_KEYS(META_ROW) };
const unsigned int wb_nr_meta_keys = sizeof(wb_meta_keys) / sizeof(wb_meta_keys[0]);

static int known(const char *key)
{
	size_t n = strcspn(key, ".");

	for (unsigned int i = 0; i < wb_nr_meta_keys; i++)
		if (strlen(wb_meta_keys[i].key) == n && !strncmp(wb_meta_keys[i].key, key, n))
			return 1;
	return 0;
}

int wb_meta_put(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!known(key))
		return -1;
	fprintf(f, "%s=", key);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	return 0;
}

int wb_meta_load(struct wb_meta *m, const char *dir)
{
	char path[4096], *line, *save = NULL, *eq;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/meta.txt", dir);
	m->text = wb_read_file(path, NULL);
	if (!m->text)
		return -1;
	for (line = strtok_r(m->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char **k, **v;

		if (!(eq = strchr(line, '=')))
			continue;
		k = realloc(m->key, (m->n + 1) * sizeof(*k));
		if (k)
			m->key = k;
		v = realloc(m->val, (m->n + 1) * sizeof(*v));
		if (v)
			m->val = v;
		if (!k || !v) {
			wb_meta_free(m);
			errno = ENOMEM;
			return -1;
		}
		*eq = 0;
		m->key[m->n] = line;
		m->val[m->n++] = eq + 1;
	}
	return 0;
}

const char *wb_meta_get(const struct wb_meta *m, const char *key, const char *dflt)
{
	for (unsigned int i = m->n; i-- > 0;)
		if (!strcmp(m->key[i], key))
			return m->val[i];
	return dflt;
}

uint64_t wb_meta_u64(const struct wb_meta *m, const char *key, uint64_t dflt)
{
	const char *v = wb_meta_get(m, key, NULL);

	return v ? strtoull(v, NULL, 0) : dflt;
}

void wb_meta_free(struct wb_meta *m)
{
	free(m->text);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}
