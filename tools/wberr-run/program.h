/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program mode: one instance of a scenario with 'program:' (an unmodified
 * program under a fault plan, then recovery and the user's checker),
 * judged from the trace of every sync-family call it made.
 */
#ifndef WBERR_PROGRAM_H
#define WBERR_PROGRAM_H

#include "exec.h"
#include "result.h"

/* runs @inst (inst->sc->prog set); 0, or -1 when out of memory */
int program_run(const struct exec_cfg *cfg, const struct instance *inst, struct inst_result *res);

#endif
