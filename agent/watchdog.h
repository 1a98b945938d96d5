/*
 * watchdog.h - the systemd service watchdog (WatchdogSec=, sd_watchdog_enabled(3)):
 * when the service manager asks for keep-alives ($WATCHDOG_USEC, and
 * $WATCHDOG_PID naming this process if set), a timer of the event loop
 * sends "WATCHDOG=1" on $NOTIFY_SOCKET every half interval.  The pings
 * come from the loop itself, so a loop that is wedged stops them and the
 * service manager kills and restarts bsflowd.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_WATCHDOG_H
#define BSFLOWD_AGENT_WATCHDOG_H

#include <stdint.h>
#include <sys/types.h>

struct event;
struct event_base;

/* The watchdog interval in microseconds from the values of WATCHDOG_USEC
 * and WATCHDOG_PID (either may be NULL) for the process self: 0 when no
 * watchdog is asked for, the value is not a positive number, or the pid
 * names another process. */
uint64_t bsf_watchdog_usec(const char *usec, const char *pid, pid_t self);

/* Send "WATCHDOG=1" now and then every usec / 2 from base's loop.  The
 * timer event (free it with event_free), or NULL when it cannot be set
 * up. */
struct event *bsf_watchdog_start(struct event_base *base, uint64_t usec);

#endif
