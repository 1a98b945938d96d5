/*
 * bench_ab.c - make bench-ab: is this build's switch model faster or
 * slower than another build's, on a machine whose speed varies?  Both
 * engines are linked into this program (bench-ab.sh renames this build's
 * symbols; bench_ab_side.c is each side), each runs the benchmark's
 * scenario (bench_scenario.h), and they take turns: a chunk of virtual
 * time on one, the same chunk on the other, in alternating order.  Each
 * pair of chunks runs within some tens of ms of wall-clock time, so
 * whatever else the machine or its host is doing slows both alike, and
 * the ratio of their times is the comparison; the median over all pairs
 * is printed with its quartiles.  On a busy shared machine, where single
 * runs of make bench vary by a third, a build against itself gives
 * ratios within about 1 %.  Figures only: nothing is asserted.
 * Usage: bench_ab [RUNS [VIRTUAL_MS [CHUNK_US]]] (default 4 runs of
 * 20 ms in 200 us chunks; a run is a new model on each side).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "agent/model/bench/bench_scenario.h"

int sideA_start(const char *scenario), sideB_start(const char *scenario);
unsigned long long sideA_run(unsigned long long t_ns), sideB_run(unsigned long long t_ns);
void sideA_stop(void), sideB_stop(void);

#define AB_MAX_CHUNKS 100000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One side's run to virtual time t: its wall-clock seconds, and in
 * *arrived its packets so far. */
static double timed(unsigned long long (*run)(unsigned long long), unsigned long long t,
		    unsigned long long *arrived)
{
	double t0 = now_s();

	*arrived = run(t);
	return now_s() - t0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double ratio[AB_MAX_CHUNKS], wa[AB_MAX_CHUNKS], wb[AB_MAX_CHUNKS];

int main(int argc, char **argv)
{
	long runs = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
	double ms = argc > 2 ? atof(argv[2]) : 20.0, chunk_us = argc > 3 ? atof(argv[3]) : 200.0;
	double sum_a = 0, sum_b = 0;
	unsigned long long pkts = 0, differ = 0;
	long n = 0, per_run;

	if (argc > 4 || runs < 1 || !(ms > 0) || !(chunk_us >= 1) || chunk_us > ms * 1e3) {
		fprintf(stderr, "usage: bench_ab [RUNS [VIRTUAL_MS [CHUNK_US]]]\n");
		return 2;
	}
	per_run = (long)(ms * 1e3 / chunk_us);
	if ((double)runs * (double)per_run > AB_MAX_CHUNKS) {
		fprintf(stderr, "bench_ab: at most %d chunks in all\n", AB_MAX_CHUNKS);
		return 2;
	}
	for (long r = 0; r < runs; r++) {
		unsigned long long la = 0, lb = 0;

		if (sideA_start(bench_scenario) < 0)
			return 1;
		if (sideB_start(bench_scenario) < 0) {
			sideA_stop();
			return 1;
		}
		for (long c = 1; c <= per_run; c++, n++) {
			unsigned long long t = (unsigned long long)(c * chunk_us * 1e3), xa, xb;

			/* alternate which goes first (a side may warm the caches
			 * for the other, or the machine may change mid-pair) */
			if (n % 2 == 0) {
				wa[n] = timed(sideA_run, t, &xa);
				wb[n] = timed(sideB_run, t, &xb);
			} else {
				wb[n] = timed(sideB_run, t, &xb);
				wa[n] = timed(sideA_run, t, &xa);
			}
			if (xa - la != xb - lb)
				differ++;
			pkts += xa - la;
			la = xa;
			lb = xb;
			sum_a += wa[n];
			sum_b += wb[n];
			ratio[n] = wa[n] / wb[n];
		}
		sideA_stop();
		sideB_stop();
	}
	qsort(ratio, (size_t)n, sizeof(*ratio), by_value);
	qsort(wa, (size_t)n, sizeof(*wa), by_value);
	qsort(wb, (size_t)n, sizeof(*wb), by_value);
	printf("switch model A/B: %ld runs of %.1f ms virtual time in %ld pairs of %.0f us chunks "
	       "(A: the other build, B: this one)\n",
	       runs, ms, n, chunk_us);
	printf("speed of B relative to A: %.3f (median of the pairs; quartiles %.3f and %.3f; "
	       "over all chunks %.3f); above 1: this build is faster\n",
	       ratio[n / 2], ratio[n / 4], ratio[3 * n / 4], sum_a / sum_b);
	printf("simulated packets per wall-clock second: A %.2f million, B %.2f million over all "
	       "chunks; in the fastest tenth of chunks A %.2f, B %.2f\n",
	       (double)pkts / sum_a / 1e6, (double)pkts / sum_b / 1e6,
	       (double)pkts / (double)n / wa[n / 10] / 1e6,
	       (double)pkts / (double)n / wb[n / 10] / 1e6);
	if (differ > 0)
		printf("note: in %llu of %ld chunks the two builds did not simulate the same "
		       "number of "
		       "packets (their results differ: the comparison is of different work)\n",
		       differ, n);
	return 0;
}
