/*
 * bench_model.c - benchmark of the switch model (make bench).
 *
 * A 64-port 100G switch with 8 unicast queues per port, offered about
 * 60 % load of IMIX packets: four uniform-destination Poisson streams per
 * port (DSCP 0, 8, 16, 24: four traffic classes, 15 % each) plus an 8:1
 * incast group bursting at line rate into port 0.  Prints simulated packets
 * per wall-clock second, the memory of the model per port (engine and
 * traffic sources apart) and per buffered packet, cycles per packet on
 * x86-64 (the clock estimated before and after each run, core_ghz), and
 * instructions per packet where the kernel lets a process count its own
 * (perf events; left out otherwise).  The scenario runs several times from
 * the same seed (the same work each time): every run is printed, then the
 * fastest, the median and the slowest; a shared machine's other work only
 * ever slows a run.  Since every run does the same work in each step of
 * 100 us of virtual time, the fastest time of each step over the runs,
 * summed, is a time for the whole scenario that such work has disturbed
 * least: a host that is busy for seconds at a time spoils whole runs, not
 * the same steps of every run.  Figures only: nothing is asserted.
 * Usage: bench_model [VIRTUAL_MS [RUNS]] (default 20 ms, 5 runs).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

#include "agent/model/hugemem.h"
#include "agent/model/model.h"
#include "agent/model/scenario.h"
#include "agent/model/traffic.h"
#include "agent/model/bench/bench_scenario.h"

/* Bytes allocated: from the heap arenas, in blocks malloc mmapped on
 * their own (big ones) and in the model's huge-page mappings (hugemem.h:
 * whole 2 MiB pages, such as the block of the port array). */
static size_t heap_used(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd + hugemem_mapped(NULL);
#else
	return 0;
#endif
}

/* A counter of this process's user-space instructions, or -1 (not Linux,
 * or no hardware counters, as in many virtual machines). */
static int instr_counter_open(void)
{
#ifdef __linux__
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
#else
	return -1;
#endif
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The core's clock as this process sees it, in GHz, or 0 where it is not
 * estimated: a chain of dependent 64-bit multiplies (3 cycles each on
 * x86-64 cores: Intel since Core 2, AMD since Zen) timed over 50 ms of
 * CPU time.  Time a shared virtual machine's host takes counts as CPU time
 * here as it does in the run, so cycles per packet from it are steadier
 * than packets per second (not when the host runs another thread on the
 * same core: that slows the run, not the chain). */
static double core_ghz(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	uint64_t x = 3;
	double n = 0, c, c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);

	do {
		for (int i = 0; i < 100000; i++)
			__asm__ volatile("imul %0, %0\n\timul %0, %0\n\t"
					 "imul %0, %0\n\timul %0, %0"
					 : "+r"(x));
		n += 400000;
	} while ((c = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) < 0.05);
	return 3.0 * n / c / 1e9;
#else
	return 0;
#endif
}

/* At most this many runs (the second argument), and this much virtual
 * time a run (the first). */
#define BENCH_MAX_RUNS 20
#define BENCH_MAX_MS   100000.0

/* The step of virtual time: the run advances the model this far at a time
 * (and reads its buffered packets), and times each step. */
#define BENCH_STEP_NS 100000u

/* What one run measured. */
struct run {
	double wall, cpu, ghz0, ghz1;
	uint64_t instr, arrived, events, ing_dropped, copies_dropped, max_buf;
	size_t h0, h1, h2, h3, gm0, gm1, ring, hp, hp_asked;
	unsigned ngen;
};

/* One run of the scenario from its seed over end_ns of virtual time: a new
 * model and new generators, freed at the end.  Each step's wall time
 * lowers step_min[its index] if shorter.  0, or -1 with a message. */
static int one_run(const struct model_scenario *sc, uint64_t end_ns, struct run *r,
		   double *step_min)
{
	struct model_stats st;
	struct model_err me;
	struct model_source *gens;
	struct model *m;
	char err[512];
	double t0, c0, ts;
	int ifd;
	uint64_t t = 0;
	size_t k = 0;

	memset(r, 0, sizeof(*r));
	r->h0 = heap_used();
	m = model_new(&sc->cfg, &me);
	if (!m) {
		fprintf(stderr, "bench_model: %s\n", me.msg);
		return -1;
	}
	r->h1 = heap_used();
	r->ring = (size_t)model_config_of(m)->event_capacity * sizeof(struct model_event);
	/* the generators are added one by one so that their memory can be
	 * read at the end (the model owns and frees them) */
	gens = calloc(sc->ngen, sizeof(*gens));
	if (!gens) {
		fprintf(stderr, "bench_model: out of memory\n");
		model_free(m);
		return -1;
	}
	for (unsigned i = 0; i < sc->ngen; i++) {
		if (model_gen_new(&sc->gen[i], &gens[i], err, sizeof(err)) < 0 ||
		    model_add_source(m, &gens[i]) < 0) {
			fprintf(stderr, "bench_model: %s\n", err);
			model_free(m);
			free(gens);
			return -1;
		}
	}
	r->h2 = heap_used();
	r->ngen = sc->ngen;
	for (unsigned i = 0; i < sc->ngen; i++)
		r->gm0 += model_gen_memory(&gens[i]);

	ifd = instr_counter_open();
	r->ghz0 = core_ghz();
#ifdef __linux__
	if (ifd >= 0)
		ioctl(ifd, PERF_EVENT_IOC_ENABLE, 0);
#endif
	t0 = ts = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	while (t < end_ns) {
		double tn;

		t = end_ns - t > BENCH_STEP_NS ? t + BENCH_STEP_NS : end_ns;
		model_run(m, t);
		model_get_stats(m, &st);
		if (st.pkts_buffered + st.held > r->max_buf)
			r->max_buf = st.pkts_buffered + st.held;
		tn = clock_s(CLOCK_MONOTONIC);
		if (tn - ts < step_min[k])
			step_min[k] = tn - ts;
		ts = tn;
		k++;
	}
	r->wall = ts - t0;
	r->cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
#ifdef __linux__
	if (ifd >= 0)
		ioctl(ifd, PERF_EVENT_IOC_DISABLE, 0);
#endif
	r->ghz1 = core_ghz();
	if (ifd >= 0 && read(ifd, &r->instr, sizeof(r->instr)) != (ssize_t)sizeof(r->instr))
		r->instr = 0;
	if (ifd >= 0)
		close(ifd);
	r->h3 = heap_used();
	r->hp = hugemem_mapped(&r->hp_asked);
	for (unsigned i = 0; i < sc->ngen; i++)
		r->gm1 += model_gen_memory(&gens[i]);
	model_get_stats(m, &st);
	r->arrived = st.arrived;
	r->events = st.n_events_processed;
	r->ing_dropped = st.ing_dropped;
	r->copies_dropped = st.copies_dropped;
	model_free(m);
	free(gens);
	return 0;
}

static double mpps(const struct run *r)
{
	return r->wall > 0 ? r->arrived / r->wall / 1e6 : 0.0;
}

/* Cycles per packet from the clock estimated around the run, or 0. */
static double cycles(const struct run *r)
{
	if (!(r->ghz0 > 0 && r->ghz1 > 0 && r->arrived > 0))
		return 0;
	return (r->ghz0 + r->ghz1) / 2 * 1e9 * r->cpu / (double)r->arrived;
}

static int by_wall(const void *a, const void *b)
{
	double x = ((const struct run *)a)->wall, y = ((const struct run *)b)->wall;

	return (x > y) - (x < y);
}

/* The memory lines, from one run (every run allocates the same). */
static void print_memory(const struct run *r)
{
	size_t h0 = r->h0, h1 = r->h1, h2 = r->h2, h3 = r->h3, ring = r->ring;

	if (!(h0 || h1)) {
		printf("memory: not measured (needs glibc mallinfo2)\n");
		return;
	}
	printf("memory: engine %.0f bytes per port (%zu bytes for 64+1 ports; of "
	       "these, %zu bytes are the event ring, whatever the port count, so "
	       "%.0f bytes per port without it)\n",
	       (double)(h1 - h0) / 65.0, h1 - h0, ring,
	       h1 - h0 > ring ? (double)(h1 - h0 - ring) / 65.0 : 0.0);
	printf("memory: traffic sources %.0f bytes per port at start, %.0f at the end "
	       "(%u generators and the engine's buffers of their next packets; header "
	       "caches fill as flows, destinations and sizes are first used)\n",
	       (double)(h2 - h1) / 64.0, (double)(h2 - h1 + r->gm1 - r->gm0) / 64.0, r->ngen);
	size_t grow = h3 > h2 ? h3 - h2 : 0, gg = r->gm1 - r->gm0, eng = grow > gg ? grow - gg : 0;
	printf("memory: engine and sources above: %zu bytes are huge-page mappings (whole 2 MiB "
	       "pages, holding %zu bytes of arrays: the ports' block and the sources' buffers)\n",
	       r->hp, r->hp_asked);
	printf("memory: engine growth during the run %zu bytes = %.0f bytes per peak "
	       "buffered or held packet (%llu; packet pool and event heap)\n",
	       eng, r->max_buf ? (double)eng / r->max_buf : 0.0, (unsigned long long)r->max_buf);
}

int main(int argc, char **argv)
{
	struct model_scenario sc;
	struct run runs[BENCH_MAX_RUNS], first;
	char err[512];
	double ms = argc > 1 ? atof(argv[1]) : 20.0, *step_min, composite = 0;
	long nruns = argc > 2 ? strtol(argv[2], NULL, 10) : 5;
	uint64_t end_ns;
	size_t nsteps;

	if (!(ms > 0) || ms > BENCH_MAX_MS || nruns < 1 || nruns > BENCH_MAX_RUNS || argc > 3) {
		fprintf(stderr,
			"usage: bench_model [VIRTUAL_MS [RUNS]] (VIRTUAL_MS above 0, up to %.0f; "
			"RUNS 1..%d)\n",
			BENCH_MAX_MS, BENCH_MAX_RUNS);
		return 2;
	}
	end_ns = (uint64_t)(ms * 1e6);
	if (end_ns == 0)
		end_ns = 1;
	nsteps = (size_t)((end_ns + BENCH_STEP_NS - 1) / BENCH_STEP_NS);
	step_min = malloc(nsteps * sizeof(*step_min));
	if (step_min == NULL) {
		fprintf(stderr, "bench_model: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < nsteps; i++)
		step_min[i] = HUGE_VAL;
	if (model_scenario_parse_text(bench_scenario, "bench", NULL, &sc, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_model: %s\n", err);
		free(step_min);
		return 1;
	}
	printf("switch: 64 x 100G, 8 unicast queues, 32 MB buffer; ~60%% offered load, IMIX, "
	       "8:1 incast bursts into port 0\n");
	printf("virtual time: %g ms a run; %ld runs, each a new model from the same seed "
	       "(the same packets and events)\n",
	       ms, nruns);
	for (long i = 0; i < nruns; i++) {
		struct run *r = &runs[i];

		if (one_run(&sc, end_ns, r, step_min) < 0) {
			model_scenario_free(&sc);
			free(step_min);
			return 1;
		}
		printf("run %ld: wall %.3f s, CPU %.3f s: %.2f million packets per wall-clock "
		       "second",
		       i + 1, r->wall, r->cpu, mpps(r));
		if (cycles(r) > 0)
			printf(", about %.0f cycles per packet (clock about %.2f GHz)", cycles(r),
			       (r->ghz0 + r->ghz1) / 2);
		if (r->instr > 0)
			printf(", %.0f instructions per packet",
			       (double)r->instr / (double)r->arrived);
		printf("\n");
		fflush(stdout);
	}
	first = runs[0];
	qsort(runs, (size_t)nruns, sizeof(runs[0]), by_wall);
	const struct run *best = &runs[0], *med = &runs[nruns / 2], *worst = &runs[nruns - 1];
	printf("simulated packets: %llu arrived (%llu engine events) a run\n",
	       (unsigned long long)first.arrived, (unsigned long long)first.events);
	printf("simulated packets per wall-clock second: %.2f million in the fastest run "
	       "(median %.2f, slowest %.2f; per CPU second in the fastest: %.2f). Other work "
	       "on the machine or its host only slows a run, so the fastest is the nearest "
	       "to the code's own speed\n",
	       mpps(best), mpps(med), mpps(worst),
	       best->cpu > 0 ? best->arrived / best->cpu / 1e6 : 0.0);
	for (size_t i = 0; i < nsteps; i++)
		composite += step_min[i];
	free(step_min);
	if (nruns > 1 && composite > 0)
		printf("simulated packets per wall-clock second, each %u us step of virtual time "
		       "at its fastest over the %ld runs (the same work in each run; the sum of "
		       "the steps' fastest times, %.3f s, against the fastest run's %.3f s): "
		       "%.2f million\n",
		       BENCH_STEP_NS / 1000, nruns, composite, best->wall,
		       first.arrived / composite / 1e6);
	if (cycles(best) > 0)
		printf("cycles per simulated packet in the fastest run: about %.0f (the clock: "
		       "about %.2f GHz before it, %.2f after, from a chain of multiplies, which "
		       "a busy sibling hardware thread on the host does not slow as it slows "
		       "the run); at this rate 10 million packets per second take a %.1f GHz "
		       "core\n",
		       cycles(best), best->ghz0, best->ghz1, cycles(best) * 10e6 / 1e9);
	printf("drops: %llu ingress, %llu egress copies; peak packets in the buffer: %llu\n",
	       (unsigned long long)first.ing_dropped, (unsigned long long)first.copies_dropped,
	       (unsigned long long)first.max_buf);
	print_memory(&first);
	model_scenario_free(&sc);
	return 0;
}
