/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assertions for the host unit tests, printed through wb_tap.  One writer
 * per test binary (wb_test_tap); tap_done() prints the plan and gives the
 * exit status.
 */
#ifndef WB_TEST_H
#define WB_TEST_H

#include <stdio.h>
#include <string.h>

#include "wb_tap.h"

static struct wb_tap wb_test_tap = { NULL, 0, 0 };

static inline struct wb_tap *wb_test(void)
{
	if (!wb_test_tap.out)
		wb_tap_init(&wb_test_tap, stdout);
	return &wb_test_tap;
}

#define ok(cond, ...) do {						\
	int _c = !!(cond);						\
	wb_tap_point(wb_test(), _c, 0, NULL, __VA_ARGS__);		\
	if (!_c) {							\
		wb_tap_yaml_begin(wb_test());				\
		printf("  at: %s:%d\n  cond: \"%s\"\n", __FILE__, __LINE__, #cond); \
		wb_tap_yaml_end(wb_test());				\
	}								\
} while (0)

/* expected value first, like KUNIT_EXPECT_EQ */
#define is_int(want, got, ...) do {					\
	long long _w = (want), _g = (got);				\
	ok(_w == _g, __VA_ARGS__);					\
	if (_w != _g)							\
		printf("  # want %lld, got %lld\n", _w, _g);		\
} while (0)

#define is_str(want, got, ...) do {					\
	const char *_w = (want), *_g = (got);				\
	ok(_g && !strcmp(_w, _g), __VA_ARGS__);				\
	if (!_g || strcmp(_w, _g))					\
		printf("  # want \"%s\"\n  # got  \"%s\"\n", _w, _g ? _g : "(null)"); \
} while (0)

static inline int tap_done(void)
{
	return wb_tap_done(wb_test());
}

#endif
