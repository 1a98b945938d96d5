/*
 * log.c - bsflowd's logger (stderr or syslog) and the rate limiter.
 *
 * The destination and verbosity are process-wide: they are part of the
 * daemon's top-level state, set once from the command line.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent/log.h"

static struct {
	int verbosity;
	int to_stderr;
	const char *progname;
} bsf_log_state = {0, 1, "bsflowd"};

static _Thread_local struct {
	bsf_log_sink_fn fn;
	void *arg;
} bsf_log_sink;

void bsf_log_set_sink(bsf_log_sink_fn fn, void *arg)
{
	bsf_log_sink.fn = fn;
	bsf_log_sink.arg = arg;
}

void bsf_log_init(const char *progname, int verbosity, int to_stderr)
{
	bsf_log_state.progname = progname;
	bsf_log_state.verbosity = verbosity;
	bsf_log_state.to_stderr = to_stderr;
	if (!to_stderr)
		openlog(progname, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

int bsf_log_verbosity(void)
{
	return bsf_log_state.verbosity;
}

void bsf_vlog(int priority, const char *fmt, va_list ap)
{
	if (priority == LOG_INFO && bsf_log_state.verbosity < 1)
		return;
	if (priority == LOG_DEBUG && bsf_log_state.verbosity < 2)
		return;
	if (bsf_log_sink.fn) {
		char line[1024];

		vsnprintf(line, sizeof line, fmt, ap);
		bsf_log_sink.fn(bsf_log_sink.arg, priority, line);
	} else if (bsf_log_state.to_stderr) {
		char line[1024];

		vsnprintf(line, sizeof line, fmt, ap);
		fprintf(stderr, "%s: %s\n", bsf_log_state.progname, line);
		fflush(stderr);
	} else {
		vsyslog(priority, fmt, ap);
	}
}

void bsf_log(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bsf_vlog(priority, fmt, ap);
	va_end(ap);
}

void log_err(const char *fmt, ...)
{
	char msg[768];
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	bsf_log(LOG_ERR, "%s: %s", msg, strerror(saved));
}

void bsf_ratelimit_init(struct bsf_ratelimit *rl, uint64_t interval_ns)
{
	memset(rl, 0, sizeof *rl);
	rl->interval_ns = interval_ns;
}

int bsf_ratelimit_hit(struct bsf_ratelimit *rl, uint64_t now_ns, uint64_t *count)
{
	rl->suppressed++;
	if (rl->started && now_ns - rl->last_ns < rl->interval_ns)
		return 0;
	*count = rl->suppressed;
	rl->suppressed = 0;
	rl->last_ns = now_ns;
	rl->started = 1;
	return 1;
}

/* bsf_clock_virtual */
static const uint64_t *virt_now;
static uint64_t virt_wall0;

void bsf_clock_virtual(const uint64_t *now, uint64_t wall0_ns)
{
	virt_now = now;
	virt_wall0 = wall0_ns;
}

uint64_t bsf_now_ns(void)
{
	struct timespec ts;

	if (virt_now)
		return *virt_now;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bsf_wall_ns(void)
{
	struct timespec ts;

	if (virt_now)
		return virt_wall0 + *virt_now;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
