/*
 * backend.h - the interface between bsflowd and a switch backend (ABI 3).
 *
 * This is the only header a backend includes (it is installed as
 * <bsflowd/backend.h>, with a bsflowd-backend.pc for pkg-config, so a
 * vendor can build a plugin .so for an ASIC SDK without the bsflowd
 * sources).  It uses nothing but the C standard headers: no libevent, no
 * libconfuse.  A backend is a table of functions plus an opaque state
 * pointer; it declares what it can report (capability bits) and the agent
 * never guesses: whatever a backend cannot say is reported as BSF_UNKNOWN
 * and goes on the wire as "unknown" (-1 / all ones).
 *
 * Built-in backends (model, linux) are linked in; a plugin is a shared
 * object exporting
 *
 *	const struct bsf_backend_ops *bsf_backend_entry(void);
 *
 * VERSIONS AND SIZES.  ops->abi_version must lie within the range the
 * daemon speaks, [BSF_BACKEND_ABI_MIN, BSF_BACKEND_ABI_VERSION] of the
 * daemon's own copy of this header, or the daemon refuses the plugin with
 * a message naming the plugin's version and that range.  Within one ABI
 * version the structs only ever grow at their end, and each struct that
 * crosses the interface carries its own size in a first member
 * `uint32_t size` (the ops table: second, after abi_version, which stays
 * where versions 1 and 2 had it so that any old plugin is refused by
 * version rather than misread), set with sizeof by whoever fills it:
 *
 *   - what the backend fills and the daemon reads (the ops table, the
 *     descriptors, pushed events): the daemon reads only the first `size`
 *     bytes and treats missing trailing fields as unknown / NULL, so a
 *     backend built against an older copy of this header keeps working;
 *   - what the daemon allocates and the backend fills (the out-structs of
 *     the read_* ops, the event array of read_events): the daemon sets
 *     `size` to what it allocated and pre-fills everything with "unknown"
 *     (the bsf_*_init() functions below, which backends may use too).  A
 *     backend must not write past out->size: the fields of the first
 *     layout of ABI 3 (every field of this file not marked "appended")
 *     always fit; a field appended later is written only if
 *     BSF_FITS(out, type, field).  Never assign a whole struct to *out or
 *     memset it with sizeof *out.
 *   - what the daemon fills and the backend reads (bsf_host, the args):
 *     test BSF_FITS(host, struct bsf_host, field) before using a field
 *     appended later.
 *
 * THREADS.  bsflowd runs one event loop on one thread, the loop thread.
 * Every backend op, and every host function except three, is called on the
 * loop thread only.  The exceptions: host->push_events, host->events_ready
 * and host->log may be called from ANY thread, at any time from inside
 * open() until close() returns: close() must stop (and join) the
 * backend's own threads before it returns, and no thread may call the
 * host after that (the host is freed).  These three
 * never block for long (a mutex held for a copy) and never call back into
 * the backend.  A backend whose SDK delivers drops and samples on its own
 * thread pushes them with push_events (the daemon copies them into its own
 * bounded queue, counts what does not fit per event type, wakes the loop
 * and handles them there, exactly as pulled ones).
 *
 * EVENTS, pull or push.  A backend that runs on the loop thread may
 * instead keep its own queue and let the daemon pull (read_events, after
 * host->events_ready or on the daemon's own schedule); a backend may do
 * both.  Pulled and pushed events take the same path in the daemon (flow
 * samples 0:3, discarded packets 0:5, the visibility monitors).
 *
 * CONFIGURATION.  The daemon gives the backend its own section of
 * bsflowd.conf as text (bsf_backend_args.section_text: the text between
 * the braces of `model { }`, `linux { }`, `sonic { }` or `plugin { }`,
 * comments included), with its file and first line, so that the backend
 * parses it with its own parser and reports errors as
 * "FILE:LINE: name: key = value: problem"; plugins also get the flat
 * "key=value" options list.  The optional check() op validates the
 * section without side effects for `bsflowd -t`.
 *
 * Peaks are per read window: each reader (the sFlow export, the status
 * dump, ...) passes its own window number 0..BSF_WINDOWS-1, and a read
 * returns and restarts only that window's peaks, so no reader clears
 * another's.  Ports are named by index 0..nports-1 in calls; the wire uses
 * their ifIndex.
 *
 * Per-queue packet events (BSF_CAP_QUEUE_EVENTS): for the queues the
 * agent asks with set_queue_events(), the backend reports every packet
 * admitted to the queue (BSF_EV_ENQUEUE) and every packet that left it
 * (BSF_EV_DEQUEUE), each with the queue's own packet id, so that the
 * agent's visibility monitors (queue forensics after a drop, high delay
 * on each departure, congestion thresholds) see the queue as it is rather
 * than a 1-in-N sample.  A streamed queue's drops carry the id of the
 * packet at its tail (tail_id).  These events share the backend's bounded
 * event queue with drops and samples.
 *
 * DEVICE CHANGES (appended within 3).  A backend whose ports change
 * while it runs (ports added or removed, a breakout, the switch OS
 * reloading its configuration, a port's queues, speed or ifIndex
 * changing) calls host->device_changed, if the host has it.  Port
 * indices, in every call and in every event, refer to the description
 * the last describe() returned: the backend keeps the new description
 * aside and makes it current in its next describe() (which may return
 * another pointer; the previous description may be freed then), so that
 * until that call its reads, its set_queue_events and the events it
 * returns from read_events still use the old numbering, and from that
 * call on the new one (events of the old numbering still in its own
 * queue then are renumbered or dropped).  Pushed events: from the call
 * of device_changed until the daemon's describe() has returned, the
 * daemon refuses them (push_events returns 0; they are counted lost, by
 * type).  So every pushed event it takes was either pushed before
 * device_changed, in the old numbering, and is read before describe(), or
 * pushed after describe() returned, in the new one: a backend need only
 * make each push and describe()'s switch exclusive (its own lock), so
 * that no push straddles the switch.  One that would rather not lose
 * the events of that time keeps them and pushes them, renumbered, once
 * its describe() has returned (a push from another thread at that very
 * moment may still be refused).  Soon after, on its loop and never
 * inside device_changed, the daemon reads every event already queued
 * (old numbering), calls describe(), and rebuilds its data sources from
 * it: those of ports whose ifIndex it had keep their sequence numbers and
 * counts, new ports get new ones, the sources of ports gone stop; it logs
 * what changed.  Every queue event stream is off after a describe() that
 * changed the description: the daemon asks again (set_queue_events, new
 * numbering) for the streams it wants.  A description the daemon cannot
 * take (NULL, sizes below the minimum, or no memory to take it in)
 * changed the backend's numbering all the same: until the daemon has
 * taken one, it reads and attributes nothing by port index (it polls the
 * device only, skipping the ports' counters samples; it sends no packet
 * samples, sends drops without their input and output ports, feeds its
 * visibility monitors nothing and asks for no queue stream) and calls
 * describe() again after 1, 2, 4 ... at most 60 seconds, or at once when
 * the backend calls device_changed again.  args->sampling_rate is gone
 * after open(): a port added later is sampled at the rate its
 * description gives.  Without device_changed a
 * description's pointer stays valid until close, and the ports are fixed
 * from open to close, as for a backend built before device_changed.
 *
 * History: 1 the first; 2 added drop_events_lost, sample_drops, the
 * sampling_rate callback and queue events; 3 added the sizes, the host
 * table (timers, fd watches, clock, thread-safe push) in place of the
 * libevent base and the libconfuse section, the section as text, check(),
 * read_eth_counters() and the event's names (function, reason_name,
 * trap_group, trap_name) and sampling_rate; appended within 3: the host's
 * fd_watch_write (write readiness, for asynchronous clients such as
 * hiredis), the optional op log_status, the host's device_changed
 * (DEVICE CHANGES above), the args' drop_limit, and a drop's flow region
 * (BSF_EVF_FLOW_REGION, the event's region_* fields).  See
 * bsflowd-backend(3).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_BACKEND_H
#define BSFLOWD_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BSF_BACKEND_ABI_VERSION 3u /* the version of this header */
#define BSF_BACKEND_ABI_MIN	3u /* the oldest version a daemon of this header loads */

#define BSF_UNKNOWN    UINT64_MAX /* any 64-bit value a backend cannot supply */
#define BSF_UNKNOWN32  UINT32_MAX /* any 32-bit value (ports, queues...) unknown */
#define BSF_WINDOWS    4	  /* independent peak read windows */
#define BSF_MAX_QUEUES 16	  /* unicast / multicast queues per port */
#define BSF_MAX_PGS    8
#define BSF_MAX_POOLS  4
#define BSF_HDR_MAX    128 /* header bytes carried by an event */
#define BSF_NAME_MAX   64

/* printf-style checking where the compiler has GNU attributes */
#if defined(__GNUC__) || defined(__clang__)
#define BSF_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define BSF_PRINTF_LIKE(f, a)
#endif

/* Whether field of *p (a struct type) lies within the p->size bytes its
 * filler declared, e.g. BSF_FITS(out, struct bsf_eth_counters, symbol_errors). */
#define BSF_FITS(p, type, field)                                                                   \
	((size_t)(p)->size >= offsetof(type, field) + sizeof(((const type *)0)->field))

/* Capability bits (bsf_device_desc.caps) */
enum bsf_cap {
	BSF_CAP_IF_COUNTERS = 1u << 0,	   /* read_counters */
	BSF_CAP_BUFFERS = 1u << 1,	   /* read_port_buffers / read_device_buffers */
	BSF_CAP_BUFFER_BYTES = 1u << 2,	   /* occupancy also in bytes, not only cells */
	BSF_CAP_PEAK_TIME = 1u << 3,	   /* time of peak */
	BSF_CAP_PGS = 1u << 4,		   /* priority-group shared/headroom peaks */
	BSF_CAP_POOLS = 1u << 5,	   /* service pools */
	BSF_CAP_CPU_QUEUES = 1u << 6,	   /* CPU port queues */
	BSF_CAP_DELAY_NONTAGGED = 1u << 7, /* non-tagged latency method, per queue */
	BSF_CAP_DELAY_MARKER = 1u << 8,	   /* marker method queue delay */
	BSF_CAP_DROP_EVENTS = 1u << 9,	   /* events of type BSF_EV_DROP */
	BSF_CAP_SAMPLE_EVENTS = 1u << 10,  /* events of type BSF_EV_SAMPLE */
	BSF_CAP_MODEL_CLOCK = 1u << 11,	   /* a simulation: reports lag */
	BSF_CAP_QUEUE_EVENTS = 1u << 12,   /* BSF_EV_ENQUEUE / BSF_EV_DEQUEUE for the
					      queues asked with set_queue_events */
	BSF_CAP_ETH_COUNTERS = 1u << 13,   /* read_eth_counters (0:2) */
};

/* One port, as described by the backend (owned by it).  The ports of a
 * device are an array of nports entries of ports[0].size bytes each. */
struct bsf_port_desc {
	uint32_t size; /* sizeof(struct bsf_port_desc) of the backend */
	uint32_t ifindex;
	char name[BSF_NAME_MAX];
	uint64_t speed_bps;
	uint8_t n_uc_queues; /* 1..BSF_MAX_QUEUES */
	uint8_t n_mc_queues; /* 0..BSF_MAX_QUEUES */
	uint8_t n_pgs;	     /* 0..BSF_MAX_PGS */
	uint8_t oper_up;
	uint32_t sampling_rate; /* 1-in-N the backend samples at, 0 = none */
};

struct bsf_device_desc {
	uint32_t size;	       /* sizeof(struct bsf_device_desc) of the backend */
	char id[BSF_NAME_MAX]; /* e.g. "model" or the ASIC name */
	uint32_t caps;	       /* enum bsf_cap */
	uint32_t nports;
	const struct bsf_port_desc *ports; /* nports entries, owned by the backend */
	uint32_t cell_bytes;		   /* 0 if the backend has no cells */
	uint64_t total_cells;
	uint8_t n_ingress_pools; /* 0..BSF_MAX_POOLS */
	uint8_t n_egress_pools;
	uint8_t n_cpu_queues; /* 0..BSF_MAX_QUEUES */
};

/* Cumulative interface counters; BSF_UNKNOWN for what is not known. */
struct bsf_if_counters {
	uint32_t size; /* set by the daemon: what it allocated */
	uint64_t in_octets, in_ucast, in_mcast, in_bcast, in_discards, in_errors, in_unknown_protos;
	uint64_t out_octets, out_ucast, out_mcast, out_bcast, out_discards, out_errors;
	uint64_t speed_bps;
	uint32_t admin_up, oper_up; /* 0/1; anything else: unknown */
};

/* The dot3 counters of sFlow's 0:2 ethernet_counters, cumulative;
 * BSF_UNKNOWN for what is not known (all ones on the wire). */
struct bsf_eth_counters {
	uint32_t size; /* set by the daemon: what it allocated */
	uint64_t alignment_errors;
	uint64_t fcs_errors;
	uint64_t single_collision_frames;
	uint64_t multiple_collision_frames;
	uint64_t sqe_test_errors;
	uint64_t deferred_transmissions;
	uint64_t late_collisions;
	uint64_t excessive_collisions;
	uint64_t internal_mac_transmit_errors;
	uint64_t carrier_sense_errors;
	uint64_t frame_too_longs;
	uint64_t internal_mac_receive_errors;
	uint64_t symbol_errors;
};

/* One buffer object (queue, PG, port side, pool, device) as seen by one
 * read window.  alloc_cells is what the BST percentage is computed against
 * (the most the object may hold under the current configuration). */
struct bsf_buf {
	uint64_t cur_cells, cur_bytes;	 /* occupancy now */
	uint64_t peak_cells, peak_bytes; /* peak since this window's last read */
	uint64_t alloc_cells;		 /* allocation at the time of the peak */
	uint64_t peak_time_ns;		 /* Unix-epoch ns of the peak, or BSF_UNKNOWN */
};

struct bsf_port_buffers {
	uint32_t size;			       /* set by the daemon: what it allocated */
	struct bsf_buf ingress_uc, ingress_mc; /* ingress accounting of the port */
	struct bsf_buf egress_uc, egress_mc;   /* egress accounting of the port */
	struct bsf_buf uc[BSF_MAX_QUEUES];     /* n_uc_queues used */
	struct bsf_buf mc[BSF_MAX_QUEUES];     /* n_mc_queues used */
	struct bsf_buf pg_shared[BSF_MAX_PGS]; /* n_pgs used */
	struct bsf_buf pg_headroom[BSF_MAX_PGS];
};

struct bsf_device_buffers {
	uint32_t size; /* set by the daemon: what it allocated */
	struct bsf_buf uc, mc;
	struct bsf_buf ingress_pool[BSF_MAX_POOLS];
	struct bsf_buf egress_pool[BSF_MAX_POOLS];
	struct bsf_buf cpu[BSF_MAX_QUEUES];
};

/* Per-queue delay as seen by one read window (ns; BSF_UNKNOWN if not). */
struct bsf_queue_delay {
	uint64_t nontagged_latest_ns; /* non-tagged: last completed measurement */
	uint64_t nontagged_max_ns;    /* non-tagged: max since this window's last read */
	uint64_t nontagged_count;     /* measurements since this window's last read */
	uint64_t marker_ns;	      /* marker method: current delay */
};

struct bsf_port_delays {
	uint32_t size; /* set by the daemon: what it allocated */
	struct bsf_queue_delay uc[BSF_MAX_QUEUES];
	struct bsf_queue_delay mc[BSF_MAX_QUEUES];
};

/* Where in the pipeline a drop happened (sent as 0:1038 extended_function
 * when the event names no function). */
enum bsf_stage {
	BSF_STAGE_UNKNOWN = 0,
	BSF_STAGE_FORWARDING,
	BSF_STAGE_INGRESS_ADMISSION,
	BSF_STAGE_EGRESS_ADMISSION,
	BSF_STAGE_WRED,
};

enum bsf_event_type {
	BSF_EV_DROP = 1,    /* a dropped packet */
	BSF_EV_SAMPLE = 2,  /* a packet marked for 1-in-N sampling has left */
	BSF_EV_ENQUEUE = 3, /* a packet was admitted to a streamed queue */
	BSF_EV_DEQUEUE = 4, /* a packet finished leaving a streamed queue */
};
#define BSF_EV_NTYPES 5 /* event types are 1..BSF_EV_NTYPES-1 */

/* bsf_event.flags */
enum bsf_event_flag {
	/* The event's queue (out_port, queue, multicast) has its enqueue /
	 * dequeue stream on: pkt_id and tail_id are valid and refer to that
	 * stream.  Always set on BSF_EV_ENQUEUE / BSF_EV_DEQUEUE. */
	BSF_EVF_QUEUE_STREAM = 1u << 0,
	/* Appended within 3: a drop by a flow-based shared-buffer
	 * admission (a buffer region of its own per flow or flow group):
	 * the region_* fields are valid. */
	BSF_EVF_FLOW_REGION = 1u << 1,
};

/*
 * One event.  For BSF_EV_ENQUEUE and BSF_EV_DEQUEUE: out_port, queue and
 * multicast name the queue (multicast = 1: a multicast queue), t_ns is the
 * time of the event (for a dequeue, when the last bit left), depth_bytes
 * the queue's depth just AFTER the event, transit_ns (dequeue) the
 * packet's sojourn in the switch, departure - arrival; in_port, frame_len,
 * tc, copy_id and the header bytes describe the packet.  Start from
 * bsf_event_init() (size set, ports and queue unknown, the rest 0 / "").
 */
struct bsf_event {
	uint32_t size;	      /* sizeof(struct bsf_event) of whoever filled it */
	uint32_t type;	      /* enum bsf_event_type */
	uint32_t reason;      /* drops: sFlow discard reason code; samples: 0,
				 or the reason the sampled packet was then
				 dropped (sent with output format 1) */
	uint32_t stage;	      /* drops: enum bsf_stage */
	uint32_t in_port;     /* port index, or UINT32_MAX unknown */
	uint32_t out_port;    /* port index, UINT32_MAX unknown */
	uint32_t queue;	      /* egress queue, UINT32_MAX unknown */
	uint32_t multicast;   /* 1: replicated to several outputs (queue events:
				 a multicast queue); samples: the number of
				 outputs instead when known and above 1 */
	uint32_t frame_len;   /* original frame length, FCS included */
	uint64_t t_ns;	      /* Unix-epoch ns of the event */
	uint64_t depth_bytes; /* queue depth met at enqueue (samples) or at the
				 drop (drops); after the event (enqueue,
				 dequeue); samples: BSF_UNKNOWN leaves 0:1040
				 out */
	uint64_t transit_ns;  /* samples, dequeues: departure - arrival;
				 samples: BSF_UNKNOWN leaves 0:1039 out */
	uint32_t hdr_len;     /* bytes used in hdr */
	uint8_t hdr[BSF_HDR_MAX];
	uint32_t flags; /* enum bsf_event_flag */
	uint32_t tc;	/* traffic class of the packet (0..7), UINT32_MAX unknown */
	/* pkt_id and tail_id are meaningful only with BSF_EVF_QUEUE_STREAM.
	 * pkt_id (enqueue, dequeue): the packet's number in its queue's
	 * sequence, in enqueue order (the first packet ever admitted to the
	 * queue is 1; the numbering does not restart when a stream is turned
	 * off and on again); a dequeue has the id of its enqueue, and a
	 * queue's dequeues come in id order.  Other events: 0. */
	uint64_t pkt_id;
	/* tail_id (drops with a queue): pkt_id of the last packet admitted
	 * to that queue before the drop (the packet at its tail, or the last
	 * one that left if it is empty), 0 if none ever was; BSF_UNKNOWN if
	 * the backend does not know.  Other events: 0. */
	uint64_t tail_id;
	/* multicast: one non-zero id shared by every copy of a replicated
	 * packet (its enqueues, dequeues, drops and samples on each output),
	 * for duplicate removal; 0 = not a copy, or the backend cannot tell. */
	uint64_t copy_id;
	/* Drops: the function or symbol that dropped the packet, e.g.
	 * "__dev_queue_xmit+0xd01/0xf30" (sent as 0:1038 extended_function
	 * instead of the stage's name); "" unknown.  NUL-terminated. */
	char function[BSF_NAME_MAX];
	/* Drops: the platform's own name of the reason, e.g. the kernel's
	 * "QDISC_DROP" (for logs; reason carries the sFlow code); "" unknown. */
	char reason_name[BSF_NAME_MAX];
	/* Drops by a hardware trap: its group and name (devlink's, the SDK's),
	 * for logs; "" unknown. */
	char trap_group[BSF_NAME_MAX];
	char trap_name[BSF_NAME_MAX];
	/* Samples: this packet was sampled 1-in-N; 0 = at its port's rate
	 * (bsf_port_desc.sampling_rate). */
	uint32_t sampling_rate;
	/* Appended within 3.  Drops with BSF_EVF_FLOW_REGION: the flow
	 * region the packet was classified to; why it was dropped (1 the
	 * region's bound by the admission states, 2 the region's WRED, 3
	 * its short-time change); the unit of the counts (0 bytes, 1
	 * packets); the states the decision saw in hundredths of a percent
	 * of their bounds (the region's, its (ingress port, priority) and
	 * (egress port, priority) counts'; above 10000 past the bound); the
	 * region's count and the regions' bound at the drop.  Sent as the own
	 * flow record flow_region_drop in the 0:5 (bsflowd-structures(7)). */
	uint32_t region, region_cause, region_unit;
	uint32_t region_pc, region_ingress_pc, region_egress_pc;
	uint64_t region_count, region_bound;
};

/* set_queue_events() flags */
#define BSF_QEV_ENQUEUE 1u /* report BSF_EV_ENQUEUE */
#define BSF_QEV_DEQUEUE 2u /* report BSF_EV_DEQUEUE */

/* Opaque handles of the host's timers and fd watches. */
struct bsf_timer;
struct bsf_fd_watch;

/*
 * What the daemon gives a backend (args->host, valid from open() until
 * close() returns).  Each function takes host->arg as its first argument
 * (or a handle it returned).  Threads: see THREADS at the top.
 */
struct bsf_host {
	uint32_t size; /* sizeof(struct bsf_host) of the daemon */
	void *arg;
	/* Log at a syslog priority (LOG_ERR...), printf-style.  Any thread. */
	void (*log)(void *arg, int priority, const char *fmt, ...) BSF_PRINTF_LIKE(3, 4);
	/* A timer calling cb(cbarg) on the loop thread; NULL if out of memory. */
	struct bsf_timer *(*timer_new)(void *arg, void (*cb)(void *cbarg), void *cbarg);
	/* (Re)start it: first call after interval_ns (0: as soon as the loop
	 * runs again), then every interval_ns if periodic.  0, or -1. */
	int (*timer_start)(struct bsf_timer *t, uint64_t interval_ns, int periodic);
	void (*timer_stop)(struct bsf_timer *t);
	void (*timer_free)(struct bsf_timer *t); /* stops it too; NULL is fine */
	/* Call cb(fd, cbarg) on the loop thread whenever fd is readable,
	 * until fd_unwatch; NULL if it cannot. */
	struct bsf_fd_watch *(*fd_watch)(void *arg, int fd, void (*cb)(int fd, void *cbarg),
					 void *cbarg);
	void (*fd_unwatch)(struct bsf_fd_watch *w); /* NULL is fine */
	/* The wall clock, Unix-epoch ns. */
	uint64_t (*now_ns)(void *arg);
	/* The backend's own queue has events: the daemon will call
	 * read_events soon, on the loop thread.  Any thread; on the loop
	 * thread, read_events comes in the same turn of the loop, before any
	 * timer that expires later (a zero-delay one included). */
	void (*events_ready)(void *arg);
	/* Copy n events (ev[i] at (const char *)ev + i * ev[0].size, every one
	 * with the same size) into the daemon's bounded queue and wake the
	 * loop; returns how many were taken (the rest are counted as lost,
	 * per event type, and reported by the daemon).  None is taken between
	 * the backend's device_changed and the return of the daemon's
	 * describe() (DEVICE CHANGES at the top).  Any thread. */
	size_t (*push_events)(void *arg, const struct bsf_event *ev, size_t n);
	/* Appended (test BSF_FITS before use).  Call cb(fd, cbarg) on the
	 * loop thread whenever fd is writable, until fd_unwatch (for a client
	 * library that connects or writes without blocking, e.g. hiredis's
	 * async API); NULL if it cannot.  Loop thread only. */
	struct bsf_fd_watch *(*fd_watch_write)(void *arg, int fd, void (*cb)(int fd, void *cbarg),
					       void *cbarg);
	/* Appended (test BSF_FITS before use).  What describe() returns
	 * will change (see DEVICE CHANGES at the top): the daemon calls
	 * describe() again soon, on a later turn of its loop, and the new
	 * description takes effect with that call; until it has returned,
	 * push_events takes nothing.  Loop thread only. */
	void (*device_changed)(void *arg);
};

/* What open() and check() get, valid during the call only (copy what you
 * keep; host itself lives until close). */
struct bsf_backend_args {
	uint32_t size;		     /* sizeof(struct bsf_backend_args) of the daemon */
	const struct bsf_host *host; /* NULL in check() */
	/* The backend's section of the configuration, as text: what lies
	 * between the braces of `model { }` (or linux, sonic, plugin),
	 * comments included, NUL-terminated; NULL if there is none.
	 * section_line is the line in section_file of its first byte. */
	const char *section_text;
	const char *section_file;
	int section_line;
	/* plugins: "key=value" options from the config, n_options entries */
	const char *const *options;
	size_t n_options;
	const char *config_file; /* the configuration file, for messages */
	/* Packet sampling rates asked for by the agent's configuration
	 * (bsflowd.conf `sampling`), or NULL: the backend keeps its own.  A
	 * backend that samples calls it during open() for each port, with the
	 * port's name and speed, and samples that port 1-in-N of the answer
	 * (0 = not at all); describe() then reports the rates in force.
	 * Valid only during open(). */
	uint32_t (*sampling_rate)(void *arg, const char *port_name, uint64_t speed_bps);
	void *sampling_arg;
	/* Appended (test BSF_FITS before use).  The most dropped-packet
	 * notifications a second the agent sends (bsflowd.conf drops
	 * { limit }), UINT32_MAX unknown: a backend that can limit its drop
	 * reports at the source need not report more. */
	uint32_t drop_limit;
};

/* Own counter records a backend adds to a data source's counters sample
 * (read_own_records): complete sFlow counter records (tag, length, body,
 * in XDR; bsflowd-structures(7)), nrec of them in the len bytes of buf. */
#define BSF_OWN_RECORDS_MAX 1024
#define BSF_PORT_DEVICE	    0xFFFFFFFFu /* read_own_records: the device */
struct bsf_own_records {
	uint32_t size; /* sizeof(struct bsf_own_records) of the daemon */
	uint32_t nrec;
	uint32_t len;
	uint8_t buf[BSF_OWN_RECORDS_MAX];
};

struct bsf_backend_ops {
	uint32_t abi_version; /* BSF_BACKEND_ABI_VERSION (first, as in versions 1-2) */
	uint32_t size;	      /* sizeof(struct bsf_backend_ops) of the backend */
	const char *name;
	/* Open: on failure return NULL and write a message into err. */
	void *(*open)(const struct bsf_backend_args *args, char *err, size_t errlen);
	/* Close: stop the backend's threads (none may call the host after
	 * close returns), free its timers and watches, free everything. */
	void (*close)(void *st);
	/* The device; the pointer stays valid until close, or until the
	 * next describe() after the backend called host->device_changed. */
	const struct bsf_device_desc *(*describe)(void *st);
	/* Each read returns 0, or -1 with a message in err (the agent logs it,
	 * counts it and goes on; the sample is sent with unknown values).
	 * *out comes pre-filled by bsf_*_init(): write what you know. */
	int (*read_counters)(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			     size_t errlen);
	int (*read_port_buffers)(void *st, unsigned window, uint32_t port,
				 struct bsf_port_buffers *out, char *err, size_t errlen);
	int (*read_device_buffers)(void *st, unsigned window, struct bsf_device_buffers *out,
				   char *err, size_t errlen);
	int (*read_delays)(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			   char *err, size_t errlen);
	/* Optional (NULL: the backend pushes): copy up to max queued events
	 * out; returns how many.  ev holds max slots of ev[0].size bytes each,
	 * pre-filled by bsf_event_init(); fill slot i, bsf_event_slot(ev, i),
	 * with bsf_event_copy(). */
	size_t (*read_events)(void *st, struct bsf_event *ev, size_t max);
	/* Optional (NULL if not): per-port packets that could have been
	 * sampled, cumulative; events lost to a full queue, cumulative;
	 * simulation lag behind the wall clock in ns. */
	uint64_t (*sample_pool)(void *st, uint32_t port);
	uint64_t (*event_overflows)(void *st);
	uint64_t (*lag_ns)(void *st);
	/* Optional (NULL if not): drop events (BSF_EV_DROP) lost to a full
	 * queue, cumulative, exact as of the last read_events() that emptied
	 * the queue.  The agent counts them in the drops field of its
	 * dropped-packet notifications. */
	uint64_t (*drop_events_lost)(void *st);
	/* Optional (NULL if not): sampled packets of port (its ingress
	 * port, the data source of their flow samples) whose BSF_EV_SAMPLE
	 * event was lost to a full event queue, cumulative.  The agent adds
	 * them, with the samples it could not send itself, in the drops field
	 * of that port's flow samples. */
	uint64_t (*sample_drops)(void *st, uint32_t port);
	/*
	 * Optional (NULL if not; required with BSF_CAP_QUEUE_EVENTS): turn
	 * the enqueue / dequeue events of one queue on or off.  queue is a
	 * unicast (multicast 0) or multicast (multicast 1) queue of port;
	 * flags is BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE (0 = off, the default
	 * for every queue after open).  Returns 0, or -1 with a message in
	 * err (no such queue, flags not supported).  The streams do not
	 * survive close(): after reopening a backend, ask again.
	 *
	 * Cost: one event per packet and direction on each streamed queue,
	 * on top of drops and samples (2 x its packet rate), so the agent
	 * asks only for the queues its monitors watch.  The events go into
	 * the same bounded queue as the others: a backend should pace itself
	 * (or size its queue) so that a reader keeping up loses none; the
	 * model backend runs its clock in steps the event queue can hold and
	 * falls behind the wall clock (lag_ns) rather than lose one.  When
	 * the stream is turned on, the queue may hold packets admitted
	 * before: their dequeues come with ids below the first enqueue seen.
	 */
	int (*set_queue_events)(void *st, uint32_t port, uint32_t queue, uint32_t multicast,
				uint32_t flags, char *err, size_t errlen);
	/*
	 * Optional (NULL if not): events lost to a full event queue while a
	 * queue stream was on, cumulative (all of event_overflows since then
	 * for a backend that cannot tell which queue's events it lost: it is
	 * at least every lost BSF_EV_ENQUEUE, BSF_EV_DEQUEUE and drop of a
	 * streamed queue).  When it grows, the streams have a gap: the
	 * agent drops what it derived from them (a forensics snapshot in
	 * progress, packet counts) and starts again from the next events.
	 * A full queue loses the newest events, so the gap lies after the
	 * events still queued when the count grew.
	 */
	uint64_t (*queue_events_lost)(void *st);
	/*
	 * Optional (NULL if not): parse and validate args' section with no
	 * side effects (no socket opened, nothing installed, args->host
	 * NULL) and write into report a human-readable summary of what open()
	 * would use (for `bsflowd -t`).  0, or -1 with a message in err
	 * ("FILE:LINE: name: key = value: problem").
	 */
	int (*check)(const struct bsf_backend_args *args, char *report, size_t reportlen, char *err,
		     size_t errlen);
	/* Optional (NULL if not; required with BSF_CAP_ETH_COUNTERS): the
	 * port's 0:2 Ethernet counters.  0, or -1 with a message. */
	int (*read_eth_counters)(void *st, uint32_t port, struct bsf_eth_counters *out, char *err,
				 size_t errlen);
	/*
	 * Optional (NULL if not; appended, so older backends leave it NULL):
	 * own counter records of the backend's beyond the buffer ones (the
	 * model's ingress arbitration E:8 and flow regions E:9), for port
	 * (0..nports-1) or the device (BSF_PORT_DEVICE), tagged with the
	 * given own enterprise, peaks closed for window as read_port_buffers
	 * does.  Returns 0 (out->nrec 0: none for this data source), or -1
	 * with a message in err.  The agent appends them to the data
	 * source's counters sample after its own records, and leaves them
	 * out first when the sample does not fit.
	 */
	int (*read_own_records)(void *st, unsigned window, uint32_t port, uint32_t enterprise,
				struct bsf_own_records *out, char *err, size_t errlen);
	/* Appended.  Optional (NULL if not): log the backend's own status
	 * lines through host->log, with the daemon's (SIGUSR1, exit). */
	void (*log_status)(void *st);
};

/* ---- helpers, for the daemon and backends alike ---- */

/* An out-struct as the daemon passes it: every value unknown, size set. */
static inline void bsf_if_counters_init(struct bsf_if_counters *c)
{
	memset(c, 0xff, sizeof *c);
	c->size = (uint32_t)sizeof *c;
}

static inline void bsf_eth_counters_init(struct bsf_eth_counters *c)
{
	memset(c, 0xff, sizeof *c);
	c->size = (uint32_t)sizeof *c;
}

static inline void bsf_port_buffers_init(struct bsf_port_buffers *b)
{
	memset(b, 0xff, sizeof *b);
	b->size = (uint32_t)sizeof *b;
}

static inline void bsf_device_buffers_init(struct bsf_device_buffers *b)
{
	memset(b, 0xff, sizeof *b);
	b->size = (uint32_t)sizeof *b;
}

static inline void bsf_port_delays_init(struct bsf_port_delays *d)
{
	memset(d, 0xff, sizeof *d);
	d->size = (uint32_t)sizeof *d;
}

/* An event with nothing known: ports, queue and tc UINT32_MAX, the rest
 * 0 / "", size set. */
static inline void bsf_event_init(struct bsf_event *e)
{
	memset(e, 0, sizeof *e);
	e->size = (uint32_t)sizeof *e;
	e->in_port = e->out_port = e->queue = e->tc = UINT32_MAX;
}

/* Slot i of an event array whose slots are ev[0].size bytes each. */
static inline struct bsf_event *bsf_event_slot(struct bsf_event *ev, size_t i)
{
	return (struct bsf_event *)(void *)((char *)ev + i * ev->size);
}

/* Copy src into the slot dst (pre-filled, dst->size set by its owner):
 * the fields both layouts have; dst keeps its size. */
static inline void bsf_event_copy(struct bsf_event *dst, const struct bsf_event *src)
{
	uint32_t dsize = dst->size;
	size_t n = src->size < dsize ? src->size : dsize;

	memcpy(dst, src, n);
	dst->size = dsize;
}

/* The symbol a plugin exports. */
typedef const struct bsf_backend_ops *(*bsf_backend_entry_fn)(void);
#define BSF_BACKEND_ENTRY "bsf_backend_entry"

#ifdef __cplusplus
}
#endif

#endif
