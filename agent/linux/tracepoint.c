/*
 * tracepoint.c - the drop fallback when the drop monitor is absent: the
 * skb:kfree_skb tracepoint through perf_event_open (one ring per CPU,
 * drained every 20 ms), counting drops by reason NAME.  The reason's
 * offset in the raw record and the names of its values are read from the
 * tracepoint's format file (enum skb_drop_reason is renumbered between
 * kernels), never compiled in.  The record carries no packet bytes and no
 * device, so this source sends no 0:5 (empty ones would mislead): the
 * counts go to the log (a line per change, at most every 10 s) and to the
 * status.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

#include "agent/linux/state.h"
#include "agent/linux/tracepoint.h"

#define RING_PAGES 128 /* data pages per CPU (512 KiB), a power of two */
#define MAX_CPUS   1024

static const char *const tracefs_dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

struct ring {
	int fd;
	void *base;
	size_t len;
};

struct linuxbe_tp {
	struct linuxbe_tp_format fmt;
	struct ring *rings;
	unsigned nrings;
	uint64_t counts[LINUXBE_TP_MAX_REASONS + 1]; /* last: out of range */
	uint64_t logged[LINUXBE_TP_MAX_REASONS + 1];
	uint64_t lost;
	struct bsf_timer *timer;
	uint64_t last_log_ns;
};

static void drain(struct linuxbe_tp *tp, struct ring *r)
{
	struct perf_event_mmap_page *meta = r->base;
	uint8_t *data = (uint8_t *)r->base + sysconf(_SC_PAGESIZE);
	uint64_t size = meta->data_size ? meta->data_size
					: (uint64_t)RING_PAGES * (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		uint8_t rec[512];
		uint64_t off = tail % size, i;

		for (i = 0; i < sizeof h; i++)
			((uint8_t *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof h)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size <= sizeof rec) {
			uint32_t rawlen, v = 0;

			for (i = 0; i < h.size; i++)
				rec[i] = data[(off + i) % size];
			memcpy(&rawlen, rec + sizeof h, 4);
			if (sizeof h + 4 + tp->fmt.reason_off + tp->fmt.reason_size <= h.size &&
			    tp->fmt.reason_off + tp->fmt.reason_size <= rawlen) {
				memcpy(&v, rec + sizeof h + 4 + tp->fmt.reason_off,
				       tp->fmt.reason_size);
				tp->counts[v < LINUXBE_TP_MAX_REASONS ? v
								      : LINUXBE_TP_MAX_REASONS]++;
			}
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof h + 16) {
			uint64_t lost;

			for (i = 0; i < 8; i++)
				((uint8_t *)&lost)[i] = data[(off + sizeof h + 8 + i) % size];
			tp->lost += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void report(struct linuxbe_st *st, int force)
{
	struct linuxbe_tp *tp = st->tp;
	char line[1024];
	size_t used = 0;
	unsigned i;
	int changed = 0;

	for (i = 0; i <= LINUXBE_TP_MAX_REASONS; i++)
		if (tp->counts[i] != tp->logged[i])
			changed = 1;
	if (!changed && !force)
		return;
	used += (size_t)snprintf(line, sizeof line, "tracepoint drops by reason:");
	for (i = 0; i <= LINUXBE_TP_MAX_REASONS && used < sizeof line; i++) {
		if (!tp->counts[i])
			continue;
		used += (size_t)snprintf(
		    line + used, sizeof line - used, " %s %llu",
		    i < LINUXBE_TP_MAX_REASONS && tp->fmt.names[i][0] ? tp->fmt.names[i] : "?",
		    (unsigned long long)tp->counts[i]);
		tp->logged[i] = tp->counts[i];
	}
	if (tp->lost && used < sizeof line)
		snprintf(line + used, sizeof line - used, " (records lost %llu)",
			 (unsigned long long)tp->lost);
	linuxbe_log(st, LOG_INFO, "%s", line);
}

static void on_timer(void *arg)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_tp *tp = st->tp;
	uint64_t now = st->host->now_ns(st->host->arg);
	unsigned i;

	for (i = 0; i < tp->nrings; i++)
		drain(tp, &tp->rings[i]);
	if (now - tp->last_log_ns >= 10000000000ull) {
		tp->last_log_ns = now;
		report(st, 0);
	}
}

void linuxbe_tp_report(struct linuxbe_st *st)
{
	unsigned i;

	for (i = 0; i < st->tp->nrings; i++)
		drain(st->tp, &st->tp->rings[i]);
	report(st, 1);
}

uint64_t linuxbe_tp_count(const struct linuxbe_st *st, const char *reason)
{
	unsigned i;

	if (!st->tp)
		return 0;
	for (i = 0; i < st->tp->fmt.n; i++)
		if (strcmp(st->tp->fmt.names[i], reason) == 0)
			return st->tp->counts[i];
	return 0;
}

int linuxbe_tp_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	struct linuxbe_tp *tp;
	char path[256], *text = NULL, e[200];
	FILE *f = NULL;
	size_t i, n = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
	unsigned long id = 0;
	int cpu;

	for (i = 0; i < sizeof tracefs_dirs / sizeof tracefs_dirs[0] && !f; i++) {
		snprintf(path, sizeof path, "%s/events/skb/kfree_skb/format", tracefs_dirs[i]);
		f = fopen(path, "r");
	}
	if (!f) {
		snprintf(why, whylen,
			 "tracepoint absent (no skb/kfree_skb in tracefs: mount it at "
			 "/sys/kernel/tracing, or needs CAP_PERFMON to read it)");
		return -1;
	}
	text = calloc(1, 1 << 16);
	if (text)
		n = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	tp = calloc(1, sizeof *tp);
	if (!text || !tp || n == 0) {
		free(text);
		free(tp);
		snprintf(why, whylen, "tracepoint absent (cannot read %s)", path);
		return -1;
	}
	if (linuxbe_tp_format_parse(text, &tp->fmt, e, sizeof e) < 0 ||
	    sscanf(strstr(text, "ID:") ? strstr(text, "ID:") : "", "ID: %lu", &id) != 1) {
		snprintf(why, whylen, "tracepoint absent (%s: %s)", path,
			 id ? e : "no ID in the format");
		free(text);
		free(tp);
		return -1;
	}
	free(text);
	st->tp = tp;
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	tp->rings = calloc((size_t)ncpu, sizeof *tp->rings);
	if (!tp->rings) {
		snprintf(why, whylen, "tracepoint absent (out of memory)");
		goto fail;
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct perf_event_attr a;
		struct ring *r = &tp->rings[tp->nrings];
		int fd;

		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = id;
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_RAW;
		a.wakeup_events = 1024;
		fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			if (errno == ENODEV || errno == EINVAL)
				continue; /* an offline CPU */
			snprintf(why, whylen, "%s",
				 errno == EACCES || errno == EPERM
				     ? "tracepoint needs CAP_PERFMON (or CAP_SYS_ADMIN) for "
				       "perf_event_open on skb:kfree_skb"
				     : "tracepoint absent (perf_event_open failed)");
			goto fail;
		}
		r->fd = fd;
		r->len = (size_t)(RING_PAGES + 1) * (size_t)page;
		r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (r->base == MAP_FAILED) {
			close(fd);
			snprintf(why, whylen, "tracepoint absent (mmap of its ring: %s)",
				 strerror(errno));
			goto fail;
		}
		tp->nrings++;
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	if (!tp->nrings) {
		snprintf(why, whylen, "tracepoint absent (no CPU accepted the event)");
		goto fail;
	}
	tp->timer = st->host->timer_new(st->host->arg, on_timer, st);
	if (!tp->timer || st->host->timer_start(tp->timer, 20000000u, 1) < 0) {
		snprintf(why, whylen, "tracepoint absent (cannot start its timer)");
		goto fail;
	}
	tp->last_log_ns = st->host->now_ns(st->host->arg);
	snprintf(why, whylen,
		 "tracepoint skb:kfree_skb on %u CPUs: drops counted by reason (%u names), no "
		 "headers, so no 0:5 from it",
		 tp->nrings, tp->fmt.n);
	return 0;
fail:
	linuxbe_tp_close(st);
	return -1;
}

void linuxbe_tp_close(struct linuxbe_st *st)
{
	struct linuxbe_tp *tp = st->tp;
	unsigned i;

	if (!tp)
		return;
	if (tp->timer) {
		for (i = 0; i < tp->nrings; i++)
			drain(tp, &tp->rings[i]);
		report(st, 0);
		st->host->timer_free(tp->timer);
	}
	for (i = 0; i < tp->nrings; i++) {
		munmap(tp->rings[i].base, tp->rings[i].len);
		close(tp->rings[i].fd);
	}
	free(tp->rings);
	free(tp);
	st->tp = NULL;
}
