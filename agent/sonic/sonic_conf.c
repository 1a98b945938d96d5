/*
 * sonic_conf.c - the `sonic { }` section (its options and their checks)
 * and the reader of SONiC's database_config.json (only the fields the
 * backend needs: INSTANCES.<i>.unix_socket_path / hostname / port and
 * DATABASES.<DB>.id / instance).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/confval.h"
#include "agent/sonic/sonic_conf.h"

static cfg_opt_t sonic_opts[] = {
    CONF_V("database_config"),
    CONF_V("redis"),
    CONF_V("config_db_json"),
    CONF_V("config_db"),
    CONF_V("appl_db"),
    CONF_V("counters_db"),
    CONF_V("ports"),
    CONF_V("poll_interval"),
    CONF_V("map_refresh"),
    CONF_V("connect_timeout"),
    CONF_V("ifindex_offset"),
    CONF_V("asic_db"),
    CONF_V("keyspace_notifications"),
    CFG_END(),
};

cfg_opt_t *sonic_conf_opts(void)
{
	return sonic_opts;
}

static int get_str(struct conf_ctx *x, cfg_t *sec, const char *key, char *out, size_t size)
{
	const struct conf_val *v = conf_get(sec, key);

	if (!v)
		return 0;
	return conf_name(x, v, key, NULL, out, size);
}

static int get_db(struct conf_ctx *x, cfg_t *sec, const char *key, int *out)
{
	long long n = *out;

	if (conf_get_int(x, sec, key, 0, 15, &n) < 0)
		return -1;
	*out = (int)n;
	return 0;
}

static int get_time(struct conf_ctx *x, cfg_t *sec, const char *key, uint64_t lo, uint64_t *out)
{
	const struct conf_val *v = conf_get(sec, key);

	return v ? conf_time(x, v, key, lo, CONF_TIME_MAX, out) : 0;
}

/* "host:port" into sc (host and port), or a path of a unix socket. */
static int split_redis(struct conf_ctx *x, const struct conf_val *v, struct sonic_conf *sc)
{
	const char *s = sc->redis, *colon = strrchr(s, ':');
	char *end;
	long p;

	if (strncmp(s, "unix:", 5) == 0)
		s += 5;
	if (s[0] == '/' || !colon) {
		if (s[0] != '/')
			return conf_fail(x, v, "redis",
					 "neither a socket path (starting with /) nor "
					 "host:port");
		snprintf(sc->unix_path, sizeof sc->unix_path, "%s", s);
		return 0;
	}
	p = strtol(colon + 1, &end, 10);
	if (colon == s || *end || p < 1 || p > 65535 || (size_t)(colon - s) >= sizeof sc->host)
		return conf_fail(x, v, "redis", "not host:port (port 1..65535)");
	memcpy(sc->host, s, (size_t)(colon - s));
	sc->host[colon - s] = '\0';
	sc->port = (int)p;
	sc->unix_path[0] = '\0';
	return 0;
}

static int from_cfg(cfg_t *sec, struct conf_ctx *x, struct sonic_conf *sc)
{
	long long n;

	if (get_str(x, sec, "database_config", sc->dbconfig, sizeof sc->dbconfig) < 0 ||
	    get_str(x, sec, "redis", sc->redis, sizeof sc->redis) < 0 ||
	    get_str(x, sec, "config_db_json", sc->config_db_json, sizeof sc->config_db_json) < 0 ||
	    get_str(x, sec, "ports", sc->ports, sizeof sc->ports) < 0 ||
	    get_db(x, sec, "config_db", &sc->config_db) < 0 ||
	    get_db(x, sec, "appl_db", &sc->appl_db) < 0 ||
	    get_db(x, sec, "counters_db", &sc->counters_db) < 0 ||
	    get_db(x, sec, "asic_db", &sc->asic_db) < 0 ||
	    get_time(x, sec, "poll_interval", 100000000ull, &sc->poll_ns) < 0 ||
	    get_time(x, sec, "map_refresh", 1000000000ull, &sc->map_refresh_ns) < 0 ||
	    get_time(x, sec, "connect_timeout", 10000000ull, &sc->connect_timeout_ns) < 0)
		return -1;
	if (conf_get(sec, "keyspace_notifications") &&
	    conf_bool(x, conf_get(sec, "keyspace_notifications"), "keyspace_notifications",
		      &sc->notifications) < 0)
		return -1;
	n = sc->ifindex_offset;
	if (conf_get_int(x, sec, "ifindex_offset", 0, 1000000, &n) < 0)
		return -1;
	sc->ifindex_offset = (unsigned)n;
	if (sc->redis[0] && split_redis(x, conf_get(sec, "redis"), sc) < 0)
		return -1;
	return 0;
}

static void init(struct sonic_conf *sc)
{
	memset(sc, 0, sizeof *sc);
	snprintf(sc->dbconfig, sizeof sc->dbconfig, "%s", SONIC_DBCONFIG_DEFAULT);
	snprintf(sc->config_db_json, sizeof sc->config_db_json, "%s", SONIC_CONFIG_DB_JSON_DEFAULT);
	sc->config_db = sc->appl_db = sc->counters_db = sc->asic_db = -1;
	sc->notifications = 1;
	snprintf(sc->ports, sizeof sc->ports, "Ethernet*");
	sc->poll_ns = 1000000000ull;
	sc->map_refresh_ns = 30000000000ull;
	sc->connect_timeout_ns = 1000000000ull;
}

int sonic_conf_parse(const char *body, const char *file, int first_line, struct sonic_conf *sc,
		     char *err, size_t errlen)
{
	cfg_opt_t top[] = {CFG_SEC("sonic", sonic_opts, CFGF_NONE), CFG_END()};
	const char *name = file ? file : "(config)";
	size_t nl = first_line > 1 ? (size_t)first_line - 1 : 0;
	struct conf_ctx x = {.file = name, .err = err, .errlen = errlen};
	char *text, *clean;
	size_t blen;
	cfg_t *root;
	int rc;

	init(sc);
	if (!body)
		return 0;
	blen = strlen(body);
	/* the section again, its opening brace on its first line */
	text = malloc(nl + sizeof "sonic {" + blen + sizeof "\n}\n");
	if (!text) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	memset(text, '\n', nl);
	memcpy(text + nl, "sonic {", 7);
	memcpy(text + nl + 7, body, blen);
	memcpy(text + nl + 7 + blen, "\n}\n", sizeof "\n}\n");
	clean = conf_blank_comments(text, name, err, errlen);
	free(text);
	if (!clean)
		return -1;
	root = cfg_init(top, CFGF_NONE);
	if (!root) {
		free(clean);
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	rc = conf_lib_parse(root, name, clean, err, errlen);
	free(clean);
	if (rc < 0) {
		cfg_free(root);
		return -1;
	}
	conf_enter(&x, NULL, "sonic", NULL, first_line);
	rc = from_cfg(cfg_getsec(root, "sonic"), &x, sc);
	cfg_free(root);
	return rc;
}

/* ---- database_config.json: a small JSON reader that reports every
 * scalar with its path of object keys ("DATABASES.COUNTERS_DB.id") ---- */

struct jr {
	const char *p;
	char path[256];
	void (*scalar)(void *arg, const char *path, const char *val, size_t len);
	void *arg;
	int depth;
};

static void jws(struct jr *r)
{
	while (*r->p && isspace((unsigned char)*r->p))
		r->p++;
}

/* A string at r->p into out (escapes kept as the letter that follows). */
static int jstring(struct jr *r, char *out, size_t size)
{
	size_t n = 0;

	if (*r->p != '"')
		return -1;
	r->p++;
	while (*r->p && *r->p != '"') {
		if (*r->p == '\\' && r->p[1])
			r->p++;
		if (n + 1 < size)
			out[n++] = *r->p;
		r->p++;
	}
	if (*r->p != '"')
		return -1;
	r->p++;
	out[n] = '\0';
	return 0;
}

static int jvalue(struct jr *r);

static int jobject(struct jr *r)
{
	size_t base = strlen(r->path);
	char key[128];

	r->p++;
	jws(r);
	if (*r->p == '}') {
		r->p++;
		return 0;
	}
	for (;;) {
		jws(r);
		if (jstring(r, key, sizeof key) < 0)
			return -1;
		jws(r);
		if (*r->p != ':')
			return -1;
		r->p++;
		snprintf(r->path + base, sizeof r->path - base, "%s%s", base ? "." : "", key);
		if (jvalue(r) < 0)
			return -1;
		r->path[base] = '\0';
		jws(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p != '}')
			return -1;
		r->p++;
		return 0;
	}
}

static int jarray(struct jr *r)
{
	r->p++;
	jws(r);
	if (*r->p == ']') {
		r->p++;
		return 0;
	}
	for (;;) {
		if (jvalue(r) < 0)
			return -1;
		jws(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p != ']')
			return -1;
		r->p++;
		return 0;
	}
}

static int jvalue(struct jr *r)
{
	char s[256];
	const char *q;
	int rc;

	jws(r);
	if (++r->depth > 32)
		return -1;
	if (*r->p == '{') {
		rc = jobject(r);
	} else if (*r->p == '[') {
		rc = jarray(r);
	} else if (*r->p == '"') {
		rc = jstring(r, s, sizeof s);
		if (rc == 0)
			r->scalar(r->arg, r->path, s, strlen(s));
	} else {
		q = r->p;
		while (*r->p && (isalnum((unsigned char)*r->p) || strchr("+-.", *r->p)))
			r->p++;
		rc = r->p > q ? 0 : -1;
		if (rc == 0)
			r->scalar(r->arg, r->path, q, (size_t)(r->p - q));
	}
	r->depth--;
	return rc;
}

/* What the json says, collected before it is applied. */
struct jdb {
	char inst[4][64]; /* instance of CONFIG_DB, APPL_DB, COUNTERS_DB, ASIC_DB */
	int id[4];
	/* the instances seen (up to 8) */
	char iname[8][64], sock[8][256], host[8][128];
	int port[8], ninst;
};

static const char *const jdb_names[4] = {"CONFIG_DB", "APPL_DB", "COUNTERS_DB", "ASIC_DB"};

static int inst_slot(struct jdb *j, const char *name, size_t len)
{
	for (int i = 0; i < j->ninst; i++)
		if (strlen(j->iname[i]) == len && strncmp(j->iname[i], name, len) == 0)
			return i;
	if (j->ninst == 8 || len >= sizeof j->iname[0])
		return -1;
	memcpy(j->iname[j->ninst], name, len);
	j->iname[j->ninst][len] = '\0';
	return j->ninst++;
}

static void jdb_scalar(void *arg, const char *path, const char *val, size_t len)
{
	struct jdb *j = arg;
	const char *dot;
	char v[256];

	snprintf(v, sizeof v, "%.*s", (int)(len < 255 ? len : 255), val);
	if (strncmp(path, "DATABASES.", 10) == 0) {
		for (int i = 0; i < 4; i++) {
			size_t n = strlen(jdb_names[i]);

			if (strncmp(path + 10, jdb_names[i], n) != 0 || path[10 + n] != '.')
				continue;
			if (strcmp(path + 11 + n, "id") == 0)
				j->id[i] = atoi(v);
			else if (strcmp(path + 11 + n, "instance") == 0)
				snprintf(j->inst[i], sizeof j->inst[i], "%.63s", v);
		}
	} else if (strncmp(path, "INSTANCES.", 10) == 0 && (dot = strchr(path + 10, '.'))) {
		int k = inst_slot(j, path + 10, (size_t)(dot - (path + 10)));

		if (k < 0)
			return;
		if (strcmp(dot + 1, "unix_socket_path") == 0)
			snprintf(j->sock[k], sizeof j->sock[k], "%s", v);
		else if (strcmp(dot + 1, "hostname") == 0)
			snprintf(j->host[k], sizeof j->host[k], "%.127s", v);
		else if (strcmp(dot + 1, "port") == 0)
			j->port[k] = atoi(v);
	}
}

int sonic_json_scalars(const char *json,
		       void (*scalar)(void *arg, const char *path, const char *val, size_t len),
		       void *arg)
{
	struct jr r = {.p = json, .scalar = scalar, .arg = arg};

	jws(&r);
	return *r.p == '{' ? jvalue(&r) : -1;
}

int sonic_conf_apply_json(struct sonic_conf *sc, const char *json, char *err, size_t errlen)
{
	struct jdb j;
	struct jr r = {.p = json, .scalar = jdb_scalar, .arg = &j};
	int *dbs[4] = {&sc->config_db, &sc->appl_db, &sc->counters_db, &sc->asic_db};
	int k;

	memset(&j, 0, sizeof j);
	j.id[0] = j.id[1] = j.id[2] = j.id[3] = -1;
	jws(&r);
	if (*r.p != '{' || jvalue(&r) < 0) {
		snprintf(err, errlen, "not valid JSON near byte %zu", (size_t)(r.p - json));
		return -1;
	}
	if (*dbs[3] < 0 && j.id[3] >= 0 && j.id[3] <= 15)
		*dbs[3] = j.id[3]; /* ASIC_DB: optional, the default otherwise */
	for (int i = 0; i < 3; i++) {
		if (*dbs[i] >= 0)
			continue;
		if (j.id[i] < 0 || j.id[i] > 15) {
			snprintf(err, errlen, "no DATABASES.%s.id (0..15)", jdb_names[i]);
			return -1;
		}
		*dbs[i] = j.id[i];
	}
	if (sc->redis[0])
		return 0;
	k = inst_slot(&j, j.inst[2], strlen(j.inst[2]));
	if (k < 0 || (!j.sock[k][0] && !j.host[k][0])) {
		snprintf(err, errlen, "no INSTANCES entry \"%s\" for COUNTERS_DB", j.inst[2]);
		return -1;
	}
	if (j.sock[k][0]) {
		snprintf(sc->unix_path, sizeof sc->unix_path, "%s", j.sock[k]);
	} else {
		snprintf(sc->host, sizeof sc->host, "%s", j.host[k]);
		sc->port = j.port[k] > 0 ? j.port[k] : 6379;
	}
	return 0;
}

void sonic_conf_defaults(struct sonic_conf *sc)
{
	if (sc->config_db < 0)
		sc->config_db = 4;
	if (sc->appl_db < 0)
		sc->appl_db = 0;
	if (sc->counters_db < 0)
		sc->counters_db = 2;
	if (sc->asic_db < 0)
		sc->asic_db = 1;
	if (!sc->unix_path[0] && !sc->host[0])
		snprintf(sc->unix_path, sizeof sc->unix_path, "%s", SONIC_SOCKET_DEFAULT);
}
