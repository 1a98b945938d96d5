/*
 * scenario_ext.h - the model section's ingress_arbitration and
 * flow_admission subsections (scenario_ext.c): their option tables and
 * their parser into a model_config.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SCENARIO_EXT_H
#define BSFLOWD_MODEL_SCENARIO_EXT_H

#include <confuse.h>

#include "agent/confval.h"
#include "agent/model/model.h"

extern cfg_opt_t model_scen_iarb_opts[];
extern cfg_opt_t model_scen_fb_opts[];

/* The subsections present in the model section sec, into cfg->iarb and
 * cfg->fb (heap; model_config_release frees them).  0, or -1 with the
 * message in x. */
int model_scen_ext_build(struct conf_ctx *x, cfg_t *sec, struct model_config *cfg);

#endif
