/*
 * evqueue.c - the bounded, mutex-protected ring of pushed backend events
 * and its wake-up descriptor (see evqueue.h).
 *
 * The wake-up: an eventfd (or the write end of a pipe) is written once
 * per idle-to-busy transition (`armed` under the mutex), so a thread
 * pushing a million events makes one syscall per loop turn, not one per
 * event; the loop's callback reads it empty, disarms, then calls wake().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/eventfd.h>
#endif

#include "agent/evqueue.h"

struct bsf_evq {
	pthread_mutex_t mu;
	struct bsf_event *ring; /* cap slots */
	size_t cap, head, count;
	uint64_t lost[BSF_EV_NTYPES]; /* by type, [0] unknown types */
	uint64_t pushed;
	uint64_t refused;	/* pushed while refusing (also in lost) */
	uint64_t refused_at_on; /* refused when it was last turned on */
	int refusing;		/* bsf_evq_refuse */
	int armed;		/* a wake-up is pending on the descriptor */
	int rfd, wfd;
	struct event *ev;
	void (*wake)(void *arg);
	void *arg;
};

static void evq_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_evq *q = arg;
	char buf[64];

	(void)what;
	while (read(fd, buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&q->mu);
	q->armed = 0;
	pthread_mutex_unlock(&q->mu);
	q->wake(q->arg);
}

static int evq_fds(struct bsf_evq *q)
{
#ifdef __linux__
	q->rfd = q->wfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (q->rfd >= 0)
		return 0;
#endif
	{
		int p[2];

		if (pipe(p) < 0)
			return -1;
		for (int i = 0; i < 2; i++) {
			fcntl(p[i], F_SETFL, fcntl(p[i], F_GETFL) | O_NONBLOCK);
			fcntl(p[i], F_SETFD, FD_CLOEXEC);
		}
		q->rfd = p[0];
		q->wfd = p[1];
	}
	return 0;
}

struct bsf_evq *bsf_evq_new(struct event_base *base, size_t cap, void (*wake)(void *arg), void *arg)
{
	struct bsf_evq *q = calloc(1, sizeof *q);

	if (!q)
		return NULL;
	q->rfd = q->wfd = -1;
	q->cap = cap ? cap : 1;
	q->wake = wake;
	q->arg = arg;
	q->ring = calloc(q->cap, sizeof *q->ring);
	if (!q->ring || pthread_mutex_init(&q->mu, NULL) != 0) {
		free(q->ring);
		free(q);
		return NULL;
	}
	if (evq_fds(q) < 0)
		goto fail;
	q->ev = event_new(base, q->rfd, EV_READ | EV_PERSIST, evq_read_cb, q);
	if (!q->ev || event_add(q->ev, NULL) < 0)
		goto fail;
	return q;
fail:
	bsf_evq_free(q);
	return NULL;
}

void bsf_evq_free(struct bsf_evq *q)
{
	if (!q)
		return;
	if (q->ev)
		event_free(q->ev);
	if (q->rfd >= 0)
		close(q->rfd);
	if (q->wfd >= 0 && q->wfd != q->rfd)
		close(q->wfd);
	pthread_mutex_destroy(&q->mu);
	free(q->ring);
	free(q);
}

/* Under the mutex: arm the wake-up if it is not; 1 if the caller must
 * write the descriptor (after unlocking). */
static int evq_arm(struct bsf_evq *q)
{
	if (q->armed)
		return 0;
	q->armed = 1;
	return 1;
}

static void evq_kick(struct bsf_evq *q)
{
	uint64_t one = 1;
	ssize_t r;

	do
		r = write(q->wfd, &one, q->wfd == q->rfd ? sizeof one : 1);
	while (r < 0 && errno == EINTR);
	/* EAGAIN: the descriptor is already readable, which is all we want */
}

size_t bsf_evq_push(struct bsf_evq *q, const struct bsf_event *ev, size_t n)
{
	size_t stride, take, i;
	int kick;

	if (n == 0 || !ev)
		return 0;
	stride = ev->size;
	if (stride < offsetof(struct bsf_event, type) + sizeof ev->type) {
		/* no type even: nothing usable, count them as unknown */
		pthread_mutex_lock(&q->mu);
		q->lost[0] += n;
		pthread_mutex_unlock(&q->mu);
		return 0;
	}
	pthread_mutex_lock(&q->mu);
	take = q->cap - q->count < n ? q->cap - q->count : n;
	if (q->refusing) {
		take = 0;
		q->refused += n;
	}
	for (i = 0; i < n; i++) {
		const struct bsf_event *e =
		    (const struct bsf_event *)(const void *)((const char *)ev + i * stride);

		if (i < take) {
			struct bsf_event *slot = &q->ring[(q->head + q->count) % q->cap];

			bsf_event_init(slot);
			bsf_event_copy(slot, e);
			slot->size = sizeof *slot;
			/* names the pusher did not terminate end here */
			slot->function[BSF_NAME_MAX - 1] = slot->reason_name[BSF_NAME_MAX - 1] =
			    '\0';
			slot->trap_group[BSF_NAME_MAX - 1] = slot->trap_name[BSF_NAME_MAX - 1] =
			    '\0';
			q->count++;
		} else {
			q->lost[e->type < BSF_EV_NTYPES ? e->type : 0]++;
		}
	}
	q->pushed += take;
	kick = evq_arm(q);
	pthread_mutex_unlock(&q->mu);
	if (kick)
		evq_kick(q);
	return take;
}

void bsf_evq_wake(struct bsf_evq *q)
{
	int kick;

	pthread_mutex_lock(&q->mu);
	kick = evq_arm(q);
	pthread_mutex_unlock(&q->mu);
	if (kick)
		evq_kick(q);
}

size_t bsf_evq_pop(struct bsf_evq *q, struct bsf_event *out, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&q->mu);
	while (n < max && q->count > 0) {
		out[n++] = q->ring[q->head];
		q->head = (q->head + 1) % q->cap;
		q->count--;
	}
	pthread_mutex_unlock(&q->mu);
	return n;
}

/* A count of q's, read under its mutex. */
static uint64_t read_locked(struct bsf_evq *q, const uint64_t *count)
{
	uint64_t v;

	pthread_mutex_lock(&q->mu);
	v = *count;
	pthread_mutex_unlock(&q->mu);
	return v;
}

uint64_t bsf_evq_lost(struct bsf_evq *q, uint32_t type)
{
	return read_locked(q, &q->lost[type < BSF_EV_NTYPES ? type : 0]);
}

uint64_t bsf_evq_lost_all(struct bsf_evq *q)
{
	uint64_t v = 0;

	pthread_mutex_lock(&q->mu);
	for (int t = 0; t < BSF_EV_NTYPES; t++)
		v += q->lost[t];
	pthread_mutex_unlock(&q->mu);
	return v;
}

uint64_t bsf_evq_pushed(struct bsf_evq *q)
{
	return read_locked(q, &q->pushed);
}

uint64_t bsf_evq_refuse(struct bsf_evq *q, int on)
{
	uint64_t n;

	pthread_mutex_lock(&q->mu);
	if (on && !q->refusing)
		q->refused_at_on = q->refused;
	q->refusing = on;
	n = q->refused - q->refused_at_on;
	pthread_mutex_unlock(&q->mu);
	return n;
}

uint64_t bsf_evq_refused(struct bsf_evq *q)
{
	return read_locked(q, &q->refused);
}
