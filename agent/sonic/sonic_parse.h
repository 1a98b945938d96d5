/*
 * sonic_parse.h - reading SONiC's Redis values: counter fields (decimal
 * strings), the keys of the name maps ("Ethernet0:3"), the keys of the
 * BUFFER_QUEUE / BUFFER_PG bindings ("Ethernet0,Ethernet4|0-2"), profile
 * and pool references ("[BUFFER_PROFILE|x]" or "x"), and the allocation a
 * buffer profile gives one queue or PG.  No I/O: the fuzz target and the
 * unit tests call these directly.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_PARSE_H
#define BSFLOWD_AGENT_SONIC_PARSE_H

#include <stddef.h>
#include <stdint.h>

struct redisReply;

#define SONIC_UNKNOWN UINT64_MAX

/* A reply that should hold a counter (a bulk string of decimal digits, or
 * an integer): 0 with *out; 1 if nil (absent: *out unknown); -1 if it is
 * anything else (*out unknown). */
int sonic_reply_u64(const struct redisReply *r, uint64_t *out);

/* A decimal string of at most 20 digits that fits 64 bits: 0, or -1. */
int sonic_parse_u64(const char *s, size_t len, uint64_t *out);

/* A signed decimal in -64..64 (dynamic_th): 0, or -1. */
int sonic_parse_small_int(const char *s, int *out);

/* "NAME:N" of a queue or PG name map: NAME into name, N into *idx.  0, or
 * -1 (no colon, N not a number below 4096, NAME too long). */
int sonic_parse_obj_key(const char *key, char *name, size_t size, unsigned *idx);

/* A binding key after its table prefix, "PORTS|A-B" or "PORTS|N"
 * (CONFIG_DB), "PORTS:A-B" (APPL_DB): the ports list (comma-separated,
 * copied into ports) and the range.  0, or -1. */
int sonic_parse_binding(const char *key, char *ports, size_t size, unsigned *lo, unsigned *hi);

/* Whether port is one of the comma-separated names of list. */
int sonic_list_has(const char *list, const char *port);

/* A reference "[TABLE|name]", "TABLE|name", "[TABLE:name]" (APPL_DB),
 * "TABLE:name" or "name": the name into out.  0, or -1 (empty, too
 * long). */
int sonic_parse_ref(const char *ref, char *out, size_t size);

/* The allocation in bytes of one queue or PG under a profile:
 * static_th (bytes) if not SONIC_UNKNOWN, else with dynamic_th = k
 * (alpha = 2^k) the most one queue can hold when it is alone in a pool of
 * pool_size bytes, alpha / (1 + alpha) x pool_size, rounded down (an
 * approximation: the threshold falls as the pool fills).  SONIC_UNKNOWN
 * when what it needs is unknown (have_dyn 0 and no static_th, or the pool
 * size unknown); k outside -20..20: unknown. */
uint64_t sonic_alloc_bytes(uint64_t static_th, int have_dyn, int dyn_th, uint64_t pool_size);

#endif
