/*
 * linuxbe.h - the linux backend's internal interface: what each source's
 * parser makes of a netlink message (plain structs, no I/O), the reason
 * table, the peak windows and the netlink socket helpers.
 *
 * Every parser is a pure function from the bytes of one netlink message to
 * a struct, so the unit tests feed it messages hand-built from the kernel's
 * UAPI attribute definitions.  A parser returns 0, or -1 with a message in
 * err for a malformed or truncated message (never reads past len).  What a
 * message does not carry is BSF_UNKNOWN (64-bit), UINT32_MAX (32-bit) or ""
 * (strings).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUXBE_H
#define BSFLOWD_LINUXBE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"

struct nlmsghdr;
struct nlattr;

/* ---- attribute tables (attr.c) ---- */

/* Fill tb[0..max] with the attributes in buf[0..len) (the last of a type
 * wins; types above max are skipped).  -1 + err if an attribute header is
 * short, claims more bytes than remain, or bytes are left over. */
int linuxbe_attr_table(const void *buf, size_t len, const struct nlattr **tb, unsigned max,
		       char *err, size_t errlen);
/* The attributes after a message's fixed header of hdrlen bytes. */
int linuxbe_msg_table(const struct nlmsghdr *nlh, size_t len, size_t hdrlen,
		      const struct nlattr **tb, unsigned max, char *err, size_t errlen);
/* Typed reads: 0, or -1 + err when the payload is shorter than the type
 * ("what" names the attribute in the message). */
int linuxbe_attr_u8(const struct nlattr *a, uint8_t *v, const char *what, char *err, size_t errlen);
int linuxbe_attr_u16(const struct nlattr *a, uint16_t *v, const char *what, char *err,
		     size_t errlen);
int linuxbe_attr_u32(const struct nlattr *a, uint32_t *v, const char *what, char *err,
		     size_t errlen);
int linuxbe_attr_u64(const struct nlattr *a, uint64_t *v, const char *what, char *err,
		     size_t errlen);
/* A string attribute copied into dst (NUL-terminated, truncated to dstlen). */
void linuxbe_attr_str(const struct nlattr *a, char *dst, size_t dstlen);

/* ---- link (link.c): RTM_NEWLINK ---- */
struct linuxbe_link {
	uint32_t ifindex;
	char name[BSF_NAME_MAX];
	uint32_t flags;	    /* ifi_flags (IFF_UP, IFF_LOOPBACK...) */
	uint32_t operstate; /* IF_OPER_*, UINT32_MAX unknown */
	uint32_t txqlen;    /* UINT32_MAX unknown */
	uint16_t type;	    /* ARPHRD_* */
	int has_stats;
	int switchdev; /* IFLA_PHYS_SWITCH_ID present */
	char kind[16]; /* IFLA_LINKINFO / IFLA_INFO_KIND, "" for none */
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped,
	    tx_dropped, multicast, rx_missed_errors, rx_nohandler;
};
int linuxbe_link_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_link *out, char *err,
		       size_t errlen);

/* ---- qdisc (qdisc.c): RTM_NEWQDISC / RTM_NEWTCLASS ---- */
enum linuxbe_limit_unit { LINUXBE_LIMIT_NONE = 0, LINUXBE_LIMIT_BYTES, LINUXBE_LIMIT_PACKETS };
struct linuxbe_tc {
	int is_class;
	uint32_t ifindex, handle, parent;
	char kind[16];
	int has_queue; /* TCA_STATS_QUEUE present */
	uint32_t qlen, backlog, drops, requeues, overlimits;
	uint64_t bytes, packets; /* BSF_UNKNOWN if absent */
	uint32_t limit;		 /* from TCA_OPTIONS, UINT32_MAX unknown */
	uint32_t limit_unit;	 /* enum linuxbe_limit_unit */
	uint64_t delay_ns;	 /* codel/pie sojourn from xstats, BSF_UNKNOWN */
};
int linuxbe_tc_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_tc *out, char *err,
		     size_t errlen);

/* ---- drop monitor (dropmon.c): NET_DM_CMD_PACKET_ALERT ---- */
struct linuxbe_drop {
	uint32_t origin; /* NET_DM_ORIGIN_SW / _HW */
	char reason[BSF_NAME_MAX];
	char symbol[BSF_NAME_MAX];
	char trap_group[BSF_NAME_MAX];
	char trap_name[BSF_NAME_MAX];
	uint32_t in_ifindex; /* UINT32_MAX unknown */
	uint64_t t_ns;	     /* BSF_UNKNOWN */
	uint32_t orig_len;   /* UINT32_MAX unknown */
	uint32_t proto;	     /* UINT32_MAX unknown */
	const uint8_t *payload;
	uint32_t payload_len;
};
int linuxbe_dropmon_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_drop *out,
			  char *err, size_t errlen);
/* NET_DM_CMD_STATS_NEW: alerts the kernel dropped (sw + hw), cumulative. */
int linuxbe_dropmon_stats_parse(const struct nlmsghdr *nlh, size_t len, uint64_t *dropped,
				char *err, size_t errlen);

/* ---- psample (psample.c): PSAMPLE_CMD_SAMPLE ---- */
struct linuxbe_sample {
	uint32_t iifindex, oifindex; /* u16 on the wire; UINT32_MAX unknown */
	uint32_t group, seq;	     /* seq valid if has_seq */
	int has_seq;
	uint32_t rate; /* 1-in-N, converted from a probability if flagged */
	int probability;
	uint32_t orig_size;		       /* UINT32_MAX unknown */
	uint32_t out_tc;		       /* UINT32_MAX unknown */
	uint64_t out_tc_occ, latency_ns, t_ns; /* BSF_UNKNOWN */
	uint32_t proto;
	const uint8_t *data;
	uint32_t data_len;
};
int linuxbe_psample_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_sample *out,
			  char *err, size_t errlen);

/* ---- devlink shared buffer (sb.c) ---- */
struct linuxbe_sb_rec {
	uint8_t cmd; /* DEVLINK_CMD_SB_NEW, _SB_POOL_NEW, _SB_PORT_POOL_NEW,
			_SB_TC_POOL_BIND_NEW, _PORT_NEW */
	char bus[32], dev[64];
	uint32_t sb_index, port_index;	     /* UINT32_MAX unknown */
	uint32_t pool_index, tc_index;	     /* UINT32_MAX unknown */
	uint32_t pool_type;		     /* DEVLINK_SB_POOL_TYPE_*, UINT32_MAX */
	uint32_t size, cell_size, threshold; /* UINT32_MAX unknown */
	uint32_t threshold_type;	     /* DEVLINK_SB_THRESHOLD_TYPE_*, UINT32_MAX */
	uint32_t ingress_pools, egress_pools, ingress_tcs, egress_tcs;
	uint64_t occ_cur, occ_max;	  /* bytes on mlxsw; BSF_UNKNOWN if absent */
	uint32_t netdev_ifindex, flavour; /* PORT_NEW; UINT32_MAX unknown */
};
int linuxbe_sb_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_sb_rec *out, char *err,
		     size_t errlen);
/* The allocation a queue or PG may reach: a static threshold in bytes, or
 * for a dynamic threshold th (alpha = 2^(th-10)) the most a lone queue can
 * take, alpha / (1 + alpha) x pool_bytes.  BSF_UNKNOWN if not known. */
uint64_t linuxbe_sb_alloc_bytes(uint32_t threshold_type, uint32_t threshold, uint64_t pool_bytes);

/* ---- reasons (reasons.c) ---- */
struct linuxbe_reason {
	const char *name; /* kernel reason or devlink trap / group name */
	uint32_t code;	  /* sFlow discard reason */
	uint32_t stage;	  /* enum bsf_stage */
};
/* The built-in tables: software reasons, hardware trap names, trap groups. */
extern const struct linuxbe_reason linuxbe_sw_reasons[];
extern const size_t linuxbe_n_sw_reasons;
extern const struct linuxbe_reason linuxbe_hw_traps[];
extern const size_t linuxbe_n_hw_traps;
extern const struct linuxbe_reason linuxbe_hw_groups[];
extern const size_t linuxbe_n_hw_groups;
/* The sFlow code and stage of a drop: by reason string (sw), else trap
 * name, then trap group (hw); else 256 unknown.  Matching is by string
 * only. */
void linuxbe_reason_lookup(const char *reason, const char *trap_group, const char *trap_name,
			   uint32_t *code, uint32_t *stage);

/* ---- peak windows (peaks.c) ---- */
struct linuxbe_peak {
	uint64_t cur;
	uint64_t peak[BSF_WINDOWS];
	uint64_t peak_t[BSF_WINDOWS];
	uint64_t alloc_at_peak[BSF_WINDOWS];
	int valid; /* a reading was folded since open */
};
/* Fold one reading (value at time t with allocation alloc) into every
 * window. */
void linuxbe_peak_fold(struct linuxbe_peak *p, uint64_t v, uint64_t alloc, uint64_t t_ns);
/* Fill a bsf_buf from window w and restart that window at the current
 * value; unit_bytes: the value is bytes (else packets: cells unknown).
 * An object never read stays all BSF_UNKNOWN. */
void linuxbe_peak_take(struct linuxbe_peak *p, unsigned w, struct bsf_buf *out, uint64_t alloc,
		       int unit_bytes);

/* ---- u32 wrap (qdisc counters are 32-bit) ---- */
struct linuxbe_wrap {
	uint32_t last;
	uint64_t total;
	int seen;
};
uint64_t linuxbe_wrap_add(struct linuxbe_wrap *w, uint32_t now);

#endif
