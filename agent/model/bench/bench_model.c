/*
 * bench_model.c - benchmark of the switch model (make bench).
 *
 * A 64-port 100G switch with 8 unicast queues per port, offered about
 * 60 % load of IMIX packets: four uniform-destination Poisson streams per
 * port (DSCP 0, 8, 16, 24: four traffic classes, 15 % each) plus an 8:1
 * incast group bursting at line rate into port 0.  Prints simulated packets
 * per wall-clock second, the memory of the model per port (engine and
 * traffic sources apart) and per buffered packet, cycles per packet on
 * x86-64 (the clock estimated before and after the run, core_ghz), and
 * instructions per packet where the kernel lets a process count its own
 * (perf events; the line is left out otherwise).  Figures only: nothing is asserted.
 * Usage: bench_model [VIRTUAL_MS] (default 20).
 */
#include "config.h"

#include <malloc.h>
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

#include "agent/model/model.h"
#include "agent/model/scenario.h"
#include "agent/model/traffic.h"

static const char bench_scenario[] =
    "model {\n"
    "  seed = 7\n"
    "  ports = 64\n"
    "  speed = 100G\n"
    "  buffer = 32M\n"
    "  unicast_queues = 8\n"
    "  traffic tc0 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 0 flows = 2 }\n"
    "  traffic tc1 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 8 flows = 2 }\n"
    "  traffic tc2 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 16 flows = 2 }\n"
    "  traffic tc3 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 24 flows = 2 }\n"
    "  traffic incast { ports = {1-8} destination = incast to = 0 rate = 100%\n"
    "                arrival = onoff period = 1ms duty = 2% size = imix dscp = 0 flows = 2 }\n"
    "}\n";

/* Bytes allocated: from the heap arenas and in blocks malloc mmapped on
 * their own (big ones, such as the port array). */
static size_t heap_used(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
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

int main(int argc, char **argv)
{
	struct model_scenario sc;
	struct model_stats st;
	struct model_err me;
	struct model_source *gens;
	struct model *m;
	size_t gm0 = 0, gm1 = 0;
	char err[512];
	double ms = argc > 1 ? atof(argv[1]) : 20.0, t0, c0, wall, cpu, ghz0, ghz1;
	size_t h0, h1, h2, h3, ring;
	uint64_t instr = 0;
	int ifd;
	uint64_t end_ns, step = 100000, t, max_buf = 0;

	if (!(ms > 0)) {
		fprintf(stderr, "usage: bench_model [VIRTUAL_MS]\n");
		return 2;
	}
	end_ns = (uint64_t)(ms * 1e6);
	if (model_scenario_parse_text(bench_scenario, "bench", NULL, &sc, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_model: %s\n", err);
		return 1;
	}
	h0 = heap_used();
	m = model_new(&sc.cfg, &me);
	if (!m) {
		fprintf(stderr, "bench_model: %s\n", me.msg);
		return 1;
	}
	h1 = heap_used();
	/* the generators are added one by one so that their memory can be
	 * read at the end (the model owns and frees them) */
	gens = calloc(sc.ngen, sizeof(*gens));
	if (!gens) {
		fprintf(stderr, "bench_model: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < sc.ngen; i++) {
		if (model_gen_new(&sc.gen[i], &gens[i], err, sizeof(err)) < 0 ||
		    model_add_source(m, &gens[i]) < 0) {
			fprintf(stderr, "bench_model: %s\n", err);
			return 1;
		}
	}
	h2 = heap_used();
	for (unsigned i = 0; i < sc.ngen; i++)
		gm0 += model_gen_memory(&gens[i]);

	ifd = instr_counter_open();
#ifdef __linux__
	if (ifd >= 0)
		ioctl(ifd, PERF_EVENT_IOC_ENABLE, 0);
#endif
	ghz0 = core_ghz();
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (t = step; t <= end_ns; t += step) {
		model_run(m, t);
		model_get_stats(m, &st);
		if (st.pkts_buffered + st.held > max_buf)
			max_buf = st.pkts_buffered + st.held;
	}
	wall = clock_s(CLOCK_MONOTONIC) - t0;
	cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	ghz1 = core_ghz();
	if (ifd >= 0 && read(ifd, &instr, sizeof(instr)) != (ssize_t)sizeof(instr))
		instr = 0;
	if (ifd >= 0)
		close(ifd);
	h3 = heap_used();
	for (unsigned i = 0; i < sc.ngen; i++)
		gm1 += model_gen_memory(&gens[i]);
	model_get_stats(m, &st);

	printf("switch: 64 x 100G, 8 unicast queues, 32 MB buffer; ~60%% offered load, IMIX, "
	       "8:1 incast bursts into port 0\n");
	printf("virtual time: %.1f ms; wall time: %.3f s; CPU time: %.3f s\n", ms, wall, cpu);
	printf("simulated packets: %llu arrived (%llu engine events)\n",
	       (unsigned long long)st.arrived, (unsigned long long)st.n_events_processed);
	printf("simulated packets per wall-clock second: %.2f million (per CPU second: %.2f "
	       "million; they differ when the machine is shared)\n",
	       wall > 0 ? st.arrived / wall / 1e6 : 0.0, cpu > 0 ? st.arrived / cpu / 1e6 : 0.0);
	if (ghz0 > 0 && ghz1 > 0 && st.arrived > 0) {
		double cyc = (ghz0 + ghz1) / 2 * 1e9 * cpu / (double)st.arrived;

		printf("cycles per simulated packet: about %.0f (the clock: about %.2f GHz before "
		       "the run, %.2f after, from a chain of multiplies, which a busy sibling "
		       "hardware thread on the host does not slow as it slows the run); at this "
		       "rate 10 million packets per second take a %.1f GHz core\n",
		       cyc, ghz0, ghz1, cyc * 10e6 / 1e9);
	}
	if (instr > 0)
		printf("instructions per simulated packet: %.0f (user space, engine and "
		       "generators)\n",
		       (double)instr / (double)st.arrived);
	printf("drops: %llu ingress, %llu egress copies; peak packets in the buffer: %llu\n",
	       (unsigned long long)st.ing_dropped, (unsigned long long)st.copies_dropped,
	       (unsigned long long)max_buf);
	if (h0 || h1) {
		ring = (size_t)model_config_of(m)->event_capacity * sizeof(struct model_event);
		printf("memory: engine %.0f bytes per port (%zu bytes for 64+1 ports; of "
		       "these, %zu bytes are the event ring, whatever the port count, so "
		       "%.0f bytes per port without it)\n",
		       (double)(h1 - h0) / 65.0, h1 - h0, ring,
		       h1 - h0 > ring ? (double)(h1 - h0 - ring) / 65.0 : 0.0);
		printf("memory: traffic generators %.0f bytes per port at start, %.0f at the end "
		       "(%u generators; header caches fill as flows, destinations and sizes "
		       "are first used)\n",
		       (double)(h2 - h1) / 64.0, (double)(h2 - h1 + gm1 - gm0) / 64.0, sc.ngen);
		{
			size_t grow = h3 > h2 ? h3 - h2 : 0,
			       eng = grow > gm1 - gm0 ? grow - (gm1 - gm0) : 0;

			printf(
			    "memory: engine growth during the run %zu bytes = %.0f bytes per peak "
			    "buffered or held packet (%llu; packet pool and event heap)\n",
			    eng, max_buf ? (double)eng / max_buf : 0.0,
			    (unsigned long long)max_buf);
		}
	} else {
		printf("memory: not measured (needs glibc mallinfo2)\n");
	}
	model_free(m);
	model_scenario_free(&sc);
	free(gens);
	return 0;
}
