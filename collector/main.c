/*
 * main.c - bsflow-collect: receive, decode, check and print sFlow v5.
 *
 * Command line (bsflow-collect(1) is the reference), signals and the exit
 * summary.  The work is done by the input (input_udp.c or input_pcap.c),
 * which hands every datagram to collect_process() (process.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector/collect.h"
#include "collector/httpd.h"

/* Set by SIGINT/SIGTERM; the inputs poll it between datagrams. */
static volatile sig_atomic_t stop_requested;

/* 1 if the two descriptors are the same open file (2>&1), or unknown. */
static int same_stream(int a, int b)
{
	struct stat sa, sb;

	if (fstat(a, &sa) != 0 || fstat(b, &sb) != 0)
		return 1;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

enum {
	OPT_STRICT = 256,
	OPT_SUMMARY,
	OPT_NO_SUMMARY,
	OPT_TABLE,
	OPT_PROM,
	OPT_PROM_EXPIRE,
	OPT_PROM_MAX,
	OPT_AGENT,
	OPT_SOURCE,
	OPT_TYPE,
	OPT_REASON
};

static const struct option long_opts[] = {
    {"port", required_argument, NULL, 'p'},
    {"bind", required_argument, NULL, 'b'},
    {"read", required_argument, NULL, 'r'},
    {"write", required_argument, NULL, 'w'},
    {"json", no_argument, NULL, 'j'},
    {"enterprise", required_argument, NULL, 'e'},
    {"count", required_argument, NULL, 'c'},
    {"time", required_argument, NULL, 't'},
    {"quiet", no_argument, NULL, 'q'},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"no-summary", no_argument, NULL, OPT_NO_SUMMARY},
    {"table", no_argument, NULL, OPT_TABLE},
    {"prometheus", required_argument, NULL, OPT_PROM},
    {"forward", required_argument, NULL, 'f'},
    {"agent", required_argument, NULL, OPT_AGENT},
    {"source", required_argument, NULL, OPT_SOURCE},
    {"type", required_argument, NULL, OPT_TYPE},
    {"reason", required_argument, NULL, OPT_REASON},
    {"write-drops", required_argument, NULL, 'W'},
    {"prometheus-expire", required_argument, NULL, OPT_PROM_EXPIRE},
    {"prometheus-max-series", required_argument, NULL, OPT_PROM_MAX},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static const char synopsis[] =
    "usage: bsflow-collect [-46gjlqhV] [-p port] [-b address] [-r file.pcap]\n"
    "                      [-w out.pcap] [-e enterprise] [-c count] [-t seconds]\n"
    "                      [--strict] [--summary | --no-summary] [--table]\n"
    "                      [--prometheus addr:port [--prometheus-expire seconds]\n"
    "                       [--prometheus-max-series n]]\n"
    "                      [-W drops.pcapng] [-f host/port]... [--agent address]... "
    "[--source t:i]...\n"
    "                      [--type flow|counters|drop|event]... [--reason name]...\n";

static void usage(FILE *fp)
{
	fputs(synopsis, fp);
	fputs("  -p PORT     UDP port to listen on (default 6343; 0 = any free port);\n"
	      "              with -r: only datagrams sent to PORT\n"
	      "  -b ADDR     bind to this address (default: all, IPv4 and IPv6)\n"
	      "  -4, -6      IPv4 only, IPv6 only\n"
	      "  -r FILE     read datagrams from a pcap file instead of the network\n"
	      "  -w FILE     write sampled and discarded packet headers to a pcap file\n"
	      "              (- for standard output alone)\n"
	      "  -W FILE, --write-drops FILE  discarded packet headers to FILE (pcapng, the\n"
	      "              drop's reason and where as each packet's comment), apart from -w's\n"
	      "  -j          JSON output, one object per datagram per line\n"
	      "  -l          one CSV line per sample (FLOW, CNTR, DROP, EVENT)\n"
	      "  -g          one line per field, prefixed with agent, source, sample type\n"
	      "  -f H/P      forward every datagram as received to host H port P (repeatable)\n"
	      "  --agent A, --source T:I, --type flow|counters|drop|event, --reason NAME\n"
	      "              show only the matching samples (each repeatable)\n"
	      "  -e ENT      enterprise number of bsflowd's own structures (default 32473)\n"
	      "  -c N        stop after N datagrams\n"
	      "  -t S        stop after S seconds (capture time with -r)\n"
	      "  -q          no per-datagram output, only checks and summary\n"
	      "  --strict    exit 2 at the first malformed datagram, sampler mismatch\n"
	      "              or bad event sample\n"
	      "  --summary   print the exit summary on stdout instead of stderr\n"
	      "  --no-summary  no exit summary\n"
	      "  --table     instead of per-datagram output, a per-port table (peak\n"
	      "              buffer %, discards, drops by reason, queue delay,\n"
	      "              visibility events) redrawn at most twice a second as\n"
	      "              datagrams arrive\n"
	      "  --prometheus ADDR:PORT  serve the decoded values on http://ADDR:PORT/metrics\n"
	      "              (Prometheus text format, or OpenMetrics when asked)\n"
	      "  --prometheus-expire S   forget series not renewed for S seconds (default 300)\n"
	      "  --prometheus-max-series N  at most N series (default 20000)\n"
	      "  -h, -V      help, version\n",
	      fp);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bsflow-collect: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(synopsis, stderr);
	return COLLECT_EXIT_USAGE;
}

/* Parse an unsigned decimal number in [min, max]; 0 on success. */
static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

#define SHORT_OPTS ":p:b:r:w:W:je:c:t:q46hVlgf:"

/* The name of the option getopt just rejected, for the message: an
 * unknown long option (optopt 0) or a long option missing its argument is
 * the argument getopt just passed; anything else is the short option. */
static const char *bad_option(char **argv, int optind_now, char *buf, size_t n)
{
	const char *prev = optind_now > 0 ? argv[optind_now - 1] : "";

	if (optopt == 0 ||
	    (optopt < 256 && strchr(SHORT_OPTS, optopt) && strncmp(prev, "--", 2) == 0))
		return prev;
	snprintf(buf, n, "-%c", optopt < 256 ? optopt : '?');
	return buf;
}

static int parse_args(int argc, char **argv, struct collect_opts *o, struct collect_forward **fwd)
{
	char ferr[256];

	int ch;
	uint64_t v;
	char *end, ob[8];

	memset(o, 0, sizeof(*o));
	o->port = COLLECT_DEFAULT_PORT;
	o->own_enterprise = SFLOW_ENT_OWN_DEFAULT;
	o->fmt = COLLECT_FMT_TEXT;
	o->prom_expire = COLLECT_PROM_EXPIRE_DEFAULT;
	o->filter.own_enterprise = SFLOW_ENT_OWN_DEFAULT;
	o->prom_max = COLLECT_PROM_MAX_SERIES_DEFAULT;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, SHORT_OPTS, long_opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (parse_u64(optarg, 0, 65535, &v))
				return usage_error("-p: '%s' is not a UDP port (0..65535)", optarg);
			o->port = (uint16_t)v;
			o->port_given = 1;
			break;
		case 'b':
			o->bind_addr = optarg;
			break;
		case 'r':
			o->read_file = optarg;
			break;
		case 'w':
			o->write_file = optarg;
			break;
		case 'j':
			o->fmt = COLLECT_FMT_JSON;
			break;
		case 'e':
			if (parse_u64(optarg, 1, 0xfffff, &v))
				return usage_error(
				    "-e: '%s' is not an enterprise number (1..1048575)", optarg);
			o->own_enterprise = (uint32_t)v;
			break;
		case 'c':
			if (parse_u64(optarg, 1, UINT64_MAX, &v))
				return usage_error("-c: '%s' is not a count (1 or more)", optarg);
			o->max_datagrams = v;
			break;
		case 't':
			errno = 0;
			o->max_seconds = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->max_seconds > 0) ||
			    o->max_seconds > 1e9)
				return usage_error("-t: '%s' is not a number of seconds (> 0)",
						   optarg);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case '4':
			o->family = 4;
			break;
		case '6':
			o->family = 6;
			break;
		case OPT_STRICT:
			o->strict = 1;
			break;
		case OPT_SUMMARY:
			o->summary_stdout = 1;
			break;
		case OPT_NO_SUMMARY:
			o->no_summary = 1;
			break;
		case OPT_TABLE:
			o->table = 1;
			o->quiet = 1;
			break;
		case OPT_PROM:
			o->prometheus = optarg;
			break;
		case 'l':
		case 'g':
			o->lines = ch;
			break;
		case 'f':
			if (collect_forward_add(fwd, optarg, ferr, sizeof ferr) < 0)
				return usage_error("-f: %s", ferr);
			break;
		case OPT_AGENT:
			if (collect_filter_agent(&o->filter, optarg, ferr, sizeof ferr) < 0)
				return usage_error("--agent: %s", ferr);
			break;
		case OPT_SOURCE:
			if (collect_filter_source(&o->filter, optarg, ferr, sizeof ferr) < 0)
				return usage_error("--source: '%s': %s", optarg, ferr);
			break;
		case OPT_TYPE:
			if (collect_filter_type(&o->filter, optarg, ferr, sizeof ferr) < 0)
				return usage_error("--type: %s", ferr);
			break;
		case 'W':
			o->drops_file = optarg;
			break;
		case OPT_REASON:
			if (collect_filter_reason(&o->filter, optarg, ferr, sizeof ferr) < 0)
				return usage_error("--reason: %s", ferr);
			break;
		case OPT_PROM_EXPIRE:
			errno = 0;
			o->prom_expire = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->prom_expire > 0) ||
			    o->prom_expire > 1e9)
				return usage_error(
				    "--prometheus-expire: '%s' is not a number of seconds (> 0)",
				    optarg);
			break;
		case OPT_PROM_MAX:
			if (parse_u64(optarg, 1, 100000000, &v))
				return usage_error("--prometheus-max-series: '%s' is not a count "
						   "(1..100000000)",
						   optarg);
			o->prom_max = v;
			break;
		case 'h':
			usage(stdout);
			exit(COLLECT_EXIT_OK);
		case 'V':
			printf("bsflow-collect (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			exit(COLLECT_EXIT_OK);
		case ':':
			return usage_error("%s: option needs an argument",
					   bad_option(argv, optind, ob, sizeof(ob)));
		default:
			return usage_error("%s: unknown option",
					   bad_option(argv, optind, ob, sizeof(ob)));
		}
	}
	if (optind < argc)
		return usage_error("%s: unexpected argument", argv[optind]);
	if (o->write_file && strcmp(o->write_file, "-") == 0) {
		/* the pcap alone on standard output */
		if (o->fmt == COLLECT_FMT_JSON || o->lines || o->table || o->summary_stdout)
			return usage_error("-w -: the pcap goes to standard output alone; "
					   "-j, -l, -g, --table and --summary cannot share it");
		o->quiet = 1;
	}
	if (o->drops_file && strcmp(o->drops_file, "-") == 0) {
		/* the pcapng alone on standard output */
		if (o->fmt == COLLECT_FMT_JSON || o->lines || o->table || o->summary_stdout ||
		    (o->write_file && strcmp(o->write_file, "-") == 0))
			return usage_error(
			    "-W -: the pcapng goes to standard output alone; "
			    "-w -, -j, -l, -g, --table and --summary cannot share it");
		o->quiet = 1;
	}
	if (o->drops_file && o->write_file && strcmp(o->drops_file, o->write_file) == 0 &&
	    strcmp(o->drops_file, "-") != 0)
		return usage_error("-w and -W %s: one file each (both would write it, over each "
				   "other)",
				   o->drops_file);
	if (o->lines && (o->fmt == COLLECT_FMT_JSON || o->table))
		return usage_error("-l and -g are outputs of their own: not with -j or --table");
	if (o->read_file && (o->bind_addr || o->family))
		return usage_error("-r: -b, -4 and -6 apply to the network, not to -r");
	return 0;
}

int main(int argc, char **argv)
{
	struct collect_opts opts;
	struct collect_ctx ctx;
	struct sigaction sa;
	struct collect_httpd *httpd = NULL;
	struct collect_forward *fwd = NULL;
	int rc;
	char err[256];

	rc = parse_args(argc, argv, &opts, &fwd);
	if (rc) {
		collect_forward_free(fwd);
		return rc;
	}
	opts.filter.own_enterprise = opts.own_enterprise;

	memset(&ctx, 0, sizeof(ctx));
	ctx.opts = &opts;
	ctx.stop = &stop_requested;
	ctx.fwd = fwd;
	collect_out_init(&ctx.out, opts.fmt, stdout);
	ctx.out.own_enterprise = opts.own_enterprise;
	/* a capture decoded to a file of its own: write in big batches; live
	 * input, or stdout and stderr one stream (reports must interleave
	 * with the datagrams they follow), one write per datagram */
	ctx.out.batch = opts.read_file && !same_stream(STDOUT_FILENO, STDERR_FILENO);
	ctx.checks = collect_checks_new(stderr, opts.own_enterprise);
	if (!ctx.checks) {
		fprintf(stderr, "bsflow-collect: out of memory\n");
		return COLLECT_EXIT_ERROR;
	}
	if (opts.table) {
		ctx.table = collect_table_new(opts.own_enterprise);
		if (!ctx.table) {
			fprintf(stderr, "bsflow-collect: out of memory\n");
			collect_checks_free(ctx.checks);
			return COLLECT_EXIT_ERROR;
		}
	}
	if (opts.write_file) {
		ctx.pcapw = collect_pcapw_open(opts.write_file, err, sizeof(err));
		if (!ctx.pcapw) {
			fprintf(stderr, "bsflow-collect: -w %s: %s\n", opts.write_file, err);
			collect_checks_free(ctx.checks);
			return COLLECT_EXIT_ERROR;
		}
	}

	if (opts.drops_file) {
		ctx.pcapw_drops = collect_pcapw_open_ng(opts.drops_file, err, sizeof(err));
		if (!ctx.pcapw_drops) {
			fprintf(stderr, "bsflow-collect: -W %s: %s\n", opts.drops_file, err);
			collect_pcapw_close(ctx.pcapw);
			collect_checks_free(ctx.checks);
			return COLLECT_EXIT_ERROR;
		}
	}

	if (opts.prometheus) {
		ctx.prom =
		    collect_prom_new(opts.own_enterprise, opts.prom_expire, (size_t)opts.prom_max);
		if (ctx.prom)
			httpd = collect_httpd_start(opts.prometheus, ctx.prom, err, sizeof(err));
		if (!ctx.prom || !httpd) {
			fprintf(stderr, "bsflow-collect: --prometheus %s: %s\n", opts.prometheus,
				ctx.prom ? err : "out of memory");
			collect_prom_free(ctx.prom);
			collect_checks_free(ctx.checks);
			return COLLECT_EXIT_ERROR;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: poll() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (opts.read_file)
		rc = collect_pcap_run(&ctx);
	else
		rc = collect_udp_run(&ctx);
	if (ctx.exit_code)
		rc = ctx.exit_code;

	collect_httpd_stop(httpd);
	if (collect_forward_errors(fwd))
		fprintf(stderr, "bsflow-collect: -f: %llu datagrams could not be forwarded\n",
			(unsigned long long)collect_forward_errors(fwd));
	collect_forward_free(fwd);
	collect_prom_free(ctx.prom);
	if (ctx.table) {
		collect_table_render(ctx.table, stdout, 0);
		collect_table_free(ctx.table);
	}
	collect_out_flush(&ctx.out);
	if (ctx.pcapw_drops) {
		collect_checks_written(ctx.checks,
				       collect_pcapw_count(ctx.pcapw_drops) +
					   (ctx.pcapw ? collect_pcapw_count(ctx.pcapw) : 0));
		if (collect_pcapw_close(ctx.pcapw_drops) != 0) {
			fprintf(stderr, "bsflow-collect: -W %s: write failed\n", opts.drops_file);
			if (!rc)
				rc = COLLECT_EXIT_ERROR;
		}
	}
	if (ctx.pcapw) {
		if (!ctx.pcapw_drops)
			collect_checks_written(ctx.checks, collect_pcapw_count(ctx.pcapw));
		if (collect_pcapw_close(ctx.pcapw) != 0) {
			fprintf(stderr, "bsflow-collect: -w %s: write failed\n", opts.write_file);
			if (!rc)
				rc = COLLECT_EXIT_ERROR;
		}
	}
	if (!opts.no_summary)
		collect_checks_summary(ctx.checks, opts.summary_stdout ? stdout : stderr);
	collect_checks_free(ctx.checks);
	sflow_decoder_fini(&ctx.dec);
	if (fflush(stdout) != 0 && !rc)
		rc = COLLECT_EXIT_ERROR;
	return rc;
}
