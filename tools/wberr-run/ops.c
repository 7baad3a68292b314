// SPDX-License-Identifier: GPL-2.0
/* The op table (ops.h) expanded into its arrays. */
#include "ops.h"
#include "oracle.h"
#include "scenario.h"
#include "wb_names.h"

#define OP_NAME(e, name, ...) [OP_##e] = name,
const char *const op_names[OP__N] = { WBERR_OPS(OP_NAME) };

#define OP_DESC(e, name, keys, who, sync, ftab, field, hook, fd, exec) \
	[OP_##e] = { name, keys, OPW_##who, sync, ftab, offsetof(struct step, field), hook, fd },
const struct op_desc op_table[OP__N] = { WBERR_OPS(OP_DESC) };
