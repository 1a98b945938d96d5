/*
 * confwarn.h - the warnings of `bsflowd -t`: a configuration that loads
 * but would do nothing or not what was likely meant (a model with no
 * traffic, a bare number in a list of delay thresholds, which reads as
 * seconds, datagrams too small for a port's counters sample).  Each is
 * one line "FILE:LINE: warning: ...".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_CONFWARN_H
#define BSFLOWD_AGENT_CONFWARN_H

#include <stdio.h>

#include "agent/conf.h"

/* Write c's warnings to out; returns how many. */
int conf_warn(const struct conf *c, FILE *out);

#endif
