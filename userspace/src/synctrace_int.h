/* SPDX-License-Identifier: GPL-2.0 */
/* What synctrace.c, synctrace_attr.c and synctrace_render.c share. */
#ifndef WBERR_SYNCTRACE_INT_H
#define WBERR_SYNCTRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *sc_grow(void *v, size_t *cap, size_t n, size_t size);
/* whether a task (@tid of @tgid, 0 = not recorded) is the runner @self itself */
int sc_is_self(uint32_t self, uint32_t tid, uint32_t tgid);

/* a new element at the end of @vec (n used, cap allocated), NULL when out of memory */
#define PUSH(vec, n, cap) ({							\
	__typeof__(vec) _v = sc_grow((vec), &(cap), (n), sizeof(*(vec)));	\
	_v ? ((vec) = _v, &_v[(n)++]) : NULL;					\
})

#endif
