/*
 * backend_model.c - the built-in model backend: struct bsf_backend_ops over
 * the switch model library (agent/model/model.h), run in real time.
 *
 * It uses nothing of the daemon but backend.h: its timers come from the
 * host table, its section comes as text (parsed by the model library's
 * scenario parser, model_scenario_parse_section, with the file's line
 * numbers), and it keeps its own clock and log rate limits.
 *
 * The model's virtual clock follows CLOCK_MONOTONIC from open(): a host
 * timer every BM_TICK_MS calls model_advance_to(now).  One tick advances at
 * most BM_MAX_STEP_NS of virtual time so the loop stays responsive; if the
 * model cannot keep up, the lag (wall clock minus model clock) grows and is
 * reported (lag_ns, and a log line at most once a minute while it exceeds
 * BM_LAG_WARN_NS) rather than the model silently running slow.
 *
 * Read windows map one to one onto the model's (MODEL_NUM_WINDOWS of
 * them): a read of (window, port) is a model read of that port alone,
 * which returns and restarts only that port's window peaks; a device read
 * covers the device, the service pools and the CPU port's queues; a delay
 * read the port's queues.  So each object's peak covers exactly the time
 * since that window last read that object, at O(one port) per read.  The
 * model's times (ns since open) become Unix-epoch ns here.
 *
 * Queue streams (set_queue_events): the model queues an enqueue and a
 * dequeue event for every packet of a streamed queue, which at line rate
 * is far more than its event ring holds over one tick.  While any stream
 * is on, the clock therefore advances in bounded steps (bm_advance): each
 * step runs at most as many engine events as the ring's free slots can
 * absorb at the worst case of model events per engine event (bm_ev_bound),
 * so the ring never overflows; when it is nearly full the step stops, the
 * agent is told to read (events_ready) and a zero-delay timer resumes the
 * clock on the next turn of the loop, after the agent has drained.  A
 * machine that cannot keep up makes the model lag (lag_ns, logged) rather
 * than lose events.  Any loss that still happens while a stream is on is
 * counted in queue_events_lost.  With no stream on, drop and sample
 * events get the same bounded steps while the model keeps up with the
 * wall clock (lag below BM_LOSSY_LAG_NS): the agent drains between steps,
 * so none is lost to a ring drained only every tick.  Only when the
 * machine cannot keep up (the lag passes that bound) does the clock
 * advance unbounded again, and events beyond the ring are lost and
 * counted (event_overflows), keeping the simulation in real time.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "agent/backend.h"
#include "agent/model/backend_model.h"
#include "agent/model/backend_model_own.h"
#include "agent/model/model_flowbuf.h"
#include "agent/model/model.h"
#include "agent/model/scenario.h"

#define BM_TICK_MS     5
#define BM_MAX_STEP_NS (50ull * 1000000ull)
#define BM_LAG_WARN_NS (100ull * 1000000ull)
#define BM_LAG_LOG_NS  (60ull * 1000000000ull)
#define BM_EV_CHUNK    32
/* Lag above which drop / sample events no longer hold the clock back: the
 * lag at which the machine is said not to keep up (BM_LAG_WARN_NS), not a
 * moment the process was not scheduled on a busy machine (with 20 ms, such
 * moments lost a ring's worth of drops now and then at any rate). */
#define BM_LOSSY_LAG_NS BM_LAG_WARN_NS

_Static_assert(BSF_WINDOWS <= MODEL_NUM_WINDOWS, "model windows");

/* Queue streams: bit (mc ? BSF_MAX_QUEUES : 0) + queue of stream[port]. */
_Static_assert(2 * BSF_MAX_QUEUES <= 32, "stream bits");

/* At most one log line per interval; the occurrences in between are
 * counted and reported with the next line. */
struct bm_ratelimit {
	uint64_t last_ns, suppressed;
	int started;
};

struct bm {
	struct model *m;
	const struct bsf_host *host; /* NULL in check() */
	struct bsf_timer *tick;
	struct bsf_timer *more; /* zero-delay resume after a step the ring stopped */
	uint64_t t0_mono_ns, t0_wall_ns;
	uint64_t lag_ns;
	struct bm_ratelimit lag_rl;
	uint64_t events_seen;
	struct bsf_device_desc dev;
	struct bsf_port_desc *ports;
	uint32_t nports; /* front-panel ports (the CPU port is index nports) */
	struct model_event evbuf[BM_EV_CHUNK];
	uint64_t drops_read; /* drop events handed to the agent */
	uint64_t drops_lost; /* drop events the full ring lost (see bm_read_events) */
	/* queue streams */
	uint32_t *stream;	    /* per port, see above */
	uint32_t n_streams;	    /* queues with a stream on */
	uint64_t ev_taken;	    /* model events read out of the ring, all types */
	uint32_t ring_cap;	    /* the ring's slots */
	uint32_t ev_bound;	    /* model events one engine event may queue, at most */
	uint64_t lost_seen;	    /* the model's events_lost at the last look */
	uint64_t qev_lost;	    /* events lost while a stream was on */
	struct bm_ratelimit qev_rl; /* the log line about qev_lost */
};

/* CLOCK_MONOTONIC, ns: what the model's clock follows. */
static uint64_t bm_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The wall clock, Unix-epoch ns: the host's, or the system's. */
static uint64_t bm_wall_ns(const struct bm *b)
{
	struct timespec ts;

	if (b->host && b->host->now_ns)
		return b->host->now_ns(b->host->arg);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* 1 if a line is due at now (with *count the occurrences it stands for),
 * 0 if suppressed. */
static int bm_ratelimit_hit(struct bm_ratelimit *rl, uint64_t now, uint64_t *count)
{
	rl->suppressed++;
	if (rl->started && now - rl->last_ns < BM_LAG_LOG_NS)
		return 0;
	*count = rl->suppressed;
	rl->suppressed = 0;
	rl->last_ns = now;
	rl->started = 1;
	return 1;
}

static void bm_log(struct bm *b, int prio, const char *fmt, ...) BSF_PRINTF_LIKE(3, 4);

static void bm_log(struct bm *b, int prio, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (b->host && b->host->log)
		b->host->log(b->host->arg, prio, "%s", msg);
}

/*
 * The most model events one engine event can queue: a departure queues a
 * dequeue, a sample and a PFC XON; an arrival a drop or an enqueue (or
 * drop) per copy, plus a PFC XOFF.  One more for safety.
 */
static uint32_t bm_ev_bound(const struct model_config *mc)
{
	uint32_t k = 3;

	for (uint32_t g = 0; g < mc->n_mc_groups; g++)
		if (mc->mc_groups[g].nports + 1u > k)
			k = mc->mc_groups[g].nports + 1u;
	return k + 1;
}

/* Model events queued in the ring and not read yet. */
static uint64_t ring_used(const struct bm *b, const struct model_stats *s)
{
	uint64_t queued = s->events - s->events_lost;

	return queued > b->ev_taken ? queued - b->ev_taken : 0;
}

/* Count the events the ring lost since the last look; those lost while a
 * stream is on are queue events possibly, and make the bound safer. */
static void note_losses(struct bm *b)
{
	struct model_stats s;
	uint64_t n, count;

	model_get_stats(b->m, &s);
	n = s.events_lost - b->lost_seen;
	b->lost_seen = s.events_lost;
	if (n == 0 || b->n_streams == 0)
		return;
	b->qev_lost += n;
	if (b->ev_bound < b->ring_cap / 4)
		b->ev_bound *= 2;
	if (bm_ratelimit_hit(&b->qev_rl, bm_mono_ns(), &count))
		bm_log(b, LOG_WARNING,
		       "model: the event ring lost %llu events with queue streams on (%llu in "
		       "all): the visibility monitors see a gap",
		       (unsigned long long)n, (unsigned long long)b->qev_lost);
}

/*
 * Advance the clock towards `to` (model ns).  With a queue stream on, in
 * steps the ring can hold: returns 1 if it stopped short because the ring
 * is nearly full (the agent must read events first), else 0 with the
 * clock at `to`.
 */
static int bm_advance(struct bm *b, uint64_t to)
{
	int full = 0;

	if (b->n_streams == 0 && b->lag_ns > BM_LOSSY_LAG_NS) {
		model_advance_to(b->m, to);
	} else {
		for (;;) {
			struct model_stats s;
			uint64_t used, room;

			model_get_stats(b->m, &s);
			used = ring_used(b, &s);
			room = used < b->ring_cap ? b->ring_cap - used : 0;
			if (room < b->ev_bound) {
				full = 1;
				break;
			}
			if (model_advance_bounded(b->m, to, room / b->ev_bound) == 0)
				break;
		}
	}
	note_losses(b);
	return full;
}

int bsf_backend_model_run_to(void *st, uint64_t t_ns)
{
	struct bm *b = st;

	return bm_advance(b, t_ns);
}

struct model *bsf_backend_model_of(void *st)
{
	struct bm *b = st;

	return b->m;
}

/* One step of the real-time clock: towards the wall clock, at most
 * BM_MAX_STEP_NS of virtual time; from the tick timer or the resume. */
static void bm_step(struct bm *b)
{
	uint64_t target = bm_mono_ns() - b->t0_mono_ns;
	uint64_t now = model_now(b->m), to = target;
	struct model_stats s;
	uint64_t count, done;
	int full;

	if (to > now + BM_MAX_STEP_NS)
		to = now + BM_MAX_STEP_NS;
	model_get_stats(b->m, &s);
	done = s.n_events_processed;
	full = bm_advance(b, to);
	model_get_stats(b->m, &s);
	/* stopped by the ring after some progress: resume as soon as the
	 * agent has read (without progress, the next tick retries) */
	if (full && s.n_events_processed != done && b->more)
		b->host->timer_start(b->more, 0, 0);
	now = bm_mono_ns() - b->t0_mono_ns;
	b->lag_ns = now > model_now(b->m) ? now - model_now(b->m) : 0;
	if (b->lag_ns > BM_LAG_WARN_NS && bm_ratelimit_hit(&b->lag_rl, bm_mono_ns(), &count))
		bm_log(b, LOG_WARNING,
		       "model: the simulation is %.1f ms behind the wall clock: this machine "
		       "cannot run the scenario in real time",
		       (double)b->lag_ns / 1e6);
	if (s.events != b->events_seen) {
		b->events_seen = s.events;
		if (b->host && b->host->events_ready)
			b->host->events_ready(b->host->arg);
	}
}

static void tick_cb(void *arg)
{
	bm_step(arg);
}

static void bm_close(void *st)
{
	struct bm *b = st;

	if (!b)
		return;
	if (b->host) {
		b->host->timer_free(b->tick);
		b->host->timer_free(b->more);
	}
	model_free(b->m);
	free(b->ports);
	free(b->stream);
	free(b);
}

/* The model of args' section (its scenario, so's seed if not NULL, the
 * agent's sampling rates), built, not running.  NULL with a message in
 * err. */
static struct model *bm_build(const struct bsf_backend_args *args,
			      const struct model_scenario_opts *so, char *err, size_t errlen)
{
	struct model *m = NULL;
	struct model_scenario sc;
	int r;

	memset(&sc, 0, sizeof sc);
	r = model_scenario_parse_section(
	    args->section_text, args->section_file ? args->section_file : args->config_file,
	    args->section_line, so, &sc, err, errlen);
	/* the agent's sampling settings replace the scenario's rates */
	if (r == 0 && args->sampling_rate)
		for (uint32_t i = 0; i < sc.cfg.nports; i++)
			sc.cfg.ports[i].sampling_rate = args->sampling_rate(
			    args->sampling_arg, sc.cfg.ports[i].name, sc.cfg.ports[i].speed_bps);
	if (r == 0)
		m = model_scenario_build(&sc, err, errlen);
	model_scenario_free(&sc);
	return m;
}

/* -t: parse the section and build the model (reads replay files), without
 * running it. */
static int bm_check(const struct bsf_backend_args *args, char *report, size_t reportlen, char *err,
		    size_t errlen)
{
	struct model *m = bm_build(args, NULL, err, errlen);
	const struct model_config *mc;

	if (!m)
		return -1;
	mc = model_config_of(m);
	snprintf(report, reportlen, "model: %u ports, %u cells of %u bytes", mc->nports,
		 mc->total_cells, mc->cell_bytes);
	model_free(m);
	return 0;
}

static void *bm_open_with(const struct bsf_backend_args *args, const struct model_scenario_opts *so,
			  char *err, size_t errlen)
{
	struct bm *b = calloc(1, sizeof *b);
	const struct model_config *mc;

	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->host = args->host;
	b->m = bm_build(args, so, err, errlen);
	if (!b->m)
		goto fail;
	mc = model_config_of(b->m);
	b->nports = mc->nports;
	b->ports = calloc(mc->nports, sizeof *b->ports);
	b->stream = calloc(mc->nports, sizeof *b->stream);
	if (!b->ports || !b->stream)
		goto nomem;
	b->ring_cap = mc->event_capacity;
	b->ev_bound = bm_ev_bound(mc);
	for (uint32_t i = 0; i < mc->nports; i++) {
		const struct model_port_config *pc = &mc->ports[i];
		struct bsf_port_desc *p = &b->ports[i];

		p->size = sizeof *p;
		p->ifindex = pc->ifindex;
		snprintf(p->name, sizeof p->name, "%s", pc->name);
		p->speed_bps = pc->speed_bps;
		p->n_uc_queues = pc->n_ucq;
		p->n_mc_queues = pc->n_mcq;
		p->n_pgs = MODEL_NUM_PG;
		p->oper_up = 1;
		p->sampling_rate = pc->sampling_rate;
	}
	b->dev.size = sizeof b->dev;
	snprintf(b->dev.id, sizeof b->dev.id, "model");
	b->dev.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_BUFFERS | BSF_CAP_BUFFER_BYTES |
		      BSF_CAP_PEAK_TIME | BSF_CAP_PGS | BSF_CAP_POOLS | BSF_CAP_CPU_QUEUES |
		      BSF_CAP_DELAY_NONTAGGED | BSF_CAP_DELAY_MARKER | BSF_CAP_DROP_EVENTS |
		      BSF_CAP_SAMPLE_EVENTS | BSF_CAP_MODEL_CLOCK | BSF_CAP_QUEUE_EVENTS;
	b->dev.nports = mc->nports;
	b->dev.ports = b->ports;
	b->dev.cell_bytes = mc->cell_bytes;
	b->dev.total_cells = mc->total_cells;
	b->dev.n_ingress_pools = mc->n_ing_pools;
	b->dev.n_egress_pools = mc->n_egr_pools;
	b->dev.n_cpu_queues = mc->cpu.n_ucq;
	b->t0_mono_ns = bm_mono_ns();
	b->t0_wall_ns = bm_wall_ns(b);
	/* a host without timers (tests): the clock is driven by hand */
	if (b->host)
		b->tick = b->host->timer_new(b->host->arg, tick_cb, b);
	if (b->tick) {
		b->more = b->host->timer_new(b->host->arg, tick_cb, b);
		if (!b->more || b->host->timer_start(b->tick, BM_TICK_MS * 1000000ull, 1) < 0)
			goto nomem;
	}
	bm_log(b, LOG_INFO, "model: %u ports, %u cells of %u bytes, running in real time",
	       mc->nports, mc->total_cells, mc->cell_bytes);
	return b;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	bm_close(b);
	return NULL;
}

static void *bm_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	return bm_open_with(args, NULL, err, errlen);
}

void *bsf_backend_model_open_seeded(const struct bsf_backend_args *args, uint64_t seed, char *err,
				    size_t errlen)
{
	struct model_scenario_opts so = {1, seed};

	return bm_open_with(args, &so, err, errlen);
}

static const struct bsf_device_desc *bm_describe(void *st)
{
	struct bm *b = st;

	return &b->dev;
}

static int bm_read_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			    size_t errlen)
{
	struct bm *b = st;
	struct model_if_counters c;

	if (port >= b->nports || model_read_counters(b->m, port, &c) < 0) {
		snprintf(err, errlen, "model: no port %u", port);
		return -1;
	}
	out->in_octets = c.in_octets;
	out->in_ucast = c.in_ucast;
	out->in_mcast = c.in_mcast;
	out->in_bcast = c.in_bcast;
	out->in_discards = c.in_discards;
	out->in_errors = 0; /* the model has no bit errors */
	out->in_unknown_protos = 0;
	out->out_octets = c.out_octets;
	out->out_ucast = c.out_ucast;
	out->out_mcast = c.out_mcast;
	out->out_bcast = c.out_bcast;
	out->out_discards = c.out_discards;
	out->out_errors = 0;
	out->speed_bps = b->ports[port].speed_bps;
	out->admin_up = 1;
	out->oper_up = 1;
	return 0;
}

/* Copy t (n bytes, a struct with a size first) into the agent's out, as
 * much as out->size holds; out keeps its size. */
static void bm_copy_out(void *out, const void *t, size_t n)
{
	uint32_t osize;
	size_t k;

	memcpy(&osize, out, sizeof osize);
	k = osize < n ? osize : n;
	if (k > sizeof osize)
		memcpy((char *)out + sizeof osize, (const char *)t + sizeof osize,
		       k - sizeof osize);
}

/* One model object as the agent sees it (peak time on the Unix epoch). */
static void occ_to_buf(const struct bm *b, const struct model_occ *o, struct bsf_buf *out)
{
	out->cur_cells = o->cur_cells;
	out->cur_bytes = o->cur_bytes;
	out->peak_cells = o->peak_cells;
	out->peak_bytes = o->peak_bytes;
	out->alloc_cells = o->alloc_cells;
	out->peak_time_ns = b->t0_wall_ns + o->peak_t_ns;
}

static int bm_read_port_buffers(void *st, unsigned window, uint32_t port,
				struct bsf_port_buffers *dst, char *err, size_t errlen)
{
	struct bm *b = st;
	struct model_port_buffers s;
	struct bsf_port_buffers t, *out = &t;

	if (window >= BSF_WINDOWS || port >= b->nports) {
		snprintf(err, errlen, "model: bad window %u or port %u", window, port);
		return -1;
	}
	if (model_read_port_buffers(b->m, window, port, &s) < 0) {
		snprintf(err, errlen, "model: cannot read the buffers of port %u", port);
		return -1;
	}
	memset(out, 0, sizeof *out);
	occ_to_buf(b, &s.ing_uc, &out->ingress_uc);
	occ_to_buf(b, &s.ing_mc, &out->ingress_mc);
	occ_to_buf(b, &s.egr_uc, &out->egress_uc);
	occ_to_buf(b, &s.egr_mc, &out->egress_mc);
	for (int q = 0; q < BSF_MAX_QUEUES && q < MODEL_MAX_QUEUES; q++) {
		occ_to_buf(b, &s.ucq[q], &out->uc[q]);
		occ_to_buf(b, &s.mcq[q], &out->mc[q]);
	}
	for (int g = 0; g < BSF_MAX_PGS && g < MODEL_NUM_PG; g++) {
		occ_to_buf(b, &s.pg[g], &out->pg_shared[g]);
		occ_to_buf(b, &s.pg_headroom[g], &out->pg_headroom[g]);
	}
	bm_copy_out(dst, &t, sizeof t);
	return 0;
}

static int bm_read_device_buffers(void *st, unsigned window, struct bsf_device_buffers *dst,
				  char *err, size_t errlen)
{
	struct bm *b = st;
	struct bsf_device_buffers t, *out = &t;
	struct model_device_buffers d;
	struct model_port_buffers cpu;

	if (window >= BSF_WINDOWS) {
		snprintf(err, errlen, "model: bad window %u", window);
		return -1;
	}
	if (model_read_device_buffers(b->m, window, &d) < 0 ||
	    model_read_port_buffers(b->m, window, b->nports, &cpu) < 0) {
		snprintf(err, errlen, "model: cannot read the device buffers");
		return -1;
	}
	memset(out, 0, sizeof *out);
	occ_to_buf(b, &d.dev_uc, &out->uc);
	occ_to_buf(b, &d.dev_mc, &out->mc);
	for (int i = 0; i < BSF_MAX_POOLS && i < MODEL_MAX_POOLS; i++) {
		occ_to_buf(b, &d.ing_pool[i], &out->ingress_pool[i]);
		occ_to_buf(b, &d.egr_pool[i], &out->egress_pool[i]);
	}
	for (int q = 0; q < BSF_MAX_QUEUES && q < MODEL_MAX_QUEUES; q++)
		occ_to_buf(b, &cpu.ucq[q], &out->cpu[q]);
	bm_copy_out(dst, &t, sizeof t);
	return 0;
}

static int bm_read_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			  char *err, size_t errlen)
{
	struct bm *b = st;
	const struct bsf_port_desc *pd;

	if (window >= BSF_WINDOWS || port >= b->nports) {
		snprintf(err, errlen, "model: bad window %u or port %u", window, port);
		return -1;
	}
	pd = &b->ports[port];
	for (int mc = 0; mc < 2; mc++) {
		unsigned nq = mc ? pd->n_mc_queues : pd->n_uc_queues;

		for (unsigned q = 0; q < BSF_MAX_QUEUES; q++) {
			struct bsf_queue_delay *o = mc ? &out->mc[q] : &out->uc[q];
			struct model_delay d;

			if (q >= nq) {
				o->nontagged_latest_ns = o->nontagged_max_ns = BSF_UNKNOWN;
				o->nontagged_count = o->marker_ns = BSF_UNKNOWN;
				continue;
			}
			if (model_read_delay(b->m, window, port, q, mc, &d) < 0) {
				snprintf(err, errlen,
					 "model: cannot read the delay of port %u "
					 "queue %u",
					 port, q);
				return -1;
			}
			o->nontagged_latest_ns = d.nt_latest_ns;
			o->nontagged_max_ns = d.nt_max_ns;
			o->nontagged_count = d.nt_win_count;
			o->marker_ns = d.mk_delay_ns;
		}
	}
	return 0;
}

static uint32_t map_stage(unsigned cause)
{
	switch (cause) {
	case MODEL_DROP_ING_LIMIT:
		return BSF_STAGE_INGRESS_ADMISSION;
	case MODEL_DROP_EGR_LIMIT:
		return BSF_STAGE_EGRESS_ADMISSION;
	case MODEL_DROP_WRED:
		return BSF_STAGE_WRED;
	default:
		return BSF_STAGE_FORWARDING;
	}
}

/* Is (port, queue, mc) of a model event streamed? */
static int is_streamed(const struct bm *b, const struct model_event *m)
{
	return m->out_port < b->nports && m->queue < BSF_MAX_QUEUES &&
	       (b->stream[m->out_port] >> ((m->mc ? BSF_MAX_QUEUES : 0) + m->queue) & 1u);
}

/* A drop by the flow-based admission: its region (the model's
 * MODEL_FB_DROP_* causes are the ABI's 1..3). */
_Static_assert(MODEL_FB_DROP_DT == 1 && MODEL_FB_DROP_WRED == 2 && MODEL_FB_DROP_STC == 3,
	       "region_cause numbering");
static void fb_drop_to_bsf(const struct bm *b, const struct model_event *m, struct bsf_event *e)
{
	const struct model_fb_config *c = model_fb_config(model_fb_of(b->m));

	e->flags |= BSF_EVF_FLOW_REGION;
	e->region = m->fb_region;
	e->region_cause = m->fb_drop;
	e->region_unit = c->unit == MODEL_FB_UNIT_PKTS;
	e->region_pc = m->fb_pc[0];
	e->region_ingress_pc = m->fb_pc[1];
	e->region_egress_pc = m->fb_pc[2];
	e->region_count = m->fb_count;
	e->region_bound = m->fb_bound;
}

/* One model event as the agent sees it. */
static void event_to_bsf(const struct bm *b, const struct model_event *m, struct bsf_event *e)
{
	/* everything but the header bytes past hdr_len, which nobody reads
	 * (an event stream carries hundreds of thousands a second); e is a
	 * whole struct of this header (see bm_read_events) */
	memset(e, 0, offsetof(struct bsf_event, hdr));
	memset(&e->flags, 0, sizeof *e - offsetof(struct bsf_event, flags));
	e->size = sizeof *e;
	switch (m->type) {
	case MODEL_EV_DROP:
		e->type = BSF_EV_DROP;
		e->stage = map_stage(m->cause);
		e->tail_id = m->queue == MODEL_QUEUE_NONE ? BSF_UNKNOWN : m->tail_id;
		if (is_streamed(b, m))
			e->flags = BSF_EVF_QUEUE_STREAM;
		if (m->fb_drop)
			fb_drop_to_bsf(b, m, e);
		break;
	case MODEL_EV_SAMPLE:
		e->type = BSF_EV_SAMPLE;
		e->transit_ns = m->delay_ns;
		break;
	case MODEL_EV_ENQUEUE:
		e->type = BSF_EV_ENQUEUE;
		e->pkt_id = m->pkt_id;
		e->flags = BSF_EVF_QUEUE_STREAM;
		break;
	default: /* MODEL_EV_DEQUEUE */
		e->type = BSF_EV_DEQUEUE;
		e->pkt_id = m->pkt_id;
		e->transit_ns = m->delay_ns;
		e->flags = BSF_EVF_QUEUE_STREAM;
		break;
	}
	e->reason = m->reason;
	e->in_port = m->in_port == MODEL_PORT_NONE ? UINT32_MAX : m->in_port;
	e->out_port = m->out_port == MODEL_PORT_NONE ? UINT32_MAX : m->out_port;
	e->queue = m->queue == MODEL_QUEUE_NONE ? UINT32_MAX : m->queue;
	/* a multicast sample: its number of outputs when more than one */
	e->multicast = m->mc && m->n_out > 1 ? m->n_out : m->mc;
	e->frame_len = m->len;
	e->t_ns = b->t0_wall_ns + m->t_ns;
	e->depth_bytes = m->depth_bytes;
	e->tc = m->tc;
	e->copy_id = m->copy_id;
	e->hdr_len = m->hdr_len < BSF_HDR_MAX ? m->hdr_len : BSF_HDR_MAX;
	memcpy(e->hdr, m->hdr, e->hdr_len);
}

static size_t bm_read_events(void *st, struct bsf_event *ev, size_t max)
{
	struct bm *b = st;
	size_t n = 0;
	/* the agent's slots: ours when they are as large, else through tmp */
	int direct = ev->size >= sizeof *ev;
	struct bsf_event tmp;

	while (n < max) {
		size_t want = max - n < BM_EV_CHUNK ? max - n : BM_EV_CHUNK;
		size_t got = model_events_read(b->m, b->evbuf, want);

		b->ev_taken += got;
		for (size_t i = 0; i < got; i++) {
			const struct model_event *m = &b->evbuf[i];

			if (m->type == MODEL_EV_PFC)
				continue; /* PFC transitions have no bsf event yet */
			if (m->type == MODEL_EV_DROP)
				b->drops_read++;
			if (direct) {
				event_to_bsf(b, m, bsf_event_slot(ev, n));
				bsf_event_slot(ev, n)->size = ev->size;
			} else {
				event_to_bsf(b, m, &tmp);
				bsf_event_copy(bsf_event_slot(ev, n), &tmp);
			}
			n++;
		}
		if (got < want) {
			/* the ring is empty: every drop the model counted (one
			 * per packet at ingress, one per copy at egress, each
			 * with its event) was either read or lost */
			struct model_if_counters c;
			uint64_t total = 0;

			for (uint32_t p = 0; model_read_counters(b->m, p, &c) == 0; p++)
				total += c.in_discards + c.out_discards;
			if (total > b->drops_read)
				b->drops_lost = total - b->drops_read;
			break;
		}
	}
	return n;
}

static uint64_t bm_drop_events_lost(void *st)
{
	struct bm *b = st;

	return b->drops_lost;
}

static uint64_t bm_sample_pool(void *st, uint32_t port)
{
	struct bm *b = st;
	struct model_if_counters c;

	if (port >= b->nports || model_read_counters(b->m, port, &c) < 0)
		return 0;
	return c.sample_pool;
}

static uint64_t bm_sample_drops(void *st, uint32_t port)
{
	struct bm *b = st;
	struct model_if_counters c;

	if (port >= b->nports || model_read_counters(b->m, port, &c) < 0)
		return 0;
	return c.samples_lost;
}

static uint64_t bm_event_overflows(void *st)
{
	struct bm *b = st;
	struct model_stats s;

	model_get_stats(b->m, &s);
	return s.events_lost;
}

static uint64_t bm_lag_ns(void *st)
{
	struct bm *b = st;

	return b->lag_ns;
}

static int bm_set_queue_events(void *st, uint32_t port, uint32_t queue, uint32_t multicast,
			       uint32_t flags, char *err, size_t errlen)
{
	struct bm *b = st;
	struct model_err me;
	unsigned mflags = 0;
	uint32_t bit;

	if (port >= b->nports) {
		snprintf(err, errlen, "model: no port %u", port);
		return -1;
	}
	if (multicast > 1 ||
	    queue >= (multicast ? b->ports[port].n_mc_queues : b->ports[port].n_uc_queues)) {
		snprintf(err, errlen, "model: port %u has no %s queue %u", port,
			 multicast ? "multicast" : "unicast", queue);
		return -1;
	}
	if (flags & ~(BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE)) {
		snprintf(err, errlen, "model: unknown queue event flags 0x%x", flags);
		return -1;
	}
	if (flags & BSF_QEV_ENQUEUE)
		mflags |= MODEL_QEV_ENQUEUE;
	if (flags & BSF_QEV_DEQUEUE)
		mflags |= MODEL_QEV_DEQUEUE;
	if (model_set_queue_events(b->m, port, queue, (int)multicast, mflags, &me) < 0) {
		snprintf(err, errlen, "model: %s", me.msg);
		return -1;
	}
	/* losses before this belong to the mode in force until now */
	note_losses(b);
	bit = 1u << ((multicast ? BSF_MAX_QUEUES : 0) + queue);
	if (flags && !(b->stream[port] & bit)) {
		b->stream[port] |= bit;
		b->n_streams++;
	} else if (!flags && (b->stream[port] & bit)) {
		b->stream[port] &= ~bit;
		b->n_streams--;
	}
	return 0;
}

static uint64_t bm_queue_events_lost(void *st)
{
	struct bm *b = st;

	return b->qev_lost;
}

static int bm_read_own_records(void *st, unsigned window, uint32_t port, uint32_t enterprise,
			       struct bsf_own_records *out, char *err, size_t errlen)
{
	struct bm *b = st;

	return bsf_backend_model_own_records(b->m, b->nports, window, port, enterprise, out, err,
					     errlen);
}

const struct bsf_backend_ops *bsf_backend_model_ops(void)
{
	static const struct bsf_backend_ops ops = {
	    .abi_version = BSF_BACKEND_ABI_VERSION,
	    .size = sizeof(struct bsf_backend_ops),
	    .name = "model",
	    .open = bm_open,
	    .close = bm_close,
	    .describe = bm_describe,
	    .read_counters = bm_read_counters,
	    .read_port_buffers = bm_read_port_buffers,
	    .read_device_buffers = bm_read_device_buffers,
	    .read_delays = bm_read_delays,
	    .read_events = bm_read_events,
	    .sample_pool = bm_sample_pool,
	    .event_overflows = bm_event_overflows,
	    .lag_ns = bm_lag_ns,
	    .drop_events_lost = bm_drop_events_lost,
	    .sample_drops = bm_sample_drops,
	    .set_queue_events = bm_set_queue_events,
	    .queue_events_lost = bm_queue_events_lost,
	    .check = bm_check,
	    .read_eth_counters = NULL, /* the model has no MAC: 0:2 unknown */
	    .read_own_records = bm_read_own_records,
	};

	return &ops;
}
