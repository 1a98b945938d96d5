/*
 * bsflowd.c - main(): the command line, the config check (-t), logging,
 * the pid file, the privilege drop and the event loop.  Everything that
 * runs in the loop is in daemon.c and the modules it drives.
 *
 * bsflowd never forks: it is meant to run under a service manager
 * (systemd Type=notify, see bsflowd.service) or a shell; without -d it
 * logs to syslog, with -d to stderr.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent/confwarn.h"
#include "agent/control.h"
#include "agent/daemon.h"
#include "agent/log.h"
#include "agent/notify.h"
#include "agent/watchdog.h"
#include "agent/pidfile.h"

/* Exit codes (bsflowd(8)) */
#define EXIT_OK	     0
#define EXIT_CONFIG  1 /* bad configuration */
#define EXIT_USAGE   2 /* bad command line */
#define EXIT_RUNTIME 3 /* could not start: backend, pid file, user, ... */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bsflowd [-f FILE] [-d]... [-t] [-p PIDFILE] [-u USER] "
		"[--run-for SECONDS] [--control PATH] [-V] [-h]\n"
		"       bsflowd --status [--json] [--control PATH]\n"
		"  -f FILE    configuration (default %s/bsflowd.conf)\n"
		"  -d         stay in the foreground logging to stderr; repeat for more\n"
		"  -t         check the configuration and exit\n"
		"  -p FILE    write the process id to FILE\n"
		"  -u USER    run as USER once sockets and the backend are open\n"
		"  --run-for SECONDS  exit cleanly after SECONDS\n"
		"  --control PATH     control socket (default %s; none: no socket)\n"
		"  --status   print the running daemon's status (--json: as JSON)\n"
		"  -V         print the version\n",
		SYSCONFDIR, BSF_CONTROL_DEFAULT);
}

/* Keep only capability cap (effective and permitted) after the switch to
 * the user; PR_SET_KEEPCAPS kept the permitted set across setuid. */
static int keep_only_cap(int cap)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof data);
	data[cap / 32].effective = data[cap / 32].permitted = 1u << (cap % 32);
	return (int)syscall(SYS_capset, &h, data);
}

/* keep_net_admin: the linux backend's pollers need CAP_NET_ADMIN after the
 * switch (devlink occupancy snapshots, removing its samplers and stopping
 * the drop monitor at exit); nothing else is kept. */
static int drop_privileges(const char *user, int keep_net_admin)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		log_errx("-u %s: no such user", user);
		return -1;
	}
	if (keep_net_admin && prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) < 0) {
		log_err("-u %s: cannot keep CAP_NET_ADMIN", user);
		return -1;
	}
	if (setgroups(1, &pw->pw_gid) < 0 || setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0) {
		log_err("-u %s: cannot switch to the user", user);
		return -1;
	}
	if (keep_net_admin) {
		if (keep_only_cap(CAP_NET_ADMIN) < 0) {
			log_err("-u %s: cannot keep CAP_NET_ADMIN", user);
			return -1;
		}
		prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L);
	}
	if (setuid(0) == 0) {
		log_errx("-u %s: could regain root after dropping privileges", user);
		return -1;
	}
	log_info("running as user %s (uid %u)%s", user, (unsigned)pw->pw_uid,
		 keep_net_admin ? " with CAP_NET_ADMIN (backend linux)" : "");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"run-for", required_argument, NULL, 'R'},
	    {"control", required_argument, NULL, 'C'},
	    {"status", no_argument, NULL, 'S'},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	const char *conf_path = SYSCONFDIR "/bsflowd.conf";
	const char *pidfile = NULL, *user = NULL;
	int explicit = 0, debug = 0, check = 0, ch, rc, pidfd = -1;
	unsigned long run_for = 0;
	const char *control_path = BSF_CONTROL_DEFAULT;
	int control_explicit = 0, status = 0, json = 0;
	struct bsf_control *control = NULL;
	struct bsf_daemon d;
	struct event_base *base;
	struct event *watchdog = NULL;
	uint64_t watchdog_usec;
	struct conf *c;
	char err[1024];

	while ((ch = getopt_long(argc, argv, "f:dtp:u:Vh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			conf_path = optarg;
			explicit = 1;
			break;
		case 'd':
			debug++;
			break;
		case 't':
			check = 1;
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case 'R': {
			char *end;

			errno = 0;
			run_for = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || run_for == 0 ||
			    run_for > 31536000ul) {
				fprintf(stderr,
					"bsflowd: --run-for %s: not a number of seconds "
					"(1..31536000)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'C':
			control_path = optarg;
			control_explicit = 1;
			break;
		case 'S':
			status = 1;
			break;
		case 'J':
			json = 1;
			break;
		case 'V':
			if (BSF_BACKEND_ABI_MIN == BSF_BACKEND_ABI_VERSION)
				printf("bsflowd %s (backend interface version %u)\n",
				       PACKAGE_VERSION, BSF_BACKEND_ABI_VERSION);
			else
				printf("bsflowd %s (backend interface versions %u to %u)\n",
				       PACKAGE_VERSION, BSF_BACKEND_ABI_MIN,
				       BSF_BACKEND_ABI_VERSION);
			return EXIT_OK;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bsflowd: unexpected argument %s\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (json && !status) {
		fprintf(stderr, "bsflowd: --json goes with --status\n");
		return EXIT_USAGE;
	}
	if (status)
		return bsf_control_client(control_path, json);

	/* messages before the loop go to stderr in -t and -d modes */
	bsf_log_init("bsflowd", debug, check || debug);

	base = event_base_new();
	if (!base) {
		fprintf(stderr, "bsflowd: cannot create the event loop\n");
		return EXIT_RUNTIME;
	}
	if (bsf_daemon_init(&d, base, conf_path, explicit) < 0) {
		fprintf(stderr, "bsflowd: out of memory\n");
		return EXIT_RUNTIME;
	}
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	if (!c) {
		fprintf(stderr, "%s\n", err);
		if (!check && !debug)
			log_errx("%s", err);
		bsf_daemon_fini(&d);
		event_base_free(base);
		return EXIT_CONFIG;
	}
	if (check) {
		char report[1024];

		rc = bsf_backend_check(c, report, sizeof report, err, sizeof err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err);
		} else {
			if (report[0])
				printf("%s: backend %s\n", c->file, report);
			printf("%s: configuration OK\n", c->file);
		}
		if (rc >= 0 && c->n_collectors == 0)
			fprintf(stderr, "%s: warning: no collector section: nothing will be sent\n",
				c->file);
		if (rc >= 0)
			conf_warn(c, stderr);
		conf_free(c);
		bsf_daemon_fini(&d);
		event_base_free(base);
		return rc < 0 ? EXIT_CONFIG : EXIT_OK;
	}
	/* before anything opens: a second instance stops here */
	if (pidfile && (pidfd = pidfile_create(pidfile, err, sizeof err)) < 0) {
		log_errx("%s", err);
		conf_free(c);
		bsf_daemon_fini(&d);
		event_base_free(base);
		return EXIT_RUNTIME;
	}
	if (bsf_daemon_signals(&d, (unsigned)run_for) < 0) {
		log_errx("cannot install the signal handlers");
		conf_free(c);
		goto fail;
	}
	if (bsf_daemon_apply(&d, c, err, sizeof err) < 0) {
		log_errx("%s", err);
		conf_free(c);
		goto fail;
	}
	control = bsf_control_new(&d, control_path, control_explicit, err, sizeof err);
	if (!control) {
		log_errx("%s", err);
		goto fail;
	}
	if (user && drop_privileges(user, d.conf->backend == CONF_BACKEND_LINUX) < 0)
		goto fail;
	log_notice("bsflowd %s started", PACKAGE_VERSION);
	{
		char msg[256];

		memcpy(msg, "READY=1\nSTATUS=", 15);
		bsf_control_summary(&d, msg + 15, sizeof msg - 15);
		bsf_notify(msg);
	}
	/* WatchdogSec= in the unit: keep-alives from the loop */
	watchdog_usec =
	    bsf_watchdog_usec(getenv("WATCHDOG_USEC"), getenv("WATCHDOG_PID"), getpid());
	if (watchdog_usec) {
		watchdog = bsf_watchdog_start(base, watchdog_usec);
		if (!watchdog) {
			log_errx("cannot set up the service watchdog timer");
			goto fail;
		}
		log_info("service watchdog: a keep-alive every %llu ms",
			 (unsigned long long)(watchdog_usec / 2000));
	}

	d.exit_code = EXIT_OK;
	event_base_dispatch(base);

	bsf_notify("STOPPING=1");
	if (watchdog)
		event_free(watchdog);
	bsf_daemon_flush(&d);
	if (debug)
		bsf_daemon_log_status(&d);
	rc = d.exit_code;
	if (pidfile_remove(pidfile, pidfd) < 0)
		log_notice("pid file %s: not removed (%s); left empty", pidfile, strerror(errno));
	bsf_control_free(control);
	bsf_daemon_fini(&d);
	event_base_free(base);
	log_notice("exiting");
	return rc;
fail:
	pidfile_remove(pidfile, pidfd);
	bsf_control_free(control);
	bsf_daemon_fini(&d);
	event_base_free(base);
	return EXIT_RUNTIME;
}
