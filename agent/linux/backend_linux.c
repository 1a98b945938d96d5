/*
 * backend_linux.c - the `linux` backend: struct bsf_backend_ops over the
 * sources of agent/linux/ (link, qdisc, sb, dropmon, psample, and the
 * tracepoint and packet fallbacks).  open() probes each source the
 * `linux { }` section allows and logs one line per source saying what it
 * found ("linux: qdisc on 4 ports", "linux: sb absent (no devlink
 * family)", "linux: dropmon needs CAP_SYS_ADMIN"); describe()'s
 * capability bits follow what was found.  A source that is absent leaves
 * its values BSF_UNKNOWN; a source configured `on` that cannot start
 * makes open() fail.  Events (drops, samples) are queued here and pulled
 * by the daemon (everything runs on the loop thread).  Ports that come
 * and go while it runs are taken in at describe() (portswap.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "agent/linux/backend_linux.h"
#include "agent/linux/bpf/bpfrun.h"
#include "agent/linux/nl.h"
#include "agent/linux/portset.h"
#include "agent/linux/state.h"
#include "agent/linux/tracepoint.h"

#define EVQ_CAP 8192
/* drop reports a second without the agent's drops limit (as its default) */
#define LINUXBE_DROP_LIMIT_DEFAULT 100u

void linuxbe_log(struct linuxbe_st *st, int prio, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (st->host && st->host->log)
		st->host->log(st->host->arg, prio, "linux: %s", msg);
}

void linuxbe_src_fail(struct linuxbe_st *st, unsigned src, const char *what)
{
	st->src_errors[src]++;
	if (st->state[src] != LINUXBE_ACTIVE)
		return;
	st->state[src] = LINUXBE_FAILED;
	snprintf(st->why[src], sizeof st->why[src], "%s failed: %s", linuxbe_src_names[src], what);
	linuxbe_log(st, LOG_ERR,
		    "%s failed: %s; its values are unknown from now on (reload to "
		    "try again)",
		    linuxbe_src_names[src], what);
}

void linuxbe_st_reason(const struct linuxbe_st *st, const char *reason, const char *trap_group,
		       const char *trap_name, uint32_t *code, uint32_t *stage)
{
	const char *names[3] = {reason, trap_name, trap_group};
	unsigned i, k;

	linuxbe_reason_lookup(reason, trap_group, trap_name, code, stage);
	for (k = 0; k < 3; k++)
		for (i = 0; names[k] && names[k][0] && i < st->conf.n_reasons; i++)
			if (strcmp(st->conf.reason_names[i], names[k]) == 0) {
				*code = st->conf.reason_codes[i];
				return;
			}
}

/* ---- the event queue (pulled by the daemon) ---- */

struct bsf_event *linuxbe_evq_slot(struct linuxbe_st *st, uint32_t type)
{
	struct linuxbe_evq *q = &st->q;
	struct bsf_event *e;

	if (q->n == q->cap) {
		q->lost++;
		if (type == BSF_EV_DROP)
			q->lost_drops++;
		if (q->streams)
			q->lost_stream++;
		return NULL;
	}
	e = &q->ev[(q->head + q->n) % q->cap];
	q->n++;
	bsf_event_init(e);
	e->type = type;
	return e;
}

static size_t op_read_events(void *vst, struct bsf_event *ev, size_t max)
{
	struct linuxbe_st *st = vst;
	struct linuxbe_evq *q = &st->q;
	size_t i;

	for (i = 0; i < max && q->n; i++) {
		bsf_event_copy(bsf_event_slot(ev, i), &q->ev[q->head]);
		q->head = (q->head + 1) % q->cap;
		q->n--;
	}
	return i;
}

static uint64_t op_event_overflows(void *vst)
{
	return ((struct linuxbe_st *)vst)->q.lost;
}

static uint64_t op_drop_events_lost(void *vst)
{
	struct linuxbe_st *st = vst;

	return st->q.lost_drops + st->dm_kernel_lost + st->dm_sock_lost +
	       linuxbe_bpf_drops_lost(st);
}

static uint64_t op_sample_drops(void *vst, uint32_t port)
{
	struct linuxbe_st *st = vst;

	return port < st->nports ? st->ports[port].sample_drops : 0;
}

/* ---- reads ---- */

/* The ports kept aside since device_changed become current here
 * (backend.h, DEVICE CHANGES; portswap.c). */
static const struct bsf_device_desc *op_describe(void *vst)
{
	struct linuxbe_st *st = vst;

	linuxbe_swap_apply(st);
	return &st->dev;
}

static int op_read_counters(void *vst, uint32_t port, struct bsf_if_counters *out, char *err,
			    size_t errlen)
{
	struct linuxbe_st *st = vst;

	if (port >= st->nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	if (st->state[LINUXBE_SRC_LINK] != LINUXBE_ACTIVE) {
		snprintf(err, errlen, "link source %s", st->why[LINUXBE_SRC_LINK]);
		return -1;
	}
	if (linuxbe_link_counters(st, port, out, err, errlen) < 0) {
		st->src_errors[LINUXBE_SRC_LINK]++;
		return -1;
	}
	return 0;
}

static int op_read_eth_counters(void *vst, uint32_t port, struct bsf_eth_counters *out, char *err,
				size_t errlen)
{
	struct linuxbe_st *st = vst;
	struct linuxbe_ethstats s;

	if (port >= st->nports || !st->eth_ok) {
		snprintf(err, errlen, "no 0:2 counters for port %u", port);
		return -1;
	}
	if (linuxbe_eth_read(st, port, &s, err, errlen) < 0) {
		st->src_errors[LINUXBE_SRC_LINK]++;
		return -1;
	}
	linuxbe_ethstats_fill(&s, out);
	return 0;
}

/* A qdisc leaf as a bsf_buf: in its limit's unit (packets or bytes) for
 * the percentage, bytes alongside. */
static void leaf_take(struct linuxbe_leaf *lf, unsigned w, struct bsf_buf *out)
{
	if (lf->limit_unit == LINUXBE_LIMIT_PACKETS) {
		struct bsf_buf b;

		linuxbe_peak_take(&lf->pkts, w, out, lf->limit, 0);
		linuxbe_peak_take(&lf->bytes, w, &b, BSF_UNKNOWN, 1);
		out->cur_bytes = b.cur_bytes;
		out->peak_bytes = b.peak_bytes;
	} else {
		linuxbe_peak_take(&lf->bytes, w, out,
				  lf->limit_unit == LINUXBE_LIMIT_BYTES ? lf->limit : BSF_UNKNOWN,
				  1);
		linuxbe_peak_take(&lf->pkts, w, &(struct bsf_buf){0}, BSF_UNKNOWN, 0);
	}
}

int linuxbe_sb_port_buffers(struct linuxbe_st *st, unsigned w, uint32_t port,
			    struct bsf_port_buffers *out);
int linuxbe_sb_device_buffers(struct linuxbe_st *st, unsigned w, struct bsf_device_buffers *out);

static int op_read_port_buffers(void *vst, unsigned w, uint32_t port, struct bsf_port_buffers *out,
				char *err, size_t errlen)
{
	struct linuxbe_st *st = vst;
	struct linuxbe_port *p;
	unsigned q;

	if (port >= st->nports || w >= BSF_WINDOWS) {
		snprintf(err, errlen, "no port %u / window %u", port, w);
		return -1;
	}
	p = &st->ports[port];
	if (st->state[LINUXBE_SRC_SB] == LINUXBE_ACTIVE && p->dl_port != UINT32_MAX)
		return linuxbe_sb_port_buffers(st, w, port, out);
	if (st->state[LINUXBE_SRC_QDISC] != LINUXBE_ACTIVE || p->gone)
		return 0; /* unknown */
	linuxbe_bpf_drain(st);
	for (q = 0; q < p->n_leaves && q < BSF_MAX_QUEUES; q++)
		leaf_take(&p->leaves[q], w, &out->uc[q]);
	linuxbe_peak_take(&p->egress, w, &out->egress_uc, p->egress_alloc, 1);
	return 0;
}

static int op_read_device_buffers(void *vst, unsigned w, struct bsf_device_buffers *out, char *err,
				  size_t errlen)
{
	struct linuxbe_st *st = vst;

	if (w >= BSF_WINDOWS) {
		snprintf(err, errlen, "no window %u", w);
		return -1;
	}
	if (st->state[LINUXBE_SRC_SB] == LINUXBE_ACTIVE)
		return linuxbe_sb_device_buffers(st, w, out);
	return 0; /* a host has no device-wide buffer: unknown */
}

static int op_read_delays(void *vst, unsigned w, uint32_t port, struct bsf_port_delays *out,
			  char *err, size_t errlen)
{
	struct linuxbe_st *st = vst;
	struct linuxbe_port *p;
	unsigned q;

	if (port >= st->nports || w >= BSF_WINDOWS) {
		snprintf(err, errlen, "no port %u / window %u", port, w);
		return -1;
	}
	p = &st->ports[port];
	if (st->state[LINUXBE_SRC_QDISC] != LINUXBE_ACTIVE)
		return 0;
	linuxbe_bpf_drain(st);
	/* only where it is measured (the bpf source's per-packet sojourn) or
	 * the qdisc reports one (codel, pie, cake): never an estimate */
	for (q = 0; q < p->n_leaves && q < BSF_MAX_QUEUES; q++) {
		struct linuxbe_leaf *lf = &p->leaves[q];
		struct bsf_buf b;

		if (lf->delay_ns == BSF_UNKNOWN || !lf->delay.valid)
			continue;
		linuxbe_peak_take(&lf->delay, w, &b, BSF_UNKNOWN, 1);
		out->uc[q].nontagged_latest_ns = lf->delay_ns;
		out->uc[q].nontagged_max_ns = b.peak_bytes;
		out->uc[q].nontagged_count = lf->delay_count[w];
		lf->delay_count[w] = 0;
	}
	return 0;
}

static int op_set_queue_events(void *vst, uint32_t port, uint32_t queue, uint32_t multicast,
			       uint32_t flags, char *err, size_t errlen)
{
	return linuxbe_bpf_set_queue_events(vst, port, queue, multicast, flags, err, errlen);
}

/* the kernel ring's losses, and the event queue's while a stream was on */
static uint64_t op_queue_events_lost(void *vst)
{
	struct linuxbe_st *st = vst;

	return linuxbe_bpf_queue_events_lost(st) + st->q.lost_stream;
}

static int op_read_own_records(void *vst, unsigned window, uint32_t port, uint32_t enterprise,
			       struct bsf_own_records *out, char *err, size_t errlen)
{
	(void)window; /* the histograms are cumulative */
	if (port == BSF_PORT_DEVICE) {
		out->nrec = 0;
		out->len = 0;
		return 0;
	}
	return linuxbe_bpf_own_records(vst, port, enterprise, out, err, errlen);
}

static uint64_t op_sample_pool(void *vst, uint32_t port)
{
	struct linuxbe_st *st = vst;

	if (port >= st->nports)
		return 0;
	return linuxbe_bpf_sampling(st) ? linuxbe_bpf_pool(st, port) : linuxbe_link_pool(st, port);
}

/* ---- open / close ---- */

static void st_free(struct linuxbe_st *st)
{
	linuxbe_swap_close(st);
	linuxbe_bpf_close(st);
	linuxbe_pkt_close(st);
	linuxbe_tp_close(st);
	linuxbe_psample_close(st);
	linuxbe_dropmon_close(st);
	linuxbe_sb_close(st);
	linuxbe_qdisc_close(st);
	linuxbe_linkmon_close(st);
	linuxbe_nl_close(st->genl);
	linuxbe_nl_close(st->rt);
	linuxbe_conf_free(&st->conf);
	free(st->q.ev);
	free(st->ports);
	free(st->ifx_map);
	free(st->descs);
	free(st);
}

static void op_close(void *vst)
{
	st_free(vst);
}

/* Record what a source's probe said: state and the log line. */
static int settle(struct linuxbe_st *st, unsigned src, int rc, const char *why, char *err,
		  size_t errlen)
{
	snprintf(st->why[src], sizeof st->why[src], "%s", why);
	if (rc == 0) {
		st->state[src] = LINUXBE_ACTIVE;
		linuxbe_log(st, LOG_INFO, "%s", why);
		return 0;
	}
	st->state[src] = LINUXBE_ABSENT;
	if (st->conf.mode[src] == LINUXBE_ON) {
		snprintf(err, errlen, "%s: linux: %s = on, but %s", st->cfgfile,
			 linuxbe_src_names[src], why);
		return -1;
	}
	linuxbe_log(st, LOG_NOTICE, "%s", why);
	return 0;
}

static void *op_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	struct linuxbe_st *st = calloc(1, sizeof *st);
	char why[256];
	uint32_t p;
	int rc;

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	st->host = args->host;
	/* the kernel's drop reports follow the agent's notification limit */
	st->drop_limit =
	    BSF_FITS(args, struct bsf_backend_args, drop_limit) && args->drop_limit != UINT32_MAX
		? args->drop_limit
		: LINUXBE_DROP_LIMIT_DEFAULT;
	snprintf(st->cfgfile, sizeof st->cfgfile, "%s",
		 args->section_file  ? args->section_file
		 : args->config_file ? args->config_file
				     : "bsflowd.conf");
	if (linuxbe_conf_parse(&st->conf, args->section_text, st->cfgfile, args->section_line, err,
			       errlen) < 0) {
		free(st);
		return NULL;
	}
	st->q.cap = EVQ_CAP;
	st->q.ev = calloc(st->q.cap, sizeof *st->q.ev);
	st->rt = linuxbe_nl_open(NETLINK_ROUTE, why, sizeof why);
	if (!st->q.ev || !st->rt) {
		snprintf(err, errlen, "%s", st->q.ev ? why : "out of memory");
		goto fail;
	}
	if (linuxbe_ports_discover(st, err, errlen) < 0)
		goto fail;
	snprintf(st->dev.id, sizeof st->dev.id, "linux");
	st->dev.size = sizeof st->dev;

	/* link */
	if (st->conf.mode[LINUXBE_SRC_LINK] == LINUXBE_OFF) {
		st->state[LINUXBE_SRC_LINK] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_LINK], sizeof st->why[0], "link off (config)");
	} else {
		rc = linuxbe_linkmon_open(st, why, sizeof why);
		if (rc == 0)
			snprintf(why, sizeof why, "link on %u port%s (IFLA_STATS64, oper state)",
				 st->nports, st->nports == 1 ? "" : "s");
		if (settle(st, LINUXBE_SRC_LINK, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0) {
			st->dev.caps |= BSF_CAP_IF_COUNTERS;
			st->eth_ok = linuxbe_eth_open(st, why, sizeof why) == 0;
			linuxbe_log(st, LOG_INFO, "link: %s%s",
				    st->eth_ok ? "" : "no 0:2 counters: ", why);
			if (st->eth_ok)
				st->dev.caps |= BSF_CAP_ETH_COUNTERS;
		}
	}
	/* sb before qdisc: a switch's buffers are its ASIC's */
	if (st->conf.mode[LINUXBE_SRC_SB] == LINUXBE_OFF) {
		st->state[LINUXBE_SRC_SB] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_SB], sizeof st->why[0], "sb off (config)");
	} else {
		rc = linuxbe_sb_open(st, why, sizeof why);
		if (settle(st, LINUXBE_SRC_SB, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0)
			st->dev.caps |= BSF_CAP_BUFFERS | BSF_CAP_BUFFER_BYTES | BSF_CAP_PEAK_TIME |
					BSF_CAP_PGS | BSF_CAP_POOLS;
	}
	if (st->conf.mode[LINUXBE_SRC_QDISC] == LINUXBE_OFF) {
		st->state[LINUXBE_SRC_QDISC] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_QDISC], sizeof st->why[0], "qdisc off (config)");
	} else {
		st->state[LINUXBE_SRC_QDISC] = LINUXBE_ACTIVE; /* for the first poll */
		rc = linuxbe_qdisc_open(st, why, sizeof why);
		if (rc < 0) {
			char w2[sizeof why];

			memcpy(w2, why, sizeof w2);
			snprintf(why, sizeof why, "qdisc absent (%.200s)", w2);
		}
		if (settle(st, LINUXBE_SRC_QDISC, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0)
			st->dev.caps |= BSF_CAP_BUFFERS | BSF_CAP_BUFFER_BYTES | BSF_CAP_PEAK_TIME;
	}
	/* drops: dropmon, else the tracepoint */
	if (st->conf.mode[LINUXBE_SRC_DROPMON] == LINUXBE_OFF) {
		st->state[LINUXBE_SRC_DROPMON] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_DROPMON], sizeof st->why[0], "dropmon off (config)");
	} else {
		rc = linuxbe_dropmon_open(st, why, sizeof why);
		if (settle(st, LINUXBE_SRC_DROPMON, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0)
			st->dev.caps |= BSF_CAP_DROP_EVENTS;
	}
	if (st->conf.mode[LINUXBE_SRC_TRACEPOINT] == LINUXBE_OFF ||
	    (st->conf.mode[LINUXBE_SRC_TRACEPOINT] == LINUXBE_AUTO &&
	     st->state[LINUXBE_SRC_DROPMON] == LINUXBE_ACTIVE)) {
		st->state[LINUXBE_SRC_TRACEPOINT] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_TRACEPOINT], sizeof st->why[0], "tracepoint %s",
			 st->conf.mode[LINUXBE_SRC_TRACEPOINT] == LINUXBE_OFF
			     ? "off (config)"
			     : "not needed (dropmon active)");
	} else {
		rc = linuxbe_tp_open(st, why, sizeof why);
		if (settle(st, LINUXBE_SRC_TRACEPOINT, rc, why, err, errlen) < 0)
			goto fail;
	}
	/* samples: psample, else the packet socket */
	for (p = 0; p < st->nports; p++) {
		uint32_t r = args->sampling_rate
				 ? args->sampling_rate(args->sampling_arg, st->ports[p].name,
						       st->descs[p].speed_bps)
				 : 0;

		st->ports[p].sampling_rate = r;
	}
	if (st->conf.mode[LINUXBE_SRC_PSAMPLE] == LINUXBE_OFF) {
		st->state[LINUXBE_SRC_PSAMPLE] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_PSAMPLE], sizeof st->why[0], "psample off (config)");
	} else {
		rc = linuxbe_psample_open(st, why, sizeof why);
		if (settle(st, LINUXBE_SRC_PSAMPLE, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0)
			st->dev.caps |= BSF_CAP_SAMPLE_EVENTS;
	}
	/* bpf: exact peaks and sojourn of the queues the qdisc source mapped,
	 * and samples at dequeue when psample is not active */
	if (st->conf.mode[LINUXBE_SRC_BPF] == LINUXBE_OFF) {
		st->state[LINUXBE_SRC_BPF] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_BPF], sizeof st->why[0], "bpf off (config)");
	} else {
		rc = linuxbe_bpf_open(st, why, sizeof why);
		if (settle(st, LINUXBE_SRC_BPF, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0)
			st->dev.caps |= BSF_CAP_DELAY_NONTAGGED | BSF_CAP_QUEUE_EVENTS |
					(linuxbe_bpf_sampling(st) ? BSF_CAP_SAMPLE_EVENTS : 0) |
					(linuxbe_bpf_dropping(st) ? BSF_CAP_DROP_EVENTS : 0);
	}
	if (st->conf.mode[LINUXBE_SRC_PACKET] == LINUXBE_OFF ||
	    (st->conf.mode[LINUXBE_SRC_PACKET] == LINUXBE_AUTO &&
	     (st->state[LINUXBE_SRC_PSAMPLE] == LINUXBE_ACTIVE || linuxbe_bpf_sampling(st)))) {
		st->state[LINUXBE_SRC_PACKET] = LINUXBE_DISABLED;
		snprintf(st->why[LINUXBE_SRC_PACKET], sizeof st->why[0], "packet %s",
			 st->conf.mode[LINUXBE_SRC_PACKET] == LINUXBE_OFF ? "off (config)"
			 : st->state[LINUXBE_SRC_PSAMPLE] == LINUXBE_ACTIVE
			     ? "not needed (psample active)"
			     : "not needed (bpf samples at dequeue)");
	} else {
		rc = linuxbe_pkt_open(st, why, sizeof why);
		if (settle(st, LINUXBE_SRC_PACKET, rc, why, err, errlen) < 0)
			goto fail;
		if (rc == 0)
			st->dev.caps |= BSF_CAP_SAMPLE_EVENTS;
	}
	for (p = 0; p < st->nports; p++)
		st->descs[p].sampling_rate =
		    (st->dev.caps & BSF_CAP_SAMPLE_EVENTS) ? st->ports[p].sampling_rate : 0;
	/* the rates of ports that appear later (portswap.c) */
	linuxbe_swap_rates(st, args);
	return st;
fail:
	st_free(st);
	return NULL;
}

/* ---- status (SIGUSR1) ---- */

/* The status dump's lines (SIGUSR1; the log_status op): one per source,
 * with what it found and its errors, the poller's cost, and the
 * tracepoint's drops by reason. */
static void linuxbe_log_status(void *vst)
{
	struct linuxbe_st *st = vst;
	static const char *const states[] = {"absent", "active", "failed", "off"};
	unsigned i;

	if (!st)
		return;
	for (i = 0; i < LINUXBE_NSRC; i++)
		linuxbe_log(st, LOG_NOTICE, "status: %s %s, %llu errors: %s", linuxbe_src_names[i],
			    states[st->state[i] < 4 ? st->state[i] : 0],
			    (unsigned long long)st->src_errors[i], st->why[i]);
	if (st->qdisc_polls)
		linuxbe_log(st, LOG_NOTICE, "status: qdisc: %llu polls, %.1f us each on average",
			    (unsigned long long)st->qdisc_polls,
			    (double)st->qdisc_poll_ns / (double)st->qdisc_polls / 1e3);
	if (st->state[LINUXBE_SRC_DROPMON] == LINUXBE_ACTIVE)
		linuxbe_log(st, LOG_NOTICE,
			    "status: dropmon: %llu alerts lost in the kernel, %llu socket "
			    "overflows",
			    (unsigned long long)st->dm_kernel_lost,
			    (unsigned long long)st->dm_sock_lost);
	if (st->tp)
		linuxbe_tp_report(st);
	linuxbe_bpf_log_status(st);
}

/* ---- check (bsflowd -t) ---- */

static const char *const needs[LINUXBE_NSRC] = {
    "none",
    "none",
    "CAP_NET_ADMIN (devlink occupancy snapshot / max clear)",
    "CAP_NET_ADMIN (start the monitor), CAP_SYS_ADMIN (join its events group), the "
    "initial network namespace",
    "CAP_NET_ADMIN (join the packets group; install_samplers: tc filters)",
    "CAP_PERFMON or CAP_SYS_ADMIN (perf_event_open; tracefs readable)",
    "CAP_NET_RAW (AF_PACKET socket)",
    "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN), kernel BTF (Linux >= 5.14; drops 5.18), "
    "bsflowd built with BPF support",
};

static int op_check(const struct bsf_backend_args *args, char *report, size_t reportlen, char *err,
		    size_t errlen)
{
	struct linuxbe_conf c;
	const char *file = args->section_file  ? args->section_file
			   : args->config_file ? args->config_file
					       : "bsflowd.conf";
	size_t used = 0;
	unsigned i;

	if (linuxbe_conf_parse(&c, args->section_text, file, args->section_line, err, errlen) < 0)
		return -1;
	if (reportlen)
		report[0] = '\0';
#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (used < reportlen)                                                              \
			used += (size_t)snprintf(report + used, reportlen - used, __VA_ARGS__);    \
	} while (0)
	if (c.ports_auto)
		ADD("linux: ports = auto (switchdev ports, else physical NICs)\n");
	else
		ADD("linux: ports = %u given%s\n", c.n_ports,
		    c.n_ports == 1 && c.ports[0][0] == '/' ? " (a regex)" : "");
	for (i = 0; i < LINUXBE_NSRC; i++) {
		const char *m = c.mode[i] == LINUXBE_ON	   ? "on (required)"
				: c.mode[i] == LINUXBE_OFF ? "off"
							   : "auto (if the kernel has it)";

		if (c.mode[i] == LINUXBE_OFF)
			ADD("linux: %s: off\n", linuxbe_src_names[i]);
		else
			ADD("linux: %s: %s; needs %s\n", linuxbe_src_names[i], m, needs[i]);
	}
	ADD("linux: qdisc_poll_ms = %u, buffer_poll_ms = %u, install_samplers = %s\n",
	    c.qdisc_poll_ms, c.buffer_poll_ms, c.install_samplers ? "yes" : "no");
#undef ADD
	linuxbe_conf_free(&c);
	return 0;
}

static const struct bsf_backend_ops ops = {
    .abi_version = BSF_BACKEND_ABI_VERSION,
    .size = sizeof(struct bsf_backend_ops),
    .name = "linux",
    .open = op_open,
    .close = op_close,
    .describe = op_describe,
    .read_counters = op_read_counters,
    .read_port_buffers = op_read_port_buffers,
    .read_device_buffers = op_read_device_buffers,
    .read_delays = op_read_delays,
    .read_events = op_read_events,
    .sample_pool = op_sample_pool,
    .event_overflows = op_event_overflows,
    .drop_events_lost = op_drop_events_lost,
    .sample_drops = op_sample_drops,
    .check = op_check,
    .read_eth_counters = op_read_eth_counters,
    .read_own_records = op_read_own_records,
    .log_status = linuxbe_log_status,
    .set_queue_events = op_set_queue_events,
    .queue_events_lost = op_queue_events_lost,
};

const struct bsf_backend_ops *linuxbe_ops(void)
{
	return &ops;
}
