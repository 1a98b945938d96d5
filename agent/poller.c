/*
 * poller.c - counter polling per data source (see poller.h).
 *
 * One timer for all sources: each source's polls fall on its own grid of
 * period interval, placed at a random slot of POLLER_GRAIN_NS within the
 * first interval, so the sources sharing a slot are due at the same
 * instant and one wake-up polls them all (at most 1 / POLLER_GRAIN_NS
 * wake-ups a second, however many sources), their samples packed into
 * shared datagrams that the exporter sends together.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "agent/export.h"
#include "agent/log.h"
#include "agent/poller.h"
#include "agent/counters.h"
#include "proto/sflow.h"

#define POLLER_LOG_INTERVAL_NS (60ull * 1000000000ull)
/* The stagger's resolution: first polls fall on multiples of this within
 * the interval (or of the interval, if shorter). */
#define POLLER_GRAIN_NS (100ull * 1000000ull)

struct poller_src {
	struct poller *p;
	int is_device;
	uint32_t port; /* port index (ports) */
	uint32_t type, index;
	uint32_t next_seq;
	uint64_t samples, read_errors, dropped;
	uint64_t out_of_cycle; /* of samples: poller_sample_port() */
	uint64_t due_ns;       /* monotonic time the next poll is due */
	int kept;	       /* poller_commit_backend: keeps its schedule */
};

struct poller {
	struct event_base *base;
	struct export *x;
	const struct bsf_backend_ops *ops;
	void *st;
	const struct bsf_device_desc *dev;
	uint32_t enterprise;
	unsigned interval;
	uint64_t rng;
	struct poller_src *srcs;
	uint32_t nsrcs;
	struct event *tick; /* the next due poll of any source */
	uint64_t ticks;	    /* wake-ups of tick */
	uint64_t grid_ns;   /* slots are counted from here (schedule_all) */
	struct bsf_ratelimit rl_read, rl_build, rl_omit;
	void (*port_buffers)(void *arg, uint32_t port, const struct bsf_port_buffers *b);
	void *port_buffers_arg;
	const struct sflow_own_sampler_stat *(*samplers)(void *arg, size_t *n);
	void *samplers_arg;
	uint64_t sampler_samples; /* extra device samples carrying E:7 */
	int ports_suspended;	  /* poller_suspend_ports */
	uint64_t ports_skipped;	  /* port polls skipped while suspended */
	uint8_t scratch[BSF_COUNTERS_SCRATCH];
};

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64* */
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* E:7 did not fit in the device sample just sent: further samples of the
 * device source carrying only E:7, as many samplers in each as fit. */
static void send_sampler_stats(struct poller_src *s, const struct bsf_counters_src *src,
			       size_t room)
{
	struct poller *p = s->p;
	struct bsf_counters_out out;
	uint32_t first = 0, k;
	uint64_t count;

	while (first < src->n_samplers) {
		if (bsf_counters_device_samplers(src, s->next_seq, first, p->scratch, room, &k,
						 &out) != SFLOW_OK ||
		    export_add(p->x, p->scratch, out.len) < 0) {
			s->dropped++;
			if (bsf_ratelimit_hit(&p->rl_build, bsf_now_ns(), &count))
				log_warnx(
				    "data source %u:%u: sampler statistics not sent: one "
				    "sampler's entry does not fit in %zu bytes; raise "
				    "datagram_bytes (%llu samples lost since the last message)",
				    s->type, s->index, room, (unsigned long long)count);
			return;
		}
		s->next_seq++;
		s->samples++;
		p->sampler_samples++;
		first += k;
	}
}

/* Build and send s's counters sample, reading peak window `window`.
 * Returns 0 if it was sent. */
static int poll_one(struct poller_src *s, unsigned window)
{
	struct poller *p = s->p;
	struct bsf_counters_src src;
	struct bsf_counters_out out;
	size_t room = export_sample_room(p->x);
	uint64_t count;
	int r;

	if (!p->ops || !room)
		return -1;
	if (!s->is_device && p->ports_suspended) {
		p->ports_skipped++;
		return -1;
	}
	memset(&src, 0, sizeof src);
	src.ops = p->ops;
	src.st = p->st;
	src.dev = p->dev;
	src.window = window;
	src.port_buffers = p->port_buffers;
	src.port_buffers_arg = p->port_buffers_arg;
	if (s->is_device && p->samplers) {
		size_t n = 0;

		src.samplers = p->samplers(p->samplers_arg, &n);
		src.n_samplers = src.samplers ? (uint32_t)n : 0;
	}
	src.own_enterprise = p->enterprise;
	src.own_records = BSF_COUNTERS_OWN_ALL;
	src.device_index = s->index;
	memset(&out, 0, sizeof out);
	if (room > sizeof p->scratch)
		room = sizeof p->scratch;
	if (s->is_device)
		r = bsf_counters_device(&src, s->next_seq, p->scratch, room, &out);
	else
		r = bsf_counters_port(&src, s->port, s->next_seq, p->scratch, room, &out);
	if (out.read_errors) {
		s->read_errors += (uint64_t)out.read_errors;
		if (bsf_ratelimit_hit(&p->rl_read, bsf_now_ns(), &count))
			log_warnx("data source %u:%u: backend read failed: %s (%llu failed polls "
				  "since the last message)",
				  s->type, s->index, out.err, (unsigned long long)count);
	}
	if (r == SFLOW_OK && (out.omitted & ~BSF_COUNTERS_OWN_SAMPLER_STATS) &&
	    bsf_ratelimit_hit(&p->rl_omit, bsf_now_ns(), &count))
		log_warnx("data source %u:%u: own records 0x%x left out: datagram_bytes (%zu "
			  "bytes of room) too small (%llu samples cut since the last message)",
			  s->type, s->index,
			  (unsigned)(out.omitted & ~BSF_COUNTERS_OWN_SAMPLER_STATS), room,
			  (unsigned long long)count);
	if (r != SFLOW_OK || export_add(p->x, p->scratch, out.len) < 0) {
		s->dropped++;
		if (bsf_ratelimit_hit(&p->rl_build, bsf_now_ns(), &count))
			log_warnx("data source %u:%u: counters sample not sent: its standard "
				  "records do not fit in %zu bytes; raise datagram_bytes (%llu "
				  "samples lost since the last message)",
				  s->type, s->index, room, (unsigned long long)count);
		return -1;
	}
	s->next_seq++;
	s->samples++;
	if (out.omitted & BSF_COUNTERS_OWN_SAMPLER_STATS)
		send_sampler_stats(s, &src, room);
	return 0;
}

/* Move s's due time to its next grid point: a poll that ran late does not
 * stretch the period (the next one stays on the original grid), and one
 * that fell more than a whole interval behind skips to the next grid
 * point ahead. */
static void advance(struct poller_src *s, uint64_t now, uint64_t period)
{
	s->due_ns += period;
	if (s->due_ns + period < now)
		s->due_ns += ((now - s->due_ns) / period) * period;
}

/* When the earliest source is due, UINT64_MAX if none (polling off). */
static uint64_t next_due(const struct poller *p)
{
	uint64_t t = UINT64_MAX;

	for (uint32_t i = 0; p->interval && i < p->nsrcs; i++)
		if (p->srcs[i].due_ns < t)
			t = p->srcs[i].due_ns;
	return t;
}

/* Arm the tick for the earliest due source (none if polling is off). */
static void arm(struct poller *p)
{
	uint64_t now = bsf_now_ns(), next = next_due(p), wait;
	struct timeval tv;

	evtimer_del(p->tick);
	if (next == UINT64_MAX)
		return;
	wait = next > now ? next - now : 0;
	tv.tv_sec = (time_t)(wait / 1000000000ull);
	tv.tv_usec = (suseconds_t)(wait % 1000000000ull / 1000u);
	evtimer_add(p->tick, &tv);
}

/* Poll every source that is due, in source order, then sleep until the
 * next one is. */
static void run_due(struct poller *p)
{
	uint64_t now = bsf_now_ns(), period = (uint64_t)p->interval * 1000000000ull;

	p->ticks++;
	for (uint32_t i = 0; i < p->nsrcs && period; i++) {
		struct poller_src *s = &p->srcs[i];

		if (s->due_ns > now)
			continue;
		poll_one(s, POLLER_WINDOW);
		advance(s, now, period);
	}
	arm(p);
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
	run_due(arg);
}

struct poller *poller_new(struct event_base *base, struct export *x, uint64_t seed)
{
	struct poller *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->base = base;
	p->x = x;
	p->tick = evtimer_new(base, tick_cb, p);
	if (!p->tick) {
		free(p);
		return NULL;
	}
	p->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
	p->enterprise = SFLOW_ENT_OWN_DEFAULT;
	bsf_ratelimit_init(&p->rl_read, POLLER_LOG_INTERVAL_NS);
	bsf_ratelimit_init(&p->rl_build, POLLER_LOG_INTERVAL_NS);
	bsf_ratelimit_init(&p->rl_omit, POLLER_LOG_INTERVAL_NS);
	return p;
}

void poller_free(struct poller *p)
{
	if (!p)
		return;
	event_free(p->tick);
	free(p->srcs);
	free(p);
}

/* Every source's first poll in the middle of a random slot of the
 * interval (slots of POLLER_GRAIN_NS, or one slot if the interval is
 * shorter): never at its very start, so a run of n intervals polls each
 * source n times.  A kept source (its backend's new description) stays at
 * its due time, and the new ones beside it take slots of the grid it is
 * on (counted from p->grid_ns, where the last schedule of every source
 * began), so that one wake-up still polls every source due. */
static void schedule_all(struct poller *p)
{
	uint64_t period = (uint64_t)p->interval * 1000000000ull, now = bsf_now_ns();
	uint64_t slots = period / POLLER_GRAIN_NS ? period / POLLER_GRAIN_NS : 1;
	uint64_t grain = period / slots, start = now;
	int kept = 0;

	for (uint32_t i = 0; i < p->nsrcs; i++)
		kept |= p->srcs[i].kept;
	if (!kept)
		p->grid_ns = now;
	else if (now > p->grid_ns) /* the next slot of the grid */
		start = p->grid_ns + (now - p->grid_ns + grain - 1) / grain * grain;
	for (uint32_t i = 0; i < p->nsrcs && period; i++) {
		struct poller_src *s = &p->srcs[i];

		if (s->kept)
			s->kept = 0;
		else
			s->due_ns = start + (rng_next(&p->rng) % slots) * grain + grain / 2;
	}
	arm(p);
}

/* A backend's data sources, allocated before anything changes. */
struct poller_next {
	const struct bsf_backend_ops *ops;
	void *st;
	const struct bsf_device_desc *dev;
	struct poller_src *srcs;
	uint32_t n;
};

void poller_discard_backend(struct poller_next *nx)
{
	if (!nx)
		return;
	free(nx->srcs);
	free(nx);
}

struct poller_next *poller_prepare_backend(struct poller *p, const struct bsf_backend_ops *ops,
					   void *st)
{
	struct poller_next *nx = calloc(1, sizeof *nx);

	if (!nx)
		return NULL;
	nx->ops = ops;
	nx->st = st;
	nx->dev = ops ? ops->describe(st) : NULL;
	nx->n = nx->dev ? nx->dev->nports + 1 : 0;
	nx->srcs = calloc(nx->n + 1, sizeof *nx->srcs);
	if (!nx->srcs) {
		free(nx);
		return NULL;
	}
	for (uint32_t i = 0; i < nx->n; i++) {
		struct poller_src *s = &nx->srcs[i];

		s->p = p;
		if (i < nx->dev->nports) {
			s->port = i;
			s->type = SFLOW_DS_IFINDEX;
			s->index = nx->dev->ports[i].ifindex;
		} else {
			s->is_device = 1;
			s->type = SFLOW_DS_ENTITY;
			s->index = 1;
		}
		s->next_seq = 1;
	}
	return nx;
}

void poller_commit_backend(struct poller *p, struct poller_next *nx)
{
	int same = p->ops == nx->ops && p->st == nx->st;

	/* the outgoing backend's pending peaks go out before the switch */
	if (p->ops && !same)
		poller_poll_all(p);
	/* sequence numbers and counts carried over as they are now */
	for (uint32_t i = 0; i < nx->n; i++) {
		struct poller_src *s = &nx->srcs[i];

		for (uint32_t j = 0; j < p->nsrcs; j++) {
			const struct poller_src *o = &p->srcs[j];

			if (o->type == s->type && o->index == s->index) {
				s->next_seq = o->next_seq;
				s->samples = o->samples;
				s->read_errors = o->read_errors;
				s->dropped = o->dropped;
				s->out_of_cycle = o->out_of_cycle;
				/* the same backend's new description (its
				 * device changed): a port that stays keeps its
				 * place in the schedule */
				s->kept = same && p->interval;
				s->due_ns = o->due_ns;
			}
		}
	}
	free(p->srcs);
	p->srcs = nx->srcs;
	p->nsrcs = nx->n;
	p->ops = nx->ops;
	p->st = nx->st;
	p->dev = nx->dev;
	free(nx);
	schedule_all(p);
}

int poller_set_backend(struct poller *p, const struct bsf_backend_ops *ops, void *st)
{
	struct poller_next *nx = poller_prepare_backend(p, ops, st);

	if (!nx)
		return -1;
	poller_commit_backend(p, nx);
	return 0;
}

void poller_suspend_ports(struct poller *p, int on)
{
	p->ports_suspended = on;
}

void poller_set_enterprise(struct poller *p, uint32_t enterprise)
{
	p->enterprise = enterprise;
}

void poller_set_interval(struct poller *p, unsigned seconds)
{
	if (seconds == p->interval)
		return;
	p->interval = seconds;
	schedule_all(p);
}

void poller_poll_all(struct poller *p)
{
	for (uint32_t i = 0; i < p->nsrcs; i++)
		poll_one(&p->srcs[i], POLLER_WINDOW);
}

int poller_sample_port(struct poller *p, uint32_t port)
{
	struct poller_src *s;

	if (!p->dev || port >= p->dev->nports)
		return -1;
	s = &p->srcs[port];
	if (poll_one(s, POLLER_WINDOW) < 0)
		return -1;
	s->out_of_cycle++;
	return 0;
}

void poller_set_sampler_stats(struct poller *p,
			      const struct sflow_own_sampler_stat *(*fn)(void *arg, size_t *n),
			      void *arg)
{
	p->samplers = fn;
	p->samplers_arg = arg;
}

void poller_set_port_buffers_hook(struct poller *p,
				  void (*fn)(void *arg, uint32_t port,
					     const struct bsf_port_buffers *b),
				  void *arg)
{
	p->port_buffers = fn;
	p->port_buffers_arg = arg;
}

uint64_t poller_next_due(const struct poller *p)
{
	return next_due(p);
}

void poller_run_due(struct poller *p)
{
	run_due(p);
}

void poller_set_seed(struct poller *p, uint64_t seed)
{
	p->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
}

uint32_t poller_n_sources(const struct poller *p)
{
	return p->nsrcs;
}

uint64_t poller_wakeups(const struct poller *p)
{
	return p->ticks;
}

void poller_source_stats(const struct poller *p, uint32_t i, uint32_t *type, uint32_t *index,
			 uint64_t *samples, uint64_t *read_errors, uint32_t *next_seq)
{
	const struct poller_src *s = &p->srcs[i];

	*type = s->type;
	*index = s->index;
	*samples = s->samples;
	*read_errors = s->read_errors;
	*next_seq = s->next_seq;
}

void poller_log_status(const struct poller *p)
{
	log_notice("status: polling every %u s, %u data sources, %llu wake-ups; %llu device "
		   "samples carried only sampler statistics (they did not fit next to the "
		   "device's records)",
		   p->interval, p->nsrcs, (unsigned long long)p->ticks,
		   (unsigned long long)p->sampler_samples);
	if (p->ports_skipped || p->ports_suspended)
		log_notice("status: port counters samples %s: %llu polls skipped while the "
			   "backend's port numbering was unknown",
			   p->ports_suspended ? "suspended" : "resumed",
			   (unsigned long long)p->ports_skipped);
	for (uint32_t i = 0; i < p->nsrcs; i++) {
		const struct poller_src *s = &p->srcs[i];

		log_notice("status: data source %u:%u: %llu counters samples (%llu out of cycle), "
			   "%llu failed reads, %llu not sent",
			   s->type, s->index, (unsigned long long)s->samples,
			   (unsigned long long)s->out_of_cycle, (unsigned long long)s->read_errors,
			   (unsigned long long)s->dropped);
	}
}
