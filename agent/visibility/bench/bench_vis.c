/*
 * bench_vis.c - throughput of the visibility pipeline (make bench): packet
 * events per second through the monitors alone, and through monitors plus
 * a sampler hierarchy (8 port samplers with tickets and flow filters under
 * a rate-managed aggregate with duplicate removal).  Virtual time; the
 * wall clock only measures the run.  Prints its own figures.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent/visibility/vis_conf.h"
#include "agent/visibility/vis_pipeline.h"

static const char conf_text[] = "visibility {\n"
				"  forensics = yes\n"
				"  delay_profile d { thresholds = {2us, 10us} }\n"
				"  congestion c { high = 64K  low = 16K }\n"
				"  sampler p0 { ports = {0} tickets = 256 flow_filter = yes }\n"
				"  sampler p1 { ports = {1} tickets = 256 flow_filter = yes }\n"
				"  sampler p2 { ports = {2} tickets = 256 flow_filter = yes }\n"
				"  sampler p3 { ports = {3} tickets = 256 flow_filter = yes }\n"
				"  sampler p4 { ports = {4} tickets = 256 flow_filter = yes }\n"
				"  sampler p5 { ports = {5} tickets = 256 flow_filter = yes }\n"
				"  sampler p6 { ports = {6} tickets = 256 flow_filter = yes }\n"
				"  sampler p7 { ports = {7} tickets = 256 flow_filter = yes }\n"
				"  sampler agg {\n"
				"    type = aggregate\n"
				"    members = {p0, p1, p2, p3, p4, p5, p6, p7}\n"
				"    tickets = 512\n"
				"    dedup = yes\n"
				"    rate_manager = yes\n"
				"  }\n"
				"  %s\n"
				"}\n";

static unsigned long long exported;

static void on_event(void *arg, const struct vis_event *ev)
{
	(void)arg;
	(void)ev;
	exported++;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(const char *label, const char *routes)
{
	char text[4096], err[256];
	struct vis_config vc;
	struct vis_pipeline *p;
	struct vis_pipeline_cbs cbs = {.event = on_event};
	struct vis_pkt_event pe;
	const unsigned long n = 4000000;
	uint64_t seq[8][8] = {{0}}, head[8][8] = {{0}};
	double t0, dt;
	unsigned long fed = 0;

	snprintf(text, sizeof text, conf_text, routes);
	if (vis_conf_parse_text(text, "bench", &vc, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	p = vis_pipeline_new(&vc, 8, 8, &cbs, err, sizeof err);
	vis_config_release(&vc);
	if (!p) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	exported = 0;
	memset(&pe, 0, sizeof pe);
	pe.in_port = VIS_NONE;
	pe.tail_id = VIS_ID_NONE;
	t0 = now_s();
	/* per event: an enqueue, and every 4th event a drop, else a departure
	 * of the head packet; 8 ports x 8 queues, 100 ns apart */
	for (unsigned long i = 0; i < n; i++) {
		uint32_t port = (uint32_t)(i % 8), q = (uint32_t)((i / 8) % 8);
		uint64_t depth = (seq[port][q] - head[port][q]) * 1500;
		pe.t_ns = i * 100;
		pe.port = port;
		pe.queue = q;
		pe.flow_hash = (i * 2654435761u) % 1000 + 1;
		if (i % 2 == 0) {
			pe.type = VIS_PKT_ENQUEUE;
			pe.pkt_id = ++seq[port][q];
			pe.depth_bytes = depth + 1500;
			pe.delay_ns = UINT64_MAX;
		} else if (i % 4 == 1) {
			pe.type = VIS_PKT_DROP;
			pe.reason = 259;
			pe.depth_bytes = depth;
		} else if (head[port][q] < seq[port][q]) {
			pe.type = VIS_PKT_DEQUEUE;
			pe.pkt_id = ++head[port][q];
			pe.depth_bytes = depth - 1500;
			pe.delay_ns = (i % 13) * 1000;
		} else {
			continue;
		}
		vis_pipeline_feed(p, &pe);
		fed++;
	}
	dt = now_s() - t0;
	printf("%-28s %lu events in %.3f s: %.1f M events/s, %.0f ns/event, %llu exported\n", label,
	       n, dt, n / dt / 1e6, dt * 1e9 / n, exported);
	vis_pipeline_free(p);
	return 0;
}

int main(void)
{
	if (run("monitors only", "") ||
	    run("monitors + sampler tree",
		"sample_drops = agg\n sample_delay = agg\n sample_forensics = agg"))
		return 1;
	return 0;
}
