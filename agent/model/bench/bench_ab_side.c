/*
 * bench_ab_side.c - one side of make bench-ab (bench_ab.c): a model of
 * the build this side is compiled against, running a scenario.  Compiled
 * twice by bench-ab.sh: SIDE=A against the other build's headers and
 * library, SIDE=B against this build's, whose library symbols it renames
 * (B_...) so that both engines link into one program.  Its functions are
 * sideA_* or sideB_*.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>

#include "agent/model/model.h"
#include "agent/model/scenario.h"

#ifndef SIDE
#error "bench_ab_side.c: compile with -DSIDE=A or -DSIDE=B"
#endif
#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b)  AB_CAT2(a, b)
#define AB_FN(name)   AB_CAT(AB_CAT(side, SIDE), _##name)
#define AB_STR2(x)    #x
#define AB_STR(x)     AB_STR2(x)

int AB_FN(start)(const char *scenario);
unsigned long long AB_FN(run)(unsigned long long t_ns);
void AB_FN(stop)(void);

static struct model_scenario sc;
static struct model *m;

/* A new model of the scenario (config text) with its sources: 0, or -1
 * with a message. */
int AB_FN(start)(const char *scenario)
{
	char err[512];

	if (model_scenario_parse_text(scenario, "bench", NULL, &sc, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_ab: side %s: %s\n", AB_STR(SIDE), err);
		return -1;
	}
	m = model_scenario_build(&sc, err, sizeof(err));
	if (m == NULL) {
		fprintf(stderr, "bench_ab: side %s: %s\n", AB_STR(SIDE), err);
		model_scenario_free(&sc);
		return -1;
	}
	return 0;
}

/* Run to virtual time t_ns: the packets arrived so far. */
unsigned long long AB_FN(run)(unsigned long long t_ns)
{
	struct model_stats st;

	model_run(m, t_ns);
	model_get_stats(m, &st);
	return st.arrived;
}

void AB_FN(stop)(void)
{
	model_free(m);
	m = NULL;
	model_scenario_free(&sc);
}
