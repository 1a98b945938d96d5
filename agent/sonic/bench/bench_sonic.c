/*
 * bench_sonic.c - the sonic backend's cost per poll cycle against a real
 * redis-server loaded by sonic_fixture.py (bench-sonic.sh starts both):
 * the backend alone on a libevent loop with the daemon's host table,
 * polling every INTERVAL ms for SECONDS; prints the CPU time of this
 * process per cycle, the Redis commands, pipelines (round trips) and
 * socket wake-ups per cycle.
 *
 * usage: bench_sonic SOCKET [SECONDS [INTERVAL_MS]]
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "agent/host.h"
#include "agent/sonic/backend_sonic.h"

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	const struct bsf_backend_ops *ops = bsf_backend_sonic_ops();
	struct event_base *base = event_base_new();
	struct bsf_hostimpl *hi = base ? bsf_host_new(base, NULL, NULL) : NULL;
	struct sonic_backend_stats s0, s1;
	struct bsf_backend_args args;
	const struct bsf_device_desc *dev;
	char section[512], err[256];
	int seconds = argc > 2 ? atoi(argv[2]) : 10, ms = argc > 3 ? atoi(argv[3]) : 100;
	struct timeval tv = {.tv_sec = seconds};
	unsigned queues = 0, pgs = 0;
	double c0, c1;
	uint64_t polls, refreshes;
	void *st;

	if (argc < 2 || !hi || seconds < 1 || ms < 100) {
		fprintf(stderr, "usage: bench_sonic SOCKET [SECONDS [INTERVAL_MS >= 100]]\n");
		return 2;
	}
	snprintf(section, sizeof section,
		 "redis = \"%s\"\nconfig_db = 4\nappl_db = 0\ncounters_db = 2\n"
		 "database_config = \"/nonexistent\"\npoll_interval = %dms\nmap_refresh = 3600s\n",
		 argv[1], ms);
	memset(&args, 0, sizeof args);
	args.size = sizeof args;
	args.host = &hi->host;
	args.section_text = section;
	args.section_file = "bench";
	args.section_line = 1;
	st = ops->open(&args, err, sizeof err);
	if (!st) {
		fprintf(stderr, "bench_sonic: %s\n", err);
		return 1;
	}
	dev = ops->describe(st);
	for (uint32_t i = 0; i < dev->nports; i++) {
		queues += dev->ports[i].n_uc_queues + dev->ports[i].n_mc_queues;
		pgs += dev->ports[i].n_pgs;
	}
	/* the first cycle reads the maps: start counting after it */
	tv.tv_sec = 0;
	tv.tv_usec = 500000;
	event_base_loopexit(base, &tv);
	event_base_dispatch(base);
	sonic_backend_get_stats(st, &s0);
	c0 = cpu_s();
	tv.tv_sec = seconds;
	tv.tv_usec = 0;
	event_base_loopexit(base, &tv);
	event_base_dispatch(base);
	c1 = cpu_s();
	sonic_backend_get_stats(st, &s1);
	polls = s1.polls - s0.polls;
	refreshes = s1.refreshes - s0.refreshes;
	if (!polls) {
		fprintf(stderr, "bench_sonic: no poll cycle completed\n");
		return 1;
	}
	printf("sonic backend: %u ports, %u queues, %u PGs, %u pools; %llu poll cycles in %d s "
	       "(every %d ms), %llu map refreshes\n",
	       dev->nports, queues, pgs, dev->n_ingress_pools + dev->n_egress_pools,
	       (unsigned long long)polls, seconds, ms, (unsigned long long)refreshes);
	printf("  agent CPU per poll cycle: %.1f us\n", (c1 - c0) * 1e6 / (double)polls);
	printf("  Redis commands per cycle: %.1f\n",
	       (double)(s1.commands - s0.commands) / (double)polls);
	printf("  pipelines (round trips) per cycle: %.2f\n",
	       (double)(s1.batches - s0.batches) / (double)polls);
	printf("  socket wake-ups per cycle: %.1f readable, %.1f writable\n",
	       (double)(s1.reads - s0.reads) / (double)polls,
	       (double)(s1.writes - s0.writes) / (double)polls);
	printf("  stalled ticks %llu, failed cycles %llu\n",
	       (unsigned long long)(s1.stalls - s0.stalls),
	       (unsigned long long)(s1.polls_failed - s0.polls_failed));
	ops->close(st);
	bsf_host_free(hi);
	event_base_free(base);
	return 0;
}
