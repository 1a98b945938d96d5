/*
 * output.c - the two output shapes of bsflow-collect (see output.h):
 * sflowtool-style "key value" text lines, or one JSON object per datagram
 * per line.  Only this file knows the difference.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "collector/output.h"

void collect_out_init(struct collect_out *o, enum collect_fmt fmt, FILE *fp)
{
	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	o->fp = fp;
	o->own_enterprise = SFLOW_ENT_OWN_DEFAULT;
}

void collect_out_set_prefix(struct collect_out *o, const char *prefix)
{
	if (!prefix)
		prefix = "";
	snprintf(o->prefix, sizeof(o->prefix), "%s", prefix);
}

static struct collect_out_level *cur(struct collect_out *o)
{
	if (o->depth == 0)
		return NULL;
	return &o->lv[o->depth - 1];
}

/* JSON: print a string with escapes; bytes >= 0x80 are taken as Latin-1
 * code points so the output is always valid UTF-8. */
static void json_string(FILE *fp, const char *s, size_t n)
{
	putc('"', fp);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(fp, "\\u%04x", (unsigned)c);
			else
				putc(c, fp);
		}
	}
	putc('"', fp);
}

/* Text: printable ASCII as is, anything else (including space-breaking
 * control characters) as \xNN so one field stays on one line. */
static void text_string(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '\\')
			fprintf(fp, "\\x%02x", (unsigned)c);
		else
			putc(c, fp);
	}
}

/*
 * Start one item: in JSON the separating comma and the "key": part; in
 * text the "key " part (with the array key and index for keyless items).
 * Returns 0 if the item must not be printed (nesting overflow).
 */
static int item_begin(struct collect_out *o, const char *key)
{
	struct collect_out_level *l = cur(o);

	if (o->overflow)
		return 0;
	if (o->fmt == COLLECT_FMT_JSON) {
		if (l) {
			if (l->count > 0)
				putc(',', o->fp);
			l->count++;
		}
		if (key && !(l && l->is_array)) {
			putc('"', o->fp);
			fputs(o->prefix, o->fp);
			fputs(key, o->fp);
			fputs("\":", o->fp);
		}
		return 1;
	}
	/* text */
	if (l)
		l->count++;
	if (key)
		fprintf(o->fp, "%s%s ", o->prefix, key);
	else if (l && l->is_array)
		fprintf(o->fp, "%s%s.%d ", o->prefix, l->key, l->count - 1);
	else
		fputs("value ", o->fp);
	return 1;
}

static void item_end(struct collect_out *o)
{
	if (o->fmt == COLLECT_FMT_TEXT)
		putc('\n', o->fp);
}

static void container_begin(struct collect_out *o, const char *key, int is_array)
{
	struct collect_out_level *l;

	if (o->overflow || o->depth >= COLLECT_OUT_MAXDEPTH) {
		o->overflow++;
		return;
	}
	if (o->fmt == COLLECT_FMT_JSON) {
		item_begin(o, key);
		putc(is_array ? '[' : '{', o->fp);
	} else if ((l = cur(o)) != NULL) {
		l->count++;
	}
	l = &o->lv[o->depth++];
	l->is_array = is_array;
	l->count = 0;
	snprintf(l->key, sizeof(l->key), "%s", key ? key : "");
}

static void container_end(struct collect_out *o, int is_array)
{
	if (o->overflow) {
		o->overflow--;
		return;
	}
	if (o->depth == 0)
		return;
	o->depth--;
	if (o->fmt == COLLECT_FMT_JSON)
		putc(is_array ? ']' : '}', o->fp);
}

void collect_out_begin_datagram(struct collect_out *o)
{
	o->depth = 0;
	o->overflow = 0;
	o->prefix[0] = '\0';
	if (o->fmt == COLLECT_FMT_TEXT)
		fputs("startDatagram =================================\n", o->fp);
	container_begin(o, NULL, 0);
}

void collect_out_end_datagram(struct collect_out *o)
{
	while (o->depth > 1)
		container_end(o, o->lv[o->depth - 1].is_array);
	container_end(o, 0);
	o->prefix[0] = '\0';
	if (o->fmt == COLLECT_FMT_TEXT)
		fputs("endDatagram   =================================\n", o->fp);
	else
		putc('\n', o->fp);
	fflush(o->fp);
}

void collect_out_begin_object(struct collect_out *o, const char *key)
{
	container_begin(o, key, 0);
}

void collect_out_end_object(struct collect_out *o)
{
	container_end(o, 0);
}

void collect_out_begin_array(struct collect_out *o, const char *key)
{
	container_begin(o, key, 1);
}

void collect_out_end_array(struct collect_out *o)
{
	container_end(o, 1);
}

void collect_out_text(struct collect_out *o, const char *line)
{
	if (o->fmt == COLLECT_FMT_TEXT && !o->overflow)
		fprintf(o->fp, "%s\n", line);
}

void collect_out_u32(struct collect_out *o, const char *key, uint32_t v)
{
	if (!item_begin(o, key))
		return;
	fprintf(o->fp, "%" PRIu32, v);
	item_end(o);
}

void collect_out_u64(struct collect_out *o, const char *key, uint64_t v)
{
	if (!item_begin(o, key))
		return;
	fprintf(o->fp, "%" PRIu64, v);
	item_end(o);
}

void collect_out_i64(struct collect_out *o, const char *key, int64_t v)
{
	if (!item_begin(o, key))
		return;
	fprintf(o->fp, "%" PRId64, v);
	item_end(o);
}

void collect_out_strn(struct collect_out *o, const char *key, const char *s, size_t n)
{
	if (!item_begin(o, key))
		return;
	if (o->fmt == COLLECT_FMT_JSON)
		json_string(o->fp, s, n);
	else
		text_string(o->fp, s, n);
	item_end(o);
}

void collect_out_str(struct collect_out *o, const char *key, const char *s)
{
	collect_out_strn(o, key, s, strlen(s));
}

void collect_out_strf(struct collect_out *o, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	collect_out_str(o, key, buf);
}

void collect_out_hex(struct collect_out *o, const char *key, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";

	if (!item_begin(o, key))
		return;
	if (o->fmt == COLLECT_FMT_JSON)
		putc('"', o->fp);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc('-', o->fp);
		putc(hex[p[i] >> 4], o->fp);
		putc(hex[p[i] & 15], o->fp);
	}
	if (o->fmt == COLLECT_FMT_JSON)
		putc('"', o->fp);
	item_end(o);
}

void collect_out_tag(struct collect_out *o, const char *key, uint32_t tag)
{
	collect_out_strf(o, key, "%" PRIu32 ":%" PRIu32, SFLOW_TAG_ENTERPRISE(tag),
			 SFLOW_TAG_FORMAT(tag));
}

void collect_out_addr(struct collect_out *o, const char *key, const struct sflow_addr *a)
{
	char buf[48];

	if (a->type == SFLOW_ADDR_IP4) {
		snprintf(buf, sizeof(buf), "%u.%u.%u.%u", a->a[0], a->a[1], a->a[2], a->a[3]);
	} else if (a->type == SFLOW_ADDR_IP6) {
		size_t n = 0;
		for (int i = 0; i < 16; i += 2)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%02x%02x", i ? ":" : "",
					      a->a[i], a->a[i + 1]);
	} else {
		snprintf(buf, sizeof(buf), "-");
	}
	collect_out_str(o, key, buf);
}

void collect_out_i32_array(struct collect_out *o, const char *key, const int32_t *v, size_t n)
{
	collect_out_begin_array(o, key);
	for (size_t i = 0; i < n; i++)
		collect_out_i64(o, NULL, v[i]);
	collect_out_end_array(o);
}

void collect_out_unknown_body(struct collect_out *o, uint32_t length, const uint8_t *body)
{
	collect_out_u32(o, "unknownLength", length);
	if (body && length)
		collect_out_hex(o, "unknownBytes", body, length);
}
