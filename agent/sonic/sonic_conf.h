/*
 * sonic_conf.h - the `sonic { }` section of bsflowd.conf and SONiC's
 * database_config.json: where the Redis server is and which database
 * numbers hold CONFIG_DB, APPL_DB, COUNTERS_DB and ASIC_DB.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_CONF_H
#define BSFLOWD_AGENT_SONIC_CONF_H

#include <confuse.h>
#include <stddef.h>
#include <stdint.h>

#define SONIC_DBCONFIG_DEFAULT "/var/run/redis/sonic-db/database_config.json"
#define SONIC_SOCKET_DEFAULT   "/var/run/redis/redis.sock"
/* CONFIG_DB as saved on disk: the ports when Redis is down at start */
#define SONIC_CONFIG_DB_JSON_DEFAULT "/etc/sonic/config_db.json"

struct sonic_conf {
	char dbconfig[256];	  /* database_config.json */
	char config_db_json[256]; /* config_db.json */
	char redis[256];	  /* as configured: "" (from the json), a path, host:port */
	char unix_path[256];	  /* resolved: the socket, or "" for TCP */
	char host[128];
	int port;
	int config_db, appl_db, counters_db; /* -1: from the json */
	int asic_db;			     /* -1: from the json (optional there) */
	int notifications;		     /* keyspace_notifications: 1 use them */
	char ports[64];			     /* fnmatch pattern of the port names */
	uint64_t poll_ns;		     /* how often Redis is read */
	uint64_t map_refresh_ns;	     /* how often the maps are read again */
	uint64_t connect_timeout_ns;	     /* open(): the first read of the maps */
	unsigned ifindex_offset;	     /* ifIndex = PORT index + this */
};

/* The section's libconfuse options (conf.c declares the section with
 * them, the backend parses its text with them). */
cfg_opt_t *sonic_conf_opts(void);

/* Parse the section's body (NULL: defaults) as it appears at first_line of
 * file.  0, or -1 with "FILE:LINE: sonic: key: problem" in err. */
int sonic_conf_parse(const char *body, const char *file, int first_line, struct sonic_conf *sc,
		     char *err, size_t errlen);

/* Fill what the section left open from database_config.json text: the
 * socket or host:port of the instance of COUNTERS_DB and the databases'
 * ids.  0, or -1 with a message (the defaults stay: the SONiC socket and
 * databases 4, 0, 2). */
int sonic_conf_apply_json(struct sonic_conf *sc, const char *json, char *err, size_t errlen);

/* Call scalar(arg, path, value, len) for every scalar of a JSON object,
 * path its object keys joined by '.' ("PORT.Ethernet0.index"; arrays add
 * nothing).  0, or -1 (not JSON). */
int sonic_json_scalars(const char *json,
		       void (*scalar)(void *arg, const char *path, const char *val, size_t len),
		       void *arg);

/* Defaults for whatever is still open (no json). */
void sonic_conf_defaults(struct sonic_conf *sc);

#endif
