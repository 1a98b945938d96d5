/*
 * state.h - the linux backend's running state, shared by its sources'
 * files: the ports and their queues (qdisc leaves), each source's socket
 * and counters, the event queue the daemon pulls from.  Everything here
 * is touched on the daemon's loop thread only.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_STATE_H
#define BSFLOWD_LINUX_STATE_H

#include <stdint.h>

#include "agent/backend.h"
#include "agent/linux/linuxbe.h"
#include "agent/linux/linuxcfg.h"

struct mnl_socket;
struct nlmsghdr;

/* One queue of a port: a qdisc leaf (or the root of a single-queue qdisc). */
struct linuxbe_leaf {
	uint32_t handle;     /* the class (or qdisc) that names the queue */
	uint32_t qdisc;	     /* the qdisc that holds the packets (0: the class) */
	uint32_t limit;	     /* UINT32_MAX unknown */
	uint32_t limit_unit; /* enum linuxbe_limit_unit */
	struct linuxbe_peak bytes, pkts;
	struct linuxbe_peak delay; /* codel / pie sojourn, ns */
	uint64_t delay_ns;	   /* latest, BSF_UNKNOWN */
	unsigned delay_count[BSF_WINDOWS];
	int seen;	   /* found in the last dump */
	int bpf;	   /* measured by the bpf source too (bpfrun.c) */
	uint32_t bpf_slot; /* its slot in the bpf source, if bpf */
	char kind[16];	   /* the qdisc attached under it ("": a default one) */
};

struct linuxbe_port {
	struct bsf_port_desc *desc; /* in st->descs */
	uint32_t ifindex;
	char name[BSF_NAME_MAX];
	uint32_t txqlen;
	int admin_up, oper_up, gone;
	/* qdisc */
	char root_kind[16];
	uint32_t root_handle;
	struct linuxbe_wrap root_drops; /* widened root qdisc drops */
	int have_root_drops;
	struct linuxbe_leaf leaves[BSF_MAX_QUEUES];
	unsigned n_leaves;
	struct linuxbe_peak egress; /* sum of the leaves' bytes (+ BQL) */
	uint64_t egress_alloc;	    /* sum of byte limits, BSF_UNKNOWN */
	int *bql_fd;		    /* sysfs tx-N/byte_queue_limits/inflight, kept open */
	unsigned n_bql;
	int need_classes; /* some leaf's figures come from its class */
	/* sampling */
	uint32_t sampling_rate;
	uint64_t sample_drops;
	uint64_t pool, pool_t_ns;	/* sample pool, re-read at most every 100 ms */
	int sampler_on, sampler_clsact; /* install_samplers: what we added */
	/* sb: devlink port index, UINT32_MAX if none */
	uint32_t dl_port;
	struct linuxbe_peak sb_uc[BSF_MAX_QUEUES], sb_mc[BSF_MAX_QUEUES];
	struct linuxbe_peak sb_pg[BSF_MAX_PGS];
	uint64_t sb_uc_alloc[BSF_MAX_QUEUES], sb_mc_alloc[BSF_MAX_QUEUES], sb_pg_alloc[BSF_MAX_PGS];
	struct linuxbe_peak sb_egress, sb_ingress;
	uint64_t sb_egress_alloc, sb_ingress_alloc;
};

/* What open() found of each source. */
enum linuxbe_state { LINUXBE_ABSENT = 0, LINUXBE_ACTIVE, LINUXBE_FAILED, LINUXBE_DISABLED };

struct linuxbe_evq {
	struct bsf_event *ev;
	size_t cap, head, n;
	uint64_t lost, lost_drops;
	uint64_t lost_stream; /* lost while a queue stream was on */
	unsigned streams;     /* queues streamed (set_queue_events) */
};

/* A set of ports with their descriptions and ifindex map (ports.c). */
struct linuxbe_portset {
	struct linuxbe_port *ports;
	struct bsf_port_desc *descs;
	uint32_t nports;
	uint32_t *ifx_map, ifx_n;
};

struct linuxbe_tp;   /* tracepoint.c */
struct linuxbe_pkt;  /* packet.c */
struct linuxbe_sb;   /* sbrun.c */
struct linuxbe_qd;   /* qpoll.c */
struct linuxbe_bpf;  /* bpf/bpfrun.c */
struct linuxbe_swap; /* portswap.c */

struct linuxbe_st {
	const struct bsf_host *host;
	struct linuxbe_conf conf;
	char cfgfile[256];
	struct bsf_device_desc dev;
	struct bsf_port_desc *descs;
	struct linuxbe_port *ports;
	uint32_t nports;
	uint32_t *ifx_map; /* ifindex -> port index + 1 (0: not ours), ifx_n entries */
	uint32_t ifx_n;
	unsigned state[LINUXBE_NSRC];
	char why[LINUXBE_NSRC][160]; /* what the log said of each source */
	uint64_t src_errors[LINUXBE_NSRC];
	/* rtnetlink: requests, and link notifications */
	struct mnl_socket *rt, *rtmon;
	struct bsf_fd_watch *rtmon_w;
	struct bsf_timer *qdisc_timer;
	uint64_t qdisc_polls, qdisc_poll_ns; /* cost, for the status and bench */
	uint64_t qdisc_last_mono_ns;	     /* CLOCK_MONOTONIC of the last poll */
	/* genl request socket (dropmon, devlink, ethtool) */
	struct mnl_socket *genl;
	uint16_t eth_family;
	int eth_ok; /* 0:2 counters from ethtool */
	/* dropmon */
	struct mnl_socket *dm;
	struct bsf_fd_watch *dm_w;
	uint16_t dm_family;
	int dm_started; /* we started it: stop it at close */
	uint64_t dm_kernel_lost, dm_sock_lost, dm_stats_base;
	int dm_have_base;
	struct bsf_timer *dm_stats_timer;
	/* psample */
	struct mnl_socket *ps;
	struct bsf_fd_watch *ps_w;
	uint32_t ps_last_seq[4];
	int ps_have_seq[4];
	uint64_t ps_unknown_port;
	/* sb */
	struct linuxbe_sb *sb;
	/* qdisc dumps: scratch (qpoll.c) */
	struct linuxbe_qd *qd;
	/* fallbacks */
	struct linuxbe_tp *tp;
	struct linuxbe_pkt *pkt;
	/* bpf: exact peaks and sojourn */
	struct linuxbe_bpf *bpf;
	uint32_t drop_limit; /* drop reports a second (the agent's drops limit) */
	/* events the daemon pulls */
	struct linuxbe_evq q;
	/* ports that come and go while running (portswap.c) */
	struct linuxbe_swap *swap;
};

/* ethtool.c: 0:2 counters */
#define LINUXBE_ETH_MAC_N 32
struct linuxbe_ethstats {
	uint64_t mac[LINUXBE_ETH_MAC_N]; /* by ETHTOOL_A_STATS_ETH_MAC_*, BSF_UNKNOWN */
	uint64_t symbol_errors;
};
int linuxbe_ethstats_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_ethstats *out,
			   char *err, size_t errlen);
void linuxbe_ethstats_fill(const struct linuxbe_ethstats *s, struct bsf_eth_counters *o);
int linuxbe_eth_read(struct linuxbe_st *st, uint32_t port, struct linuxbe_ethstats *out, char *err,
		     size_t errlen);
int linuxbe_eth_open(struct linuxbe_st *st, char *why, size_t whylen);

/* the event queue (backend_linux.c) */
struct bsf_event *linuxbe_evq_slot(struct linuxbe_st *st, uint32_t type);
/* a port index by kernel ifindex, UINT32_MAX if not ours */
uint32_t linuxbe_port_by_ifindex(const struct linuxbe_st *st, uint32_t ifindex);
/* log through the host: "linux: ..." */
void linuxbe_log(struct linuxbe_st *st, int prio, const char *fmt, ...) BSF_PRINTF_LIKE(3, 4);
/* A source that worked stops working: logged once, counted, and its
 * values go to unknown. */
void linuxbe_src_fail(struct linuxbe_st *st, unsigned src, const char *what);
/* The sFlow code of a drop, with the configured overrides first. */
void linuxbe_st_reason(const struct linuxbe_st *st, const char *reason, const char *trap_group,
		       const char *trap_name, uint32_t *code, uint32_t *stage);

/* ports.c: choose the ports (config `ports`), fill st->ports / descs */
int linuxbe_ports_discover(struct linuxbe_st *st, char *err, size_t errlen);
/* The ports there now by the same rule, into set (strict: as at open, a
 * name given missing or no port at all is an error). */
int linuxbe_ports_scan(struct linuxbe_st *st, int strict, struct linuxbe_portset *set, char *err,
		       size_t errlen);
void linuxbe_portset_free(struct linuxbe_portset *set);
/* Make set st's ports (st->ports, descs, the ifindex map and dev's port
 * list), freeing those st had; set is left empty. */
void linuxbe_portset_install(struct linuxbe_st *st, struct linuxbe_portset *set);
/* Could interface l be a port under `ports` (auto: a switchdev port or a
 * physical NIC)? */
int linuxbe_ports_wanted(const struct linuxbe_st *st, const struct linuxbe_link *l);
/* link.c runtime (linkrun.c): counters of one port; link notifications */
int linuxbe_link_counters(struct linuxbe_st *st, uint32_t port, struct bsf_if_counters *out,
			  char *err, size_t errlen);
int linuxbe_linkmon_open(struct linuxbe_st *st, char *err, size_t errlen);
/* packets the port's sampler could have sampled, cumulative */
uint64_t linuxbe_link_pool(struct linuxbe_st *st, uint32_t port);
void linuxbe_linkmon_close(struct linuxbe_st *st);
/* qpoll.c: the qdisc poller */
int linuxbe_qdisc_open(struct linuxbe_st *st, char *err, size_t errlen);
int linuxbe_qdisc_poll(struct linuxbe_st *st, char *err, size_t errlen);
/* Poll now unless the last poll is less than 1 ms old (counter reads). */
void linuxbe_qdisc_fresh(struct linuxbe_st *st);
void linuxbe_qdisc_close(struct linuxbe_st *st);
/* The ports changed (portswap.c): map every port's queues again, open the
 * new ports' BQL files; a port gone lets go of its own. */
int linuxbe_qdisc_ports(struct linuxbe_st *st, char *err, size_t errlen);
void linuxbe_qdisc_port_close(struct linuxbe_port *pt);
/* The poller's steps without netlink (unit tests): allocate its state,
 * start a poll, add one RTM_NEWQDISC / RTM_NEWTCLASS message, fold the
 * poll (first: map the queues) at time now. */
int linuxbe_qdisc_alloc(struct linuxbe_st *st);
void linuxbe_qdisc_begin(struct linuxbe_st *st);
int linuxbe_qdisc_add(struct linuxbe_st *st, const struct nlmsghdr *nlh, size_t len, char *err,
		      size_t errlen);
int linuxbe_qdisc_fold(struct linuxbe_st *st, int first, uint64_t now, char *err, size_t errlen);
/* dmrun.c: NET_DM */
int linuxbe_dropmon_open(struct linuxbe_st *st, char *why, size_t whylen);
void linuxbe_dropmon_close(struct linuxbe_st *st);
/* Turn one alert into an event (also used by the bench). */
int linuxbe_dropmon_event(struct linuxbe_st *st, const struct linuxbe_drop *d, struct bsf_event *e);
/* psrun.c: psample */
int linuxbe_psample_open(struct linuxbe_st *st, char *why, size_t whylen);
void linuxbe_psample_close(struct linuxbe_st *st);
/* The ports changed: samplers installed on the new ones (install_samplers). */
int linuxbe_psample_ports(struct linuxbe_st *st, char *why, size_t whylen);
/* sbrun.c: devlink shared buffer */
int linuxbe_sb_open(struct linuxbe_st *st, char *why, size_t whylen);
void linuxbe_sb_close(struct linuxbe_st *st);
/* The ports changed: their devlink ports mapped again. */
int linuxbe_sb_ports(struct linuxbe_st *st, char *why, size_t whylen);
/* tracepoint.c: skb:kfree_skb counts by reason */
int linuxbe_tp_open(struct linuxbe_st *st, char *why, size_t whylen);
void linuxbe_tp_close(struct linuxbe_st *st);
/* packet.c: AF_PACKET 1-in-N sampler */
int linuxbe_pkt_open(struct linuxbe_st *st, char *why, size_t whylen);
void linuxbe_pkt_close(struct linuxbe_st *st);

#endif
