/*
 * log.h - logging for bsflowd: to stderr in the foreground (-d), to syslog
 * otherwise, in the manner of the OpenBSD daemons' log.c.
 *
 * The log destination and verbosity are part of the daemon's top-level
 * state, kept in log.c.  bsf_ratelimit is a small pure helper that lets a
 * repeated error (a collector refusing datagrams) be logged at most once per
 * interval with the count of what happened in between.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_LOG_H
#define BSFLOWD_AGENT_LOG_H

#include <stdarg.h>
#include <stdint.h>
#include <syslog.h>

/* verbosity: 0 = notices and worse, 1 = +info, 2 = +debug.  to_stderr: log
 * to stderr, else to syslog (facility daemon). */
void bsf_log_init(const char *progname, int verbosity, int to_stderr);
int bsf_log_verbosity(void);
void bsf_log(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bsf_vlog(int priority, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
#define log_warnx(...)	bsf_log(LOG_WARNING, __VA_ARGS__)
#define log_info(...)	bsf_log(LOG_INFO, __VA_ARGS__)
#define log_notice(...) bsf_log(LOG_NOTICE, __VA_ARGS__)
#define log_debug(...)	bsf_log(LOG_DEBUG, __VA_ARGS__)
#define log_errx(...)	bsf_log(LOG_ERR, __VA_ARGS__)
/*
 * A line sink for the calling thread: while set, that thread's log lines go
 * to fn(arg, priority, line) instead of stderr or syslog (other threads log
 * as before).  The status dump is one piece of code writing log lines; the
 * control socket (control.h) sets a sink to collect the same lines into its
 * reply.  fn NULL restores the normal destination.
 */
typedef void (*bsf_log_sink_fn)(void *arg, int priority, const char *line);
void bsf_log_set_sink(bsf_log_sink_fn fn, void *arg);

/* Log at LOG_ERR with ": strerror(errno)" appended. */
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Rate limit: at most one message per interval.  bsf_ratelimit_hit() counts
 * one occurrence at now_ns and returns 1 when a line should be written now,
 * with *count set to the occurrences it stands for (this one and those
 * suppressed since the last line); 0 when it is suppressed.
 */
struct bsf_ratelimit {
	uint64_t interval_ns;
	uint64_t last_ns;    /* when the last line was written */
	uint64_t suppressed; /* occurrences since then */
	int started;	     /* a line has been written */
};

void bsf_ratelimit_init(struct bsf_ratelimit *rl, uint64_t interval_ns);
int bsf_ratelimit_hit(struct bsf_ratelimit *rl, uint64_t now_ns, uint64_t *count);

/* CLOCK_MONOTONIC in ns. */
uint64_t bsf_now_ns(void);
/* CLOCK_REALTIME in ns since the Unix epoch. */
uint64_t bsf_wall_ns(void);
/* bsflow-sim --sflow runs the daemon's modules on virtual time: while
 * now is set, bsf_now_ns() returns *now and bsf_wall_ns() wall0_ns + *now.
 * NULL: the system's clocks again. */
void bsf_clock_virtual(const uint64_t *now, uint64_t wall0_ns);

#endif
