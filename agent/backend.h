/*
 * backend.h - the interface between bsflowd and a switch backend.
 *
 * This is the only header a backend includes (it is installed as
 * <bsflowd/backend.h> so a vendor can build a plugin .so for an ASIC SDK
 * without the bsflowd sources).  A backend is a table of functions plus an
 * opaque state pointer; it declares what it can report (capability bits)
 * and the agent never guesses: whatever a backend cannot say is reported
 * as BSF_UNKNOWN and goes on the wire as "unknown" (-1 / all ones).
 *
 * Built-in backends (model, later linux) are linked in; a plugin is a
 * shared object exporting
 *
 *	const struct bsf_backend_ops *bsf_backend_entry(void);
 *
 * whose abi_version must equal BSF_BACKEND_ABI_VERSION, or the daemon
 * refuses it with a message naming both versions.  Version 2 added the
 * optional ops drop_events_lost and sample_drops, the sampling_rate
 * callback of bsf_backend_args, and per-queue packet events (below).
 *
 * Peaks are per read window: each reader (the sFlow export, the status
 * dump, ...) passes its own window number 0..BSF_WINDOWS-1, and a read
 * returns and restarts only that window's peaks, so no reader clears
 * another's.  Ports are named by index 0..nports-1 in calls; the wire uses
 * their ifIndex.
 *
 * Per-queue packet events (version 2, BSF_CAP_QUEUE_EVENTS): for the
 * queues the agent asks with set_queue_events(), the backend reports
 * every packet admitted to the queue (BSF_EV_ENQUEUE) and every packet
 * that left it (BSF_EV_DEQUEUE), each with the queue's own packet id, so
 * that the agent's visibility monitors (queue forensics after a drop,
 * high delay on each departure, congestion thresholds) see the queue as
 * it is rather than a 1-in-N sample.  A streamed queue's drops carry the
 * id of the packet at its tail (tail_id).  These events share the
 * backend's bounded event queue with drops and samples.
 */
#ifndef BSFLOWD_BACKEND_H
#define BSFLOWD_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#define BSF_BACKEND_ABI_VERSION 2u

#define BSF_UNKNOWN    UINT64_MAX /* any 64-bit value a backend cannot supply */
#define BSF_WINDOWS    4	  /* independent peak read windows */
#define BSF_MAX_QUEUES 16	  /* unicast / multicast queues per port */
#define BSF_MAX_PGS    8
#define BSF_MAX_POOLS  4
#define BSF_HDR_MAX    128 /* header bytes carried by an event */
#define BSF_NAME_MAX   64

/* Capability bits (bsf_device_desc.caps) */
enum bsf_cap {
	BSF_CAP_IF_COUNTERS = 1u << 0,	   /* read_counters */
	BSF_CAP_BUFFERS = 1u << 1,	   /* read_port_buffers / read_device_buffers */
	BSF_CAP_BUFFER_BYTES = 1u << 2,	   /* occupancy also in bytes, not only cells */
	BSF_CAP_PEAK_TIME = 1u << 3,	   /* time of peak */
	BSF_CAP_PGS = 1u << 4,		   /* priority-group shared/headroom peaks */
	BSF_CAP_POOLS = 1u << 5,	   /* service pools */
	BSF_CAP_CPU_QUEUES = 1u << 6,	   /* CPU port queues */
	BSF_CAP_DELAY_NONTAGGED = 1u << 7, /* seed 004 per-queue latency */
	BSF_CAP_DELAY_MARKER = 1u << 8,	   /* seed 000 marker queue delay */
	BSF_CAP_DROP_EVENTS = 1u << 9,	   /* events of type BSF_EV_DROP */
	BSF_CAP_SAMPLE_EVENTS = 1u << 10,  /* events of type BSF_EV_SAMPLE */
	BSF_CAP_MODEL_CLOCK = 1u << 11,	   /* a simulation: reports lag */
	BSF_CAP_QUEUE_EVENTS = 1u << 12,   /* BSF_EV_ENQUEUE / BSF_EV_DEQUEUE for the
					      queues asked with set_queue_events */
};

struct bsf_port_desc {
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
	uint64_t in_octets, in_ucast, in_mcast, in_bcast, in_discards, in_errors, in_unknown_protos;
	uint64_t out_octets, out_ucast, out_mcast, out_bcast, out_discards, out_errors;
	uint64_t speed_bps;
	uint32_t admin_up, oper_up; /* 0/1 */
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
	struct bsf_buf ingress_uc, ingress_mc; /* ingress accounting of the port */
	struct bsf_buf egress_uc, egress_mc;   /* egress accounting of the port */
	struct bsf_buf uc[BSF_MAX_QUEUES];     /* n_uc_queues used */
	struct bsf_buf mc[BSF_MAX_QUEUES];     /* n_mc_queues used */
	struct bsf_buf pg_shared[BSF_MAX_PGS]; /* n_pgs used */
	struct bsf_buf pg_headroom[BSF_MAX_PGS];
};

struct bsf_device_buffers {
	struct bsf_buf uc, mc;
	struct bsf_buf ingress_pool[BSF_MAX_POOLS];
	struct bsf_buf egress_pool[BSF_MAX_POOLS];
	struct bsf_buf cpu[BSF_MAX_QUEUES];
};

/* Per-queue delay as seen by one read window (ns; BSF_UNKNOWN if not). */
struct bsf_queue_delay {
	uint64_t nontagged_latest_ns; /* seed 004: last completed measurement */
	uint64_t nontagged_max_ns;    /* seed 004: max since this window's last read */
	uint64_t nontagged_count;     /* measurements since this window's last read */
	uint64_t marker_ns;	      /* seed 000: current marker delay */
};

struct bsf_port_delays {
	struct bsf_queue_delay uc[BSF_MAX_QUEUES];
	struct bsf_queue_delay mc[BSF_MAX_QUEUES];
};

/* Where in the pipeline a drop happened (sent as 0:1038 extended_function). */
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

/* bsf_event.flags */
enum bsf_event_flag {
	/* The event's queue (out_port, queue, multicast) has its enqueue /
	 * dequeue stream on: pkt_id and tail_id are valid and refer to that
	 * stream.  Always set on BSF_EV_ENQUEUE / BSF_EV_DEQUEUE. */
	BSF_EVF_QUEUE_STREAM = 1u << 0,
};

/*
 * One event.  The fields up to hdr are those of version 1, with the same
 * meaning for drops and samples; the fields after it are new in version 2.
 * For BSF_EV_ENQUEUE and BSF_EV_DEQUEUE: out_port, queue and multicast
 * name the queue (multicast = 1: a multicast queue), t_ns is the time of
 * the event (for a dequeue, when the last bit left), depth_bytes the
 * queue's depth just AFTER the event, transit_ns (dequeue) the packet's
 * sojourn in the switch, departure - arrival; in_port, frame_len, tc,
 * copy_id and the header bytes describe the packet.
 */
struct bsf_event {
	uint32_t type;	      /* enum bsf_event_type */
	uint32_t reason;      /* drops: sFlow discard reason code */
	uint32_t stage;	      /* drops: enum bsf_stage */
	uint32_t in_port;     /* port index, or UINT32_MAX unknown */
	uint32_t out_port;    /* port index, UINT32_MAX unknown */
	uint32_t queue;	      /* egress queue, UINT32_MAX unknown */
	uint32_t multicast;   /* 1: replicated to several outputs (queue events:
				 a multicast queue) */
	uint32_t frame_len;   /* original frame length, FCS included */
	uint64_t t_ns;	      /* Unix-epoch ns of the event */
	uint64_t depth_bytes; /* queue depth met at enqueue (samples) or at the
				 drop (drops); after the event (enqueue,
				 dequeue) */
	uint64_t transit_ns;  /* samples, dequeues: departure - arrival */
	uint32_t hdr_len;     /* bytes used in hdr */
	uint8_t hdr[BSF_HDR_MAX];
	/* ---- version 2 ---- */
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
};

/* set_queue_events() flags */
#define BSF_QEV_ENQUEUE 1u /* report BSF_EV_ENQUEUE */
#define BSF_QEV_DEQUEUE 2u /* report BSF_EV_DEQUEUE */

/* What the agent gives a backend. */
struct bsf_host {
	/* log at a syslog priority (LOG_ERR...), printf-style */
	void (*log)(void *arg, int priority, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
	/* the backend has queued events: the agent will call read_events */
	void (*events_ready)(void *arg);
	void *arg;
};

struct bsf_backend_args {
	struct event_base *base; /* the agent's libevent loop, for timers and fds */
	const struct bsf_host *host;
	/* built-in backends: their libconfuse section (cfg_t *), may be NULL */
	void *cfg_section;
	/* plugins: "key=value" options from the config, n_options entries */
	const char *const *options;
	size_t n_options;
	const char *config_file; /* for messages */
	/* Packet sampling rates asked for by the agent's configuration
	 * (bsflowd.conf `sampling`), or NULL: the backend keeps its own.  A
	 * backend that samples calls it during open() for each port, with the
	 * port's name and speed, and samples that port 1-in-N of the answer
	 * (0 = not at all); describe() then reports the rates in force.
	 * Valid only during open(). */
	uint32_t (*sampling_rate)(void *arg, const char *port_name, uint64_t speed_bps);
	void *sampling_arg;
};

/* Own counter records a backend adds to a data source's counters sample
 * (read_own_records): complete sFlow counter records (tag, length, body,
 * in XDR; bsflowd-structures(7)), nrec of them in the len bytes of buf. */
#define BSF_OWN_RECORDS_MAX 1024
#define BSF_PORT_DEVICE	    0xFFFFFFFFu /* read_own_records: the device */
struct bsf_own_records {
	uint32_t nrec;
	uint32_t len;
	uint8_t buf[BSF_OWN_RECORDS_MAX];
};

struct bsf_backend_ops {
	uint32_t abi_version; /* BSF_BACKEND_ABI_VERSION */
	const char *name;
	/* Open: on failure return NULL and write a message into err. */
	void *(*open)(const struct bsf_backend_args *args, char *err, size_t errlen);
	void (*close)(void *st);
	const struct bsf_device_desc *(*describe)(void *st);
	/* Each read returns 0, or -1 with a message in err (the agent logs it,
	 * counts it and goes on; the sample is sent with unknown values). */
	int (*read_counters)(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			     size_t errlen);
	int (*read_port_buffers)(void *st, unsigned window, uint32_t port,
				 struct bsf_port_buffers *out, char *err, size_t errlen);
	int (*read_device_buffers)(void *st, unsigned window, struct bsf_device_buffers *out,
				   char *err, size_t errlen);
	int (*read_delays)(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			   char *err, size_t errlen);
	/* Copy up to max queued events out; returns how many. */
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
};

/* The symbol a plugin exports. */
typedef const struct bsf_backend_ops *(*bsf_backend_entry_fn)(void);
#define BSF_BACKEND_ENTRY "bsf_backend_entry"

#endif
