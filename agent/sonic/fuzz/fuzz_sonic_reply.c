/*
 * fuzz_sonic_reply.c - libFuzzer target for the sonic backend's reply
 * parser: the input is RESP as Redis would send it (read by hiredis's own
 * reader), each reply goes through the counter reader, the reader of a
 * CONFIG GET notify-keyspace-events reply and, as a table chosen by the
 * first input byte, through the tables; the device is built from what
 * was taken (drop counters and their reasons included); every string of
 * the replies goes through the key, binding, reference and drop reason
 * readers; and the whole input, as text, through the
 * database_config.json reader.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "agent/sonic/sonic_conf.h"
#include "agent/sonic/sonic_drops.h"
#include "agent/sonic/sonic_maps.h"
#include "agent/sonic/sonic_notify.h"
#include "agent/sonic/sonic_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether data declares an array of more than 65536 elements: hiredis
 * 0.14's reader (which trusts its server, and has no limit of its own)
 * would allocate them all before anything of ours runs. */
static int huge_array(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		unsigned long n = 0;
		size_t k = i + 1;

		if (data[i] != '*')
			continue;
		while (k < size && data[k] >= '0' && data[k] <= '9' && n <= 65536)
			n = n * 10 + (unsigned long)(data[k++] - '0');
		if (n > 65536)
			return 1;
	}
	return 0;
}

static void strings(const redisReply *r, int depth)
{
	char a[128], b[256];
	unsigned lo, hi;
	uint64_t v;
	int k;

	if (!r || depth > 8)
		return;
	sonic_reply_u64(r, &v);
	if (sonic_notify_config_reply(r, b, sizeof b) == 0)
		sonic_notify_flags_ok(b);
	if (r->type == REDIS_REPLY_STRING && !memchr(r->str, '\0', r->len)) {
		sonic_drop_reason_code(r->str);
		sonic_parse_obj_key(r->str, a, sizeof a, &lo);
		sonic_parse_binding(r->str, b, sizeof b, &lo, &hi);
		sonic_list_has(r->str, "Ethernet0");
		sonic_parse_ref(r->str, a, sizeof a);
		sonic_parse_small_int(r->str, &k);
	}
	if (r->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->elements; i++)
			strings(r->element[i], depth + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sonic_tables t;
	struct sonic_conf c;
	struct sonic_dev d;
	redisReader *rd;
	void *reply;
	char *text, err[200];
	unsigned n = 0;

	if (size < 1 || huge_array(data, size))
		return 0;
	memset(&t, 0, sizeof t);
	rd = redisReaderCreate();
	if (!rd)
		return 0;
	redisReaderFeed(rd, (const char *)data + 1, size - 1);
	while (n < 64 && redisReaderGetReply(rd, &reply) == REDIS_OK && reply) {
		enum sonic_table tab = (enum sonic_table)((data[0] + n) % SONIC_T_N);
		const redisReply *r = reply;

		strings(r, 0);
		if (tab < SONIC_T_FIRST_MAP && (data[0] & 0x80) == 0)
			sonic_tables_add_keys(&t, tab, r);
		else
			sonic_tables_set_fields(&t, tab, n % 4, r);
		freeReplyObject(reply);
		n++;
	}
	redisReaderFree(rd);
	if (sonic_dev_build(&d, &t, "*", data[0] & 3, NULL, NULL) == 0)
		sonic_dev_free(&d);
	sonic_tables_free(&t);

	text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
		if (sonic_conf_parse(NULL, "fuzz", 1, &c, err, sizeof err) == 0)
			sonic_conf_apply_json(&c, text, err, sizeof err);
		free(text);
	}
	return 0;
}
