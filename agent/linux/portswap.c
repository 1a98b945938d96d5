/*
 * portswap.c - the linux backend's ports follow the interfaces that come
 * and go while it runs (backend.h, DEVICE CHANGES).  A link notification
 * that may change the ports (an interface `ports` would take appears, a
 * port is deleted or renamed, a port's queues change) starts a quiet
 * time: QUIET_MS after the last such notification, and at most BURST_MS
 * after the first, the ports are chosen again by the rule of open()
 * (ports.c), so that a burst (a breakout's four ports, a container's
 * veths) is one change.  A set that differs is kept aside and the daemon
 * told (host->device_changed); at its next describe() the set becomes
 * current: a port with the same ifindex keeps its state (peaks, counters,
 * its sources' handles), the events queued in the old numbering are
 * renumbered (portset.c), and each source with per-port state is rebuilt
 * in turn (qdisc: the queues mapped again and the new ports' BQL files;
 * sb: the devlink ports mapped again; psample: samplers installed on the
 * new ports; packet: its sockets; bpf: its object loaded again with the
 * new queues, the kept queues' histograms and pools carried over).  A
 * source that cannot be rebuilt fails alone (logged once, its values
 * unknown); dropmon, psample's reads and the tracepoint look ports up by
 * ifindex on each message and follow by themselves.
 *
 * A daemon without device_changed: nothing here runs, the ports stay as
 * open() found them (linkrun.c logs "reload").
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "agent/linux/bpf/bpfrun.h"
#include "agent/linux/portset.h"
#include "agent/linux/state.h"

/* 250 ms covers what one action creates (ip link add of a veth pair, a
 * devlink port split, a container's interfaces: each within tens of ms)
 * while the daemon still learns of a new port well within one polling
 * interval (1 s at least); a churn that never pauses is taken every
 * second. */
#define QUIET_MS 250u
#define BURST_MS 1000u

/* the speeds a `sampling` section names (bsflowd.conf(5)) */
static const uint64_t speeds[] = {10000000ull,	  100000000ull,	   1000000000ull,   2500000000ull,
				  5000000000ull,  10000000000ull,  25000000000ull,  40000000000ull,
				  50000000000ull, 100000000000ull, 200000000000ull, 400000000000ull,
				  800000000000ull};
#define NSPEEDS (sizeof speeds / sizeof speeds[0])

struct named_rate {
	char name[BSF_NAME_MAX];
	uint32_t rate;
};

struct linuxbe_swap {
	struct bsf_timer *timer;
	uint64_t first_ms; /* the burst's first notification, 0 none */
	int queues;	   /* a port's queues changed */
	struct linuxbe_portset next;
	int have_next;
	char what[768];
	uint64_t changes;
	unsigned scan_failed; /* scans in a row that failed */
	/* the sampling rules' answers at open */
	int have_rates, have_default;
	uint32_t rate_speed[NSPEEDS], rate_unknown, rate_default;
	struct named_rate *named;
	unsigned n_named;
};

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u + 1;
}

static int can_tell(const struct linuxbe_st *st)
{
	return st->host && BSF_FITS(st->host, struct bsf_host, device_changed) &&
	       st->host->device_changed && st->host->timer_new;
}

static struct linuxbe_swap *swap_of(struct linuxbe_st *st)
{
	if (!st->swap)
		st->swap = calloc(1, sizeof *st->swap);
	return st->swap;
}

static uint32_t rate_by_speed(const struct linuxbe_swap *sw, uint64_t bps)
{
	unsigned i;

	if (!bps)
		return sw->rate_unknown;
	for (i = 0; i < NSPEEDS; i++)
		if (speeds[i] == bps)
			return sw->rate_speed[i];
	if (sw->have_default)
		return sw->rate_default;
	/* derived: the speed in Mb/s, rounded (bsflowd.conf(5)) */
	bps = (bps + 500000u) / 1000000u;
	return bps < 1 ? 1 : bps > 2147483647u ? 2147483647u : (uint32_t)bps;
}

void linuxbe_swap_rates(struct linuxbe_st *st, const struct bsf_backend_args *args)
{
	struct linuxbe_swap *sw;
	uint32_t p, r3, r7;
	unsigned i;

	if (!can_tell(st) || !args->sampling_rate || !(sw = swap_of(st)))
		return;
	for (i = 0; i < NSPEEDS; i++)
		sw->rate_speed[i] = args->sampling_rate(args->sampling_arg, "", speeds[i]);
	sw->rate_unknown = args->sampling_rate(args->sampling_arg, "", 0);
	/* a default rule answers the same at any speed it does not name; the
	 * derived rate differs (3 and 7 at 3 and 7 Mb/s) */
	r3 = args->sampling_rate(args->sampling_arg, "", 3000000u);
	r7 = args->sampling_rate(args->sampling_arg, "", 7000000u);
	sw->have_default = r3 == r7;
	sw->rate_default = r3;
	sw->have_rates = 1;
	/* ports whose rate is their own (a `port "NAME"` rule) */
	sw->named = calloc(st->nports + 1, sizeof *sw->named);
	for (p = 0; sw->named && p < st->nports; p++)
		if (st->ports[p].sampling_rate != rate_by_speed(sw, st->descs[p].speed_bps)) {
			snprintf(sw->named[sw->n_named].name, BSF_NAME_MAX, "%s",
				 st->ports[p].name);
			sw->named[sw->n_named++].rate = st->ports[p].sampling_rate;
		}
}

/* The rate of a port that appeared while running. */
static uint32_t rate_of(const struct linuxbe_swap *sw, const char *name, uint64_t bps)
{
	unsigned i;

	if (!sw->have_rates)
		return 0;
	for (i = 0; i < sw->n_named; i++)
		if (strcmp(sw->named[i].name, name) == 0)
			return sw->named[i].rate;
	return rate_by_speed(sw, bps);
}

static void ids(const struct linuxbe_port *p, uint32_t n, struct linuxbe_port_id *id)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		id[i].ifindex = p[i].ifindex;
		id[i].name = p[i].name;
	}
}

/* The quiet time is over: the ports there now. */
static void on_timer(void *arg)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_swap *sw = st->swap;
	struct linuxbe_portset set;
	struct linuxbe_port_id *a, *b;
	char err[256];
	unsigned n;

	sw->first_ms = 0;
	if (linuxbe_ports_scan(st, 0, &set, err, sizeof err) < 0) {
		/* said once until a scan works; tried again every second */
		if (!sw->scan_failed++)
			linuxbe_log(st, LOG_WARNING,
				    "the interfaces changed, but %s; trying again every second",
				    err);
		st->host->timer_start(sw->timer, 1000000000u, 0);
		return;
	}
	sw->scan_failed = 0;
	a = calloc(st->nports + 1, sizeof *a);
	b = calloc(set.nports + 1, sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		linuxbe_portset_free(&set);
		linuxbe_log(st, LOG_ERR, "out of memory taking in the interfaces' change");
		return;
	}
	ids(st->ports, st->nports, a);
	ids(set.ports, set.nports, b);
	n = linuxbe_port_changes(a, st->nports, b, set.nports, sw->what, sizeof sw->what);
	free(a);
	free(b);
	if (!n && !sw->queues && !sw->have_next) {
		linuxbe_portset_free(&set); /* came and went: nothing changed */
		return;
	}
	if (!n)
		snprintf(sw->what, sizeof sw->what, "%s",
			 sw->queues ? "the queues of a port changed" : "back as they were");
	sw->queues = 0;
	if (sw->have_next)
		linuxbe_portset_free(&sw->next);
	sw->next = set;
	sw->have_next = 1;
	linuxbe_log(st, LOG_NOTICE, "ports change: %s; %u port%s from the next description",
		    sw->what, set.nports, set.nports == 1 ? "" : "s");
	st->host->device_changed(st->host->arg);
}

int linuxbe_swap_schedule(struct linuxbe_st *st, int queues)
{
	struct linuxbe_swap *sw;
	uint64_t now = mono_ms(), delay = QUIET_MS;

	if (!can_tell(st) || !(sw = swap_of(st)))
		return 0;
	if (!sw->timer && !(sw->timer = st->host->timer_new(st->host->arg, on_timer, st)))
		return 0;
	sw->queues |= queues;
	if (!sw->first_ms)
		sw->first_ms = now;
	if (now + delay > sw->first_ms + BURST_MS)
		delay = sw->first_ms + BURST_MS > now ? sw->first_ms + BURST_MS - now : 0;
	if (st->host->timer_start(sw->timer, delay * 1000000u, 0) < 0)
		return 0;
	return 1;
}

/* ---- describe(): the new ports become current ---- */

/* A source with per-port state rebuilt; a failure fails that source only. */
static void rebuilt(struct linuxbe_st *st, unsigned src, int rc, const char *why)
{
	char what[300];

	if (rc == 0) {
		if (why[0])
			linuxbe_log(st, LOG_INFO, "after the ports change: %s", why);
		return;
	}
	snprintf(what, sizeof what, "after the ports changed: %.250s", why);
	linuxbe_src_fail(st, src, what);
}

/* Move the set's ports in, keeping the state of those with the same
 * ifindex; map[old] = new index.  The old arrays are freed. */
static void take_set(struct linuxbe_st *st, struct linuxbe_portset *set, const uint32_t *map)
{
	struct linuxbe_swap *sw = st->swap;
	uint32_t i, j;

	for (j = 0; j < set->nports; j++) {
		struct linuxbe_port *np = &set->ports[j];

		np->sampling_rate = rate_of(sw, np->name, np->desc->speed_bps);
	}
	for (i = 0; i < st->nports; i++) {
		struct linuxbe_port *op = &st->ports[i];

		if (map[i] == UINT32_MAX) {
			linuxbe_qdisc_port_close(op);
			continue;
		}
		{
			struct linuxbe_port *np = &set->ports[map[i]];
			struct bsf_port_desc *d = np->desc;
			char name[BSF_NAME_MAX];
			uint32_t txqlen = np->txqlen;
			int admin = np->admin_up, oper = np->oper_up;

			memcpy(name, np->name, sizeof name);
			*np = *op; /* its state, sources' handles and rate */
			np->desc = d;
			memcpy(np->name, name, sizeof name);
			np->txqlen = txqlen;
			np->admin_up = admin;
			np->oper_up = oper;
			np->gone = 0;
			d->n_uc_queues = op->desc->n_uc_queues;
			d->n_mc_queues = op->desc->n_mc_queues;
			d->n_pgs = op->desc->n_pgs;
		}
	}
	linuxbe_portset_install(st, set);
}

void linuxbe_swap_apply(struct linuxbe_st *st)
{
	struct linuxbe_swap *sw = st->swap;
	struct linuxbe_bpf_carry *carry = NULL;
	uint32_t *oldx, *newx, *map, i;
	int pkt = 0, bpf = 0, rc;
	size_t dropped;
	char why[512];

	if (!sw || !sw->have_next)
		return;
	sw->have_next = 0;
	oldx = calloc(st->nports + 1, sizeof *oldx);
	newx = calloc(sw->next.nports + 1, sizeof *newx);
	map = calloc(st->nports + 1, sizeof *map);
	if (!oldx || !newx || !map) {
		free(oldx);
		free(newx);
		free(map);
		linuxbe_portset_free(&sw->next);
		linuxbe_log(st, LOG_ERR,
			    "out of memory taking in the new ports: kept the old ones");
		return;
	}
	/* the sources bound to port indices let go, in the old numbering */
	if (st->state[LINUXBE_SRC_BPF] == LINUXBE_ACTIVE) {
		carry = linuxbe_bpf_carry_take(st);
		bpf = 1;
	}
	if (st->state[LINUXBE_SRC_PACKET] == LINUXBE_ACTIVE) {
		linuxbe_pkt_close(st);
		pkt = 1;
	}
	for (i = 0; i < st->nports; i++)
		oldx[i] = st->ports[i].ifindex;
	for (i = 0; i < sw->next.nports; i++)
		newx[i] = sw->next.ports[i].ifindex;
	linuxbe_port_map(oldx, st->nports, newx, sw->next.nports, map);
	dropped = linuxbe_evq_renumber(&st->q, map, st->nports);
	take_set(st, &sw->next, map);
	free(oldx);
	free(newx);
	free(map);
	st->q.streams = 0; /* every stream is off after the switch */

	/* the sources rebuilt on the new ports */
	if (st->state[LINUXBE_SRC_QDISC] == LINUXBE_ACTIVE) {
		why[0] = '\0';
		rc = linuxbe_qdisc_ports(st, why, sizeof why);
		rebuilt(st, LINUXBE_SRC_QDISC, rc, why);
	}
	if (st->state[LINUXBE_SRC_SB] == LINUXBE_ACTIVE) {
		why[0] = '\0';
		rc = linuxbe_sb_ports(st, why, sizeof why);
		rebuilt(st, LINUXBE_SRC_SB, rc, why);
	}
	if (st->state[LINUXBE_SRC_PSAMPLE] == LINUXBE_ACTIVE) {
		why[0] = '\0';
		rc = linuxbe_psample_ports(st, why, sizeof why);
		rebuilt(st, LINUXBE_SRC_PSAMPLE, rc, why);
	}
	if (pkt) {
		why[0] = '\0';
		for (i = 0; i < st->nports && !st->ports[i].sampling_rate; i++)
			;
		/* no port with a rate: nothing to sample, not a failure */
		rc = i < st->nports ? linuxbe_pkt_open(st, why, sizeof why) : 0;
		rebuilt(st, LINUXBE_SRC_PACKET, rc, why);
	}
	if (bpf) {
		rc = linuxbe_bpf_open(st, why, sizeof why);
		linuxbe_bpf_carry_give(st, carry);
		rebuilt(st, LINUXBE_SRC_BPF, rc, why);
	} else {
		linuxbe_bpf_carry_give(st, carry);
	}
	for (i = 0; i < st->nports; i++)
		st->descs[i].sampling_rate =
		    (st->dev.caps & BSF_CAP_SAMPLE_EVENTS) ? st->ports[i].sampling_rate : 0;
	sw->changes++;
	linuxbe_log(st, LOG_NOTICE, "ports changed: %s; now %u port%s%s", sw->what, st->nports,
		    st->nports == 1 ? "" : "s",
		    dropped ? " (events of ports gone dropped from the queue)" : "");
}

void linuxbe_swap_close(struct linuxbe_st *st)
{
	struct linuxbe_swap *sw = st->swap;

	if (!sw)
		return;
	if (sw->timer)
		st->host->timer_free(sw->timer);
	if (sw->have_next)
		linuxbe_portset_free(&sw->next);
	free(sw->named);
	free(sw);
	st->swap = NULL;
}
