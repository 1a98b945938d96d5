/*
 * sim_ext.h - bsflow-sim's report of ingress arbitration and flow-based
 * admission (sim_ext.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SIM_EXT_H
#define BSFLOWD_MODEL_SIM_EXT_H

#include "agent/model/model.h"

/* The model read window these reports read (bsflow-sim's end-of-run
 * report's; the sFlow export of --sflow reads 0). */
#define SIM_EXT_WINDOW 2

/* Text sections, printed after the buffer section. */
void model_sim_ext_text(struct model *m);
/* JSON members, each followed by a comma (none when both are off). */
void model_sim_ext_json(struct model *m);

#endif
