/*
 * qpoll.c - the qdisc source at run time: a poller (every qdisc_poll_ms)
 * that dumps every qdisc (one RTM_GETQDISC dump serves all ports: the
 * kernel dumps every device's) and the classes of ports with a classful
 * root, maps each port's queues onto its qdisc leaves, and folds each
 * reading into the leaves' peak windows.
 *
 * Queue q of a port is, in this order of precedence:
 *   - the q-th handle of the config's `queues` (a class, or a qdisc);
 *   - for a multi-queue root (mq, mqprio, htb, prio, ets, drr, hfsc, qfq,
 *     taprio): the q-th leaf class (a class no other class names as its
 *     parent), in handle order (mq: TX queue q, htb: leaves by classid,
 *     prio/ets: band q+1);
 *   - otherwise the root qdisc itself (one queue).
 * A leaf's occupancy and limit come from the qdisc attached under it when
 * there is one (htb leaf bfifo, mq child fq_codel), else from the class;
 * a leaf without a limit of its own (default pfifo, pfifo_fast) is limited
 * by the device's tx_queue_len packets.  The percentage is backlog / limit
 * in the limit's unit (bytes, or packets).  The port's egress is the sum
 * of its leaves' backlogs plus, where sysfs has byte queue limits, the
 * bytes handed to the driver and not yet sent (tx-N/byte_queue_limits/
 * inflight, read from descriptors kept open).  The root's drops (a 32-bit counter, widened
 * here) go into the port's out_discards.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "agent/linux/nl.h"
#include "agent/linux/portset.h"
#include "agent/linux/state.h"

struct linuxbe_qd {
	struct linuxbe_tc *obj; /* this poll's objects, all ports */
	uint32_t *port;		/* the port of each */
	size_t n, cap;
	int *classful; /* per port: the root is multi-queue */
	int *dumped;   /* per port: its classes were dumped in this poll */
	size_t *idx;   /* objects grouped by port: idx[start[p] .. start[p + 1]) */
	size_t *start;
	size_t idx_cap;
	int layout_warned;
};

static const char *const multiq_kinds[] = {"mq",  "mqprio", "htb", "prio",  "ets",
					   "drr", "hfsc",   "qfq", "taprio"};

static int is_multiq(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof multiq_kinds / sizeof multiq_kinds[0]; i++)
		if (strcmp(kind, multiq_kinds[i]) == 0)
			return 1;
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int obj_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_qd *qd = st->qd;
	uint32_t port;
	const struct tcmsg *tcm;

	if (nlh->nlmsg_type != RTM_NEWQDISC && nlh->nlmsg_type != RTM_NEWTCLASS)
		return 0;
	if (len < mnl_nlmsg_size(sizeof *tcm))
		return 0;
	tcm = mnl_nlmsg_get_payload(nlh);
	port = linuxbe_port_by_ifindex(st, (uint32_t)tcm->tcm_ifindex);
	if (port == UINT32_MAX)
		return 0; /* not one of ours: do not even parse it */
	if (qd->n == qd->cap) {
		size_t cap = qd->cap ? qd->cap * 2 : 256;
		struct linuxbe_tc *o = realloc(qd->obj, cap * sizeof *o);
		uint32_t *p;

		if (!o)
			goto nomem;
		qd->obj = o;
		p = realloc(qd->port, cap * sizeof *p);
		if (!p)
			goto nomem;
		qd->port = p;
		qd->cap = cap;
	}
	if (linuxbe_tc_parse(nlh, len, &qd->obj[qd->n], err, errlen) < 0)
		return -1;
	qd->port[qd->n++] = port;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

static int dump(struct linuxbe_st *st, uint16_t type, int ifindex, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *tcm;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof *tcm);
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	return linuxbe_nl_exchange(st->rt, nlh, obj_cb, st, err, errlen) < 0 ? -1 : 0;
}

/* Group this poll's objects by port (a counting sort into qd->idx). */
static int group(struct linuxbe_st *st)
{
	struct linuxbe_qd *qd = st->qd;
	size_t i, *fill;
	uint32_t p;

	if (qd->idx_cap < qd->n) {
		size_t *x = realloc(qd->idx, qd->n * sizeof *x);

		if (!x)
			return -1;
		qd->idx = x;
		qd->idx_cap = qd->n;
	}
	memset(qd->start, 0, (st->nports + 2) * sizeof *qd->start);
	for (i = 0; i < qd->n; i++)
		qd->start[qd->port[i] + 2]++;
	for (p = 0; p < st->nports; p++)
		qd->start[p + 2] += qd->start[p + 1];
	fill = qd->start + 1; /* fill[p]: the next free slot of port p */
	for (i = 0; i < qd->n; i++)
		qd->idx[fill[qd->port[i]]++] = i;
	return 0;
}

/* An object of port p (a class or a qdisc) by handle and / or parent
 * (UINT32_MAX: any). */
static const struct linuxbe_tc *find(const struct linuxbe_qd *qd, uint32_t p, int is_class,
				     uint32_t handle, uint32_t parent)
{
	size_t k;

	for (k = qd->start[p]; k < qd->start[p + 1]; k++) {
		const struct linuxbe_tc *t = &qd->obj[qd->idx[k]];

		if (t->is_class != is_class)
			continue;
		if (handle != UINT32_MAX && t->handle != handle)
			continue;
		if (parent != UINT32_MAX && t->parent != parent)
			continue;
		return t;
	}
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The leaf handles of port p, in queue order; returns how many. */
static unsigned leaf_handles(struct linuxbe_st *st, uint32_t p, const struct linuxbe_tc *root,
			     uint32_t *h)
{
	struct linuxbe_qd *qd = st->qd;
	unsigned n = 0;
	size_t i, j;

	if (st->conf.n_queues) {
		for (n = 0; n < st->conf.n_queues; n++)
			h[n] = st->conf.queues[n];
		return n;
	}
	if (!root)
		return 0;
	if (!qd->classful[p]) {
		h[0] = root->handle;
		return 1;
	}
	for (i = qd->start[p]; i < qd->start[p + 1] && n < BSF_MAX_QUEUES; i++) {
		const struct linuxbe_tc *c = &qd->obj[qd->idx[i]];
		int parent_of_some = 0;

		if (!c->is_class)
			continue;
		for (j = qd->start[p]; j < qd->start[p + 1]; j++)
			if (qd->obj[qd->idx[j]].is_class &&
			    qd->obj[qd->idx[j]].parent == c->handle) {
				parent_of_some = 1;
				break;
			}
		if (!parent_of_some)
			h[n++] = c->handle;
	}
	qsort(h, n, sizeof *h, cmp_u32);
	return n;
}

/* Open the port's BQL inflight files (none on veth, for instance). */
static void bql_open(struct linuxbe_port *pt)
{
	char path[PATH_MAX];
	unsigned q;

	for (q = 0; q < 256; q++) {
		int fd, *n;

		snprintf(path, sizeof path,
			 "/sys/class/net/%s/queues/tx-%u/byte_queue_limits/inflight", pt->name, q);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		n = realloc(pt->bql_fd, (pt->n_bql + 1) * sizeof *n);
		if (!n) {
			close(fd);
			break;
		}
		pt->bql_fd = n;
		pt->bql_fd[pt->n_bql++] = fd;
	}
}

static uint64_t bql_inflight(const struct linuxbe_port *pt)
{
	uint64_t sum = 0;
	unsigned q;

	for (q = 0; q < pt->n_bql; q++) {
		char b[32];
		ssize_t n = pread(pt->bql_fd[q], b, sizeof b - 1, 0);

		if (n > 0) {
			b[n] = '\0';
			sum += strtoull(b, NULL, 10);
		}
	}
	return sum;
}

static void fold_port(struct linuxbe_st *st, uint32_t p, uint64_t now, int first)
{
	struct linuxbe_qd *qd = st->qd;
	struct linuxbe_port *pt = &st->ports[p];
	const struct linuxbe_tc *root = find(qd, p, 0, UINT32_MAX, TC_H_ROOT);
	uint32_t h[BSF_MAX_QUEUES];
	unsigned n, q;
	uint64_t sum = 0, alloc = 0;
	int alloc_known = 1;

	/* another root qdisc (tbf replaced by htb...): another layout */
	int kind_changed = !first && root && strcmp(pt->root_kind, root->kind) != 0;

	if (root) {
		snprintf(pt->root_kind, sizeof pt->root_kind, "%s", root->kind);
		pt->root_handle = root->handle;
		if (root->has_queue) {
			linuxbe_wrap_add(&pt->root_drops, root->drops);
			pt->have_root_drops = 1;
		}
	}
	if (!first && qd->classful[p] && !qd->dumped[p])
		n = pt->n_leaves; /* classes not dumped: the layout of the first poll */
	else
		n = leaf_handles(st, p, root, h);
	if (first) {
		pt->n_leaves = n;
		if (pt->dl_port == UINT32_MAX)
			pt->desc->n_uc_queues = (uint8_t)(n ? n : 1);
		for (q = 0; q < n; q++)
			if (pt->leaves[q].handle != h[q]) {
				/* another queue here (mapped again): its own peaks */
				memset(&pt->leaves[q], 0, sizeof pt->leaves[q]);
				pt->leaves[q].handle = h[q];
			}
	} else if ((n != pt->n_leaves || kind_changed) && !qd->layout_warned) {
		/* mapped again at the daemon's next describe(), if it can take
		 * one (portswap.c); else once: "reload" */
		qd->layout_warned = 1;
		if (linuxbe_swap_schedule(st, 1))
			linuxbe_log(st, LOG_NOTICE,
				    "the qdiscs of %s changed (root %s): mapping its "
				    "queues again",
				    pt->name, pt->root_kind);
		else
			linuxbe_log(st, LOG_WARNING,
				    "the qdiscs of %s changed (%u queues, %u at start); reload "
				    "bsflowd (SIGHUP) to map its queues again",
				    pt->name, n, pt->n_leaves);
	}
	for (q = 0; q < pt->n_leaves; q++) {
		struct linuxbe_leaf *lf = &pt->leaves[q];
		const struct linuxbe_tc *cls = find(qd, p, 1, lf->handle, UINT32_MAX);
		const struct linuxbe_tc *child = find(qd, p, 0, UINT32_MAX, lf->handle);
		const struct linuxbe_tc *src;
		uint32_t limit, unit;

		if (!cls && !child)
			child = find(qd, p, 0, lf->handle, UINT32_MAX); /* a qdisc handle */
		src = child && child->has_queue ? child : cls;
		lf->seen = src != NULL;
		if (first && src && src == cls)
			pt->need_classes = 1;
		if (!src)
			continue;
		limit = child ? child->limit : UINT32_MAX;
		unit = child ? child->limit_unit : LINUXBE_LIMIT_NONE;
		if (unit == LINUXBE_LIMIT_NONE &&
		    (!child || strcmp(child->kind, "pfifo_fast") == 0) &&
		    pt->txqlen != UINT32_MAX) {
			/* a default pfifo / pfifo_fast: tx_queue_len packets */
			limit = pt->txqlen ? pt->txqlen : 1;
			unit = LINUXBE_LIMIT_PACKETS;
		}
		lf->limit = limit;
		lf->limit_unit = unit;
		lf->qdisc = child ? child->handle : 0;
		snprintf(lf->kind, sizeof lf->kind, "%s", child ? child->kind : "");
		linuxbe_peak_fold(&lf->bytes, src->backlog,
				  unit == LINUXBE_LIMIT_BYTES ? limit : BSF_UNKNOWN, now);
		linuxbe_peak_fold(&lf->pkts, src->qlen,
				  unit == LINUXBE_LIMIT_PACKETS ? limit : BSF_UNKNOWN, now);
		if (child && child->delay_ns != BSF_UNKNOWN) {
			unsigned w;

			lf->delay_ns = child->delay_ns;
			linuxbe_peak_fold(&lf->delay, child->delay_ns, BSF_UNKNOWN, now);
			for (w = 0; w < BSF_WINDOWS; w++)
				lf->delay_count[w]++;
		}
		sum += src->backlog;
		if (unit == LINUXBE_LIMIT_BYTES)
			alloc += limit;
		else
			alloc_known = 0;
	}
	if (pt->n_bql)
		sum += bql_inflight(pt);
	pt->egress_alloc = alloc_known && pt->n_leaves ? alloc : BSF_UNKNOWN;
	linuxbe_peak_fold(&pt->egress, sum, pt->egress_alloc, now);
}

static void mark_classful(struct linuxbe_st *st)
{
	struct linuxbe_qd *qd = st->qd;
	uint32_t p;
	size_t i;

	for (p = 0; p < st->nports; p++)
		qd->classful[p] = 0;
	for (i = 0; i < qd->n; i++)
		if (!qd->obj[i].is_class && qd->obj[i].parent == TC_H_ROOT &&
		    is_multiq(qd->obj[i].kind))
			qd->classful[qd->port[i]] = 1;
}

static int finish(struct linuxbe_st *st, int first, uint64_t now, char *err, size_t errlen)
{
	uint32_t p;

	if (group(st) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (p = 0; p < st->nports; p++)
		if (!st->ports[p].gone)
			fold_port(st, p, now, first);
	return 0;
}

static int poll_once(struct linuxbe_st *st, int first, char *err, size_t errlen)
{
	struct linuxbe_qd *qd = st->qd;
	uint64_t t0 = mono_ns(), now = st->host->now_ns(st->host->arg);
	uint32_t p;

	qd->n = 0;
	if (dump(st, RTM_GETQDISC, 0, err, errlen) < 0)
		return -1;
	mark_classful(st);
	for (p = 0; p < st->nports; p++) {
		struct linuxbe_port *pt = &st->ports[p];

		/* after the first poll, the classes only of ports whose leaves
		 * are read from their classes (the qdisc dump has the rest) */
		qd->dumped[p] = (qd->classful[p] || st->conf.n_queues) && !pt->gone &&
				(first || pt->need_classes || st->conf.n_queues);
		if (qd->dumped[p] && dump(st, RTM_GETTCLASS, (int)pt->ifindex, err, errlen) < 0)
			return -1;
	}
	if (finish(st, first, now, err, errlen) < 0)
		return -1;
	st->qdisc_polls++;
	st->qdisc_last_mono_ns = mono_ns();
	st->qdisc_poll_ns += st->qdisc_last_mono_ns - t0;
	return 0;
}

/* ---- the same steps without netlink, for the unit tests ---- */

void linuxbe_qdisc_begin(struct linuxbe_st *st)
{
	st->qd->n = 0;
}

int linuxbe_qdisc_add(struct linuxbe_st *st, const struct nlmsghdr *nlh, size_t len, char *err,
		      size_t errlen)
{
	return obj_cb(nlh, len, st, err, errlen);
}

int linuxbe_qdisc_fold(struct linuxbe_st *st, int first, uint64_t now, char *err, size_t errlen)
{
	uint32_t p;

	mark_classful(st);
	for (p = 0; p < st->nports; p++)
		st->qd->dumped[p] = 1; /* the caller added every class it has */
	return finish(st, first, now, err, errlen);
}

int linuxbe_qdisc_poll(struct linuxbe_st *st, char *err, size_t errlen)
{
	if (st->state[LINUXBE_SRC_QDISC] != LINUXBE_ACTIVE)
		return -1;
	if (poll_once(st, 0, err, errlen) < 0) {
		linuxbe_src_fail(st, LINUXBE_SRC_QDISC, err);
		return -1;
	}
	return 0;
}

void linuxbe_qdisc_fresh(struct linuxbe_st *st)
{
	char e[256];

	if (st->state[LINUXBE_SRC_QDISC] == LINUXBE_ACTIVE &&
	    mono_ns() - st->qdisc_last_mono_ns >= 1000000u)
		linuxbe_qdisc_poll(st, e, sizeof e);
}

static void on_timer(void *arg)
{
	struct linuxbe_st *st = arg;
	char e[256];

	linuxbe_qdisc_poll(st, e, sizeof e);
}

int linuxbe_qdisc_alloc(struct linuxbe_st *st)
{
	st->qd = calloc(1, sizeof *st->qd);
	if (!st->qd || !(st->qd->classful = calloc(st->nports + 1, sizeof(int))) ||
	    !(st->qd->dumped = calloc(st->nports + 1, sizeof(int))) ||
	    !(st->qd->start = calloc(st->nports + 2, sizeof(size_t))))
		return -1;
	return 0;
}

int linuxbe_qdisc_open(struct linuxbe_st *st, char *err, size_t errlen)
{
	uint32_t p;
	unsigned with = 0;

	if (linuxbe_qdisc_alloc(st) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (p = 0; p < st->nports; p++)
		bql_open(&st->ports[p]);
	if (poll_once(st, 1, err, errlen) < 0)
		return -1;
	for (p = 0; p < st->nports; p++)
		if (st->ports[p].n_leaves)
			with++;
	if (st->host->timer_new) {
		st->qdisc_timer = st->host->timer_new(st->host->arg, on_timer, st);
		if (!st->qdisc_timer ||
		    st->host->timer_start(st->qdisc_timer,
					  (uint64_t)st->conf.qdisc_poll_ms * 1000000u, 1) < 0) {
			snprintf(err, errlen, "cannot start the qdisc poller's timer");
			return -1;
		}
	}
	snprintf(err, errlen, "qdisc on %u port%s (every %u ms)", with, with == 1 ? "" : "s",
		 st->conf.qdisc_poll_ms);
	return 0;
}

void linuxbe_qdisc_port_close(struct linuxbe_port *pt)
{
	unsigned q;

	for (q = 0; q < pt->n_bql; q++)
		close(pt->bql_fd[q]);
	free(pt->bql_fd);
	pt->bql_fd = NULL;
	pt->n_bql = 0;
}

/* The scratch arrays sized by the number of ports. */
static int size_arrays(struct linuxbe_st *st)
{
	struct linuxbe_qd *qd = st->qd;
	int *c = realloc(qd->classful, (st->nports + 1) * sizeof *c);

	if (c)
		qd->classful = c;
	c = c ? realloc(qd->dumped, (st->nports + 1) * sizeof *c) : NULL;
	if (c)
		qd->dumped = c;
	if (c) {
		size_t *s = realloc(qd->start, (st->nports + 2) * sizeof *s);

		if (s)
			qd->start = s;
		return s ? 0 : -1;
	}
	return -1;
}

int linuxbe_qdisc_ports(struct linuxbe_st *st, char *err, size_t errlen)
{
	uint32_t p;

	if (size_arrays(st) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (p = 0; p < st->nports; p++)
		if (!st->ports[p].n_bql)
			bql_open(&st->ports[p]);
	st->qd->layout_warned = 0;
	/* every port's queues mapped again (the kept ports' peaks stay) */
	return poll_once(st, 1, err, errlen);
}

void linuxbe_qdisc_close(struct linuxbe_st *st)
{
	uint32_t p;

	for (p = 0; p < st->nports; p++)
		linuxbe_qdisc_port_close(&st->ports[p]);
	if (st->qdisc_timer)
		st->host->timer_free(st->qdisc_timer);
	st->qdisc_timer = NULL;
	if (st->qd) {
		free(st->qd->obj);
		free(st->qd->port);
		free(st->qd->classful);
		free(st->qd->dumped);
		free(st->qd->start);
		free(st->qd->idx);
		free(st->qd);
	}
	st->qd = NULL;
}
