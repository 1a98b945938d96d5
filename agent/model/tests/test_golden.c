/*
 * test_golden.c - golden digests of the switch model: the regression net
 * behind every "results bit-identical" claim.
 *
 * Each scenario (the examples in etc/scenarios/ and the small ones in
 * agent/model/tests/golden/: WRED and a queue length limit, multicast,
 * DWRR, PFC with XOFF on headroom, marker and non-tagged delays, queue
 * events, ECN marking on an averaged depth) is built from its file with its own seed, run to a
 * fixed virtual time in fixed steps, and everything it reports is folded into five 64-bit FNV-1a
 * digests, one per stream:
 *
 *   events  every event read from the ring (all fields, header bytes)
 *           after each step;
 *   trace   every per-packet trace record (model_set_trace);
 *   peaks   after each step, window w (0..3) is read every (w + 1)
 *           steps, device and every port (CPU port included), so the
 *           windows' peak periods differ;
 *   delays  after each step, model_read_delay of every queue, window
 *           step % 4;
 *   stats   at the end, model_get_stats (all but n_events_processed, an
 *           engine work count that optimisations may change), and every
 *           port's counters and drops.
 *
 * Every value is an integer, fed to the digest as 8 little-endian bytes
 * whatever its C type (never raw struct bytes, whose padding is
 * undefined; fields added later, such as the ECN field and a flow
 * region drop's figures, only when not 0, so that the scenarios without
 * them keep their digests), so the
 * digests do not depend on the compiler, the build
 * flags (sanitizers included) or the host's byte order.  The model's
 * outputs hold no floating-point values; its doubles (alphas, WRED) only
 * decide integers.
 *
 * The expected digests are in agent/model/tests/golden/digests.txt, one
 * line per scenario:  NAME events=HEX/N trace=HEX/N peaks=HEX/N
 * delays=HEX/N stats=HEX/N  (N: records folded).  A mismatch names the
 * scenario and the streams that differ.  `make bless` rewrites the file
 * (this program with --bless FILE); a commit that changes it must say why
 * the model's results changed (README.md, Development).
 *
 * replay.conf needs capture.pcap next to it: the test writes one (frames
 * made here, VLAN 10/20 and untagged, IPv4 and IPv6, to the prefixes of
 * the file's egress_map and elsewhere) and the scenario text is parsed as
 * if it were in that temporary directory.
 *
 * Usage: test_golden [--bless FILE] [--list]   (top_srcdir from the
 * environment, else the configured source directory).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/model/model.h"
#include "agent/model/scenario.h"

enum { S_EVENTS, S_TRACE, S_PEAKS, S_DELAYS, S_STATS, NSTREAMS };
static const char *const stream_names[NSTREAMS] = {"events", "trace", "peaks", "delays", "stats"};

struct dg {
	uint64_t h, n;
};

static void dg_init(struct dg *d)
{
	d->h = 0xcbf29ce484222325ULL; /* FNV-1a 64 offset basis */
	d->n = 0;
}

static void dg_u64(struct dg *d, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++) {
		d->h ^= (uint8_t)(v >> (8 * i));
		d->h *= 0x100000001b3ULL; /* FNV-1a 64 prime */
	}
}

struct scen {
	const char *name;
	const char *file; /* relative to top_srcdir */
	uint64_t run_ns;  /* virtual time */
	uint64_t step_ns; /* reads every step */
	int qev;	  /* queue events on every queue */
	int pcap;	  /* needs capture.pcap beside it */
};

static const struct scen scens[] = {
    {"demo", "etc/scenarios/demo.conf", 60000000, 500000, 0, 0},
    {"incast", "etc/scenarios/incast.conf", 10500000, 100000, 0, 0},
    {"pfc", "etc/scenarios/pfc.conf", 10000000, 50000, 0, 0},
    {"flowbuf", "etc/scenarios/flowbuf.conf", 10000000, 50000, 0, 0},
    {"leaf", "etc/scenarios/leaf.conf", 4000000, 100000, 0, 0},
    {"replay", "etc/scenarios/replay.conf", 5000000, 50000, 0, 1},
    {"wred", "agent/model/tests/golden/wred.conf", 10000000, 50000, 0, 0},
    {"mcast", "agent/model/tests/golden/mcast.conf", 10000000, 50000, 0, 0},
    {"dwrr", "agent/model/tests/golden/dwrr.conf", 10000000, 50000, 0, 0},
    {"pfc_hdrm", "agent/model/tests/golden/pfc_hdrm.conf", 10000000, 50000, 0, 0},
    {"markers", "agent/model/tests/golden/markers.conf", 6000000, 5000, 0, 0},
    {"ecn", "agent/model/tests/golden/ecn.conf", 5000000, 50000, 1, 0},
    {"qevents", "agent/model/tests/golden/qevents.conf", 3000000, 20000, 1, 0},
};
#define NSCEN (sizeof(scens) / sizeof(scens[0]))

struct result {
	struct dg s[NSTREAMS];
};

static const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s && *s ? s : MODEL_TEST_SRCDIR;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* ---------------------------------------------------------------- pcap */

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* 3000 frames, 1 us apart in bursts: frame i's VLAN, family and
 * destination follow from i alone. */
static int write_capture(const char *path)
{
	static uint8_t f[1600];
	pcap_t *p = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *d = p ? pcap_dump_open(p, path) : NULL;

	if (d == NULL) {
		if (p)
			pcap_close(p);
		return -1;
	}
	for (unsigned i = 0; i < 3000; i++) {
		struct pcap_pkthdr h;
		unsigned len = 60 + (i * 7919u) % 1455u, off = 12;
		uint64_t t_us = (uint64_t)i + (i / 100) * 150; /* bursts of 100 */

		memset(f, 0, sizeof(f));
		f[0] = 0x02, f[5] = (uint8_t)(i % 5);	      /* destination */
		f[6] = 0x02, f[11] = (uint8_t)(i * 13 % 251); /* source */
		if (i % 3 != 0) {
			put16(f + 12, 0x8100);
			put16(f + 14, i % 3 == 1 ? 10 : 20);
			off = 16;
		}
		if (i % 4 == 3) { /* IPv6 to 2001:db8::/32 or fd00::/8 */
			put16(f + off, 0x86dd);
			uint8_t *ip = f + off + 2;
			ip[0] = 0x60;
			put16(ip + 4, len - off - 2 - 40);
			ip[6] = 17;
			ip[7] = 64;
			ip[8] = 0xfd, ip[23] = (uint8_t)i;
			if (i % 8 == 3)
				ip[24] = 0x20, ip[25] = 0x01, ip[26] = 0x0d, ip[27] = 0xb8;
			else
				ip[24] = 0xfd;
			ip[39] = (uint8_t)(i % 7);
		} else { /* IPv4 to 192.0.2.x or 198.51.100.x */
			put16(f + off, 0x0800);
			uint8_t *ip = f + off + 2;
			ip[0] = 0x45;
			put16(ip + 2, len - off - 2);
			ip[8] = 64;
			ip[9] = 17;
			ip[12] = 10, ip[15] = (uint8_t)i;
			if (i % 2 == 0)
				ip[16] = 192, ip[17] = 0, ip[18] = 2;
			else
				ip[16] = 198, ip[17] = 51, ip[18] = 100;
			ip[19] = (uint8_t)(i % 11);
		}
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(t_us / 1000000);
		h.ts.tv_usec = (suseconds_t)(t_us % 1000000);
		h.len = h.caplen = len;
		pcap_dump((u_char *)d, &h, f);
	}
	pcap_dump_close(d);
	pcap_close(p);
	return 0;
}

/* ---------------------------------------------------------------- folds */

static void fold_trace(void *arg, const struct model_trace *t)
{
	struct dg *d = arg;

	dg_u64(d, t->departed);
	dg_u64(d, t->cause);
	dg_u64(d, t->queue);
	dg_u64(d, t->mc);
	dg_u64(d, t->in_port);
	dg_u64(d, t->out_port);
	dg_u64(d, t->len);
	dg_u64(d, t->flow_id);
	dg_u64(d, t->t_arr_ns);
	dg_u64(d, t->t_ns);
	dg_u64(d, t->depth_bytes);
	dg_u64(d, (uint64_t)t->nt_latency_ns);
	if (t->ecn) /* (folded when set: the digests of before stay) */
		dg_u64(d, 0x100u | t->ecn);
	d->n++;
}

static void fold_event(struct dg *d, const struct model_event *e)
{
	dg_u64(d, e->type);
	dg_u64(d, e->queue);
	dg_u64(d, e->mc);
	dg_u64(d, e->cause);
	dg_u64(d, e->reason);
	dg_u64(d, e->in_port);
	dg_u64(d, e->out_port);
	dg_u64(d, e->tc);
	dg_u64(d, e->pg);
	dg_u64(d, e->pfc_on);
	dg_u64(d, e->t_ns);
	dg_u64(d, e->delay_ns);
	dg_u64(d, e->pkt_id);
	dg_u64(d, e->tail_id);
	dg_u64(d, e->copy_id);
	dg_u64(d, e->depth_bytes);
	dg_u64(d, e->len);
	dg_u64(d, e->flow_id);
	dg_u64(d, e->hdr_len);
	for (unsigned i = 0; i < e->hdr_len && i < MODEL_EVENT_HDR_MAX; i++)
		dg_u64(d, e->hdr[i]);
	if (e->ecn)
		dg_u64(d, 0x100u | e->ecn);
	if (e->fb_drop) {
		dg_u64(d, e->fb_drop);
		dg_u64(d, e->fb_region);
		for (unsigned i = 0; i < 3; i++)
			dg_u64(d, e->fb_pc[i]);
		dg_u64(d, e->fb_count);
		dg_u64(d, e->fb_bound);
	}
	d->n++;
}

static void fold_occ(struct dg *d, const struct model_occ *o)
{
	dg_u64(d, o->cur_cells);
	dg_u64(d, o->peak_cells);
	dg_u64(d, o->cur_bytes);
	dg_u64(d, o->peak_bytes);
	dg_u64(d, o->peak_t_ns);
	dg_u64(d, o->alloc_cells);
	d->n++;
}

static void fold_port_buffers(struct dg *d, const struct model_port_buffers *b,
			      const struct model_port_config *pc)
{
	fold_occ(d, &b->ing_uc);
	fold_occ(d, &b->ing_mc);
	fold_occ(d, &b->egr_uc);
	fold_occ(d, &b->egr_mc);
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		fold_occ(d, &b->pg[g]);
		fold_occ(d, &b->pg_headroom[g]);
	}
	for (unsigned q = 0; q < pc->n_ucq; q++)
		fold_occ(d, &b->ucq[q]);
	for (unsigned q = 0; q < pc->n_mcq; q++)
		fold_occ(d, &b->mcq[q]);
	dg_u64(d, b->pfc_paused);
}

static void fold_delay(struct dg *d, const struct model_delay *x)
{
	dg_u64(d, x->nt_latest_ns);
	dg_u64(d, x->nt_max_ns);
	dg_u64(d, x->nt_count);
	dg_u64(d, x->nt_win_count);
	dg_u64(d, x->mk_delay_ns);
	dg_u64(d, x->mk_max_ns);
	dg_u64(d, x->n);
	dg_u64(d, x->sum_ns);
	dg_u64(d, x->max_ns);
	for (unsigned i = 0; i < MODEL_DELAY_HIST; i++)
		dg_u64(d, x->hist[i]);
	d->n++;
}

static void fold_stats(struct dg *d, struct model *m)
{
	const struct model_config *cfg = model_config_of(m);
	struct model_stats s;

	model_get_stats(m, &s);
	dg_u64(d, s.arrived);
	dg_u64(d, s.fwd_dropped);
	dg_u64(d, s.ing_dropped);
	dg_u64(d, s.admitted);
	dg_u64(d, s.copies);
	dg_u64(d, s.copies_dropped);
	dg_u64(d, s.copies_departed);
	dg_u64(d, s.copies_buffered);
	dg_u64(d, s.pkts_buffered);
	dg_u64(d, s.held);
	dg_u64(d, s.bad_pkts);
	dg_u64(d, s.events_lost);
	dg_u64(d, s.events);
	dg_u64(d, s.cells_used);
	if (s.ecn_marked)
		dg_u64(d, s.ecn_marked);
	d->n++;
	for (unsigned p = 0; p <= cfg->nports; p++) {
		struct model_if_counters c;
		struct model_port_drops dr;

		model_read_counters(m, p, &c);
		model_read_drops(m, p, &dr);
		dg_u64(d, c.in_octets);
		dg_u64(d, c.in_ucast);
		dg_u64(d, c.in_mcast);
		dg_u64(d, c.in_bcast);
		dg_u64(d, c.in_discards);
		dg_u64(d, c.out_octets);
		dg_u64(d, c.out_ucast);
		dg_u64(d, c.out_mcast);
		dg_u64(d, c.out_bcast);
		dg_u64(d, c.out_discards);
		dg_u64(d, c.sample_pool);
		dg_u64(d, c.samples_marked);
		dg_u64(d, c.samples_dropped);
		dg_u64(d, c.samples_lost);
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			dg_u64(d, c.pfc_xoff[g]);
		for (unsigned k = 0; k < MODEL_DROP_NCAUSES; k++) {
			dg_u64(d, dr.in[k]);
			dg_u64(d, dr.out[k]);
			for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
				dg_u64(d, dr.ucq[q][k]);
				dg_u64(d, dr.mcq[q][k]);
			}
		}
		for (unsigned q = 0; dr.ecn && q < MODEL_MAX_QUEUES; q++) {
			dg_u64(d, dr.ecn_ucq[q]);
			dg_u64(d, dr.ecn_mcq[q]);
		}
		d->n++;
	}
}

/* ---------------------------------------------------------------- run */

static const struct model_port_config *port_cfg(const struct model_config *cfg, unsigned p)
{
	return p < cfg->nports ? &cfg->ports[p] : &cfg->cpu;
}

/* Run scenario sc into *r; 0, or -1 with a message printed. */
static int run_scen(const struct scen *sc, struct result *r)
{
	static struct model_event ev[256];
	struct model_scenario s;
	char path[4096], dir[] = "/tmp/test_golden.XXXXXX", pcap[64], conf[64], err[512];
	char *text = NULL;
	struct model *m = NULL;
	int rc = -1;

	for (unsigned i = 0; i < NSTREAMS; i++)
		dg_init(&r->s[i]);
	memset(&s, 0, sizeof(s));
	snprintf(path, sizeof(path), "%s/%s", srcdir(), sc->file);
	if (sc->pcap) {
		/* the scenario as if it were in a directory with its capture */
		text = read_text(path);
		if (text == NULL || mkdtemp(dir) == NULL) {
			fprintf(stderr, "%s: %s: cannot read it or make a directory\n", sc->name,
				path);
			goto out;
		}
		snprintf(pcap, sizeof(pcap), "%s/capture.pcap", dir);
		snprintf(conf, sizeof(conf), "%s/replay.conf", dir);
		if (write_capture(pcap) < 0) {
			fprintf(stderr, "%s: cannot write %s\n", sc->name, pcap);
			goto out;
		}
		if (model_scenario_parse_text(text, conf, NULL, &s, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", sc->name, err);
			goto out;
		}
	} else if (model_scenario_parse_file(path, NULL, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", sc->name, err);
		goto out;
	}
	m = model_scenario_build(&s, err, sizeof(err));
	if (m == NULL) {
		fprintf(stderr, "%s: %s\n", sc->name, err);
		goto out;
	}
	const struct model_config *cfg = model_config_of(m);
	model_set_trace(m, fold_trace, &r->s[S_TRACE]);
	for (unsigned p = 0; sc->qev && p <= cfg->nports; p++) {
		const struct model_port_config *pc = port_cfg(cfg, p);
		for (unsigned q = 0; q < pc->n_ucq; q++)
			model_set_queue_events(m, p, q, 0, MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE,
					       NULL);
		for (unsigned q = 0; q < pc->n_mcq; q++)
			model_set_queue_events(m, p, q, 1, MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE,
					       NULL);
	}
	struct model_port_buffers pb;
	struct model_device_buffers db;
	struct model_delay dl;
	unsigned k = 0;
	for (uint64_t t = sc->step_ns; t <= sc->run_ns; t += sc->step_ns, k++) {
		size_t n;

		model_advance_to(m, t);
		while ((n = model_events_read(m, ev, sizeof(ev) / sizeof(ev[0]))) > 0)
			for (size_t i = 0; i < n; i++)
				fold_event(&r->s[S_EVENTS], &ev[i]);
		for (unsigned w = 0; w < MODEL_NUM_WINDOWS; w++) {
			if ((k + 1) % (w + 1) != 0)
				continue;
			model_read_device_buffers(m, w, &db);
			dg_u64(&r->s[S_PEAKS], db.t_ns);
			fold_occ(&r->s[S_PEAKS], &db.dev_uc);
			fold_occ(&r->s[S_PEAKS], &db.dev_mc);
			for (unsigned i = 0; i < MODEL_MAX_POOLS; i++) {
				fold_occ(&r->s[S_PEAKS], &db.ing_pool[i]);
				fold_occ(&r->s[S_PEAKS], &db.egr_pool[i]);
			}
			for (unsigned p = 0; p <= cfg->nports; p++) {
				model_read_port_buffers(m, w, p, &pb);
				fold_port_buffers(&r->s[S_PEAKS], &pb, port_cfg(cfg, p));
			}
		}
		for (unsigned p = 0; p <= cfg->nports; p++) {
			const struct model_port_config *pc = port_cfg(cfg, p);
			for (unsigned q = 0; q < pc->n_ucq; q++) {
				model_read_delay(m, k % MODEL_NUM_WINDOWS, p, q, 0, &dl);
				fold_delay(&r->s[S_DELAYS], &dl);
			}
			for (unsigned q = 0; q < pc->n_mcq; q++) {
				model_read_delay(m, k % MODEL_NUM_WINDOWS, p, q, 1, &dl);
				fold_delay(&r->s[S_DELAYS], &dl);
			}
		}
	}
	fold_stats(&r->s[S_STATS], m);
	struct model_err me;
	if (model_audit(m, &me) < 0) {
		fprintf(stderr, "%s: model_audit: %s\n", sc->name, me.msg);
		goto out;
	}
	rc = 0;
out:
	if (m)
		model_free(m);
	model_scenario_free(&s);
	if (sc->pcap && text != NULL) {
		unlink(pcap);
		rmdir(dir);
	}
	free(text);
	return rc;
}

static void format_line(char *buf, size_t n, const char *name, const struct result *r)
{
	int o = snprintf(buf, n, "%s", name);
	for (unsigned i = 0; i < NSTREAMS && o > 0 && (size_t)o < n; i++)
		o += snprintf(buf + o, n - (size_t)o, " %s=%016llx/%llu", stream_names[i],
			      (unsigned long long)r->s[i].h, (unsigned long long)r->s[i].n);
}

/* The expected line of scenario `name` in the digests file, or NULL. */
static const char *find_line(const char *text, const char *name, char *out, size_t n)
{
	size_t nl = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, nl) == 0 && p[nl] == ' ') {
			size_t l = strcspn(p, "\n");
			if (l >= n)
				l = n - 1;
			memcpy(out, p, l);
			out[l] = 0;
			return out;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *bless = NULL;
	char path[4096];
	FILE *out = NULL;
	char *expected = NULL;
	int bad = 0;

	if (argc == 3 && strcmp(argv[1], "--bless") == 0) {
		bless = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: test_golden [--bless FILE]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/agent/model/tests/golden/digests.txt", srcdir());
	if (bless) {
		out = fopen(bless, "w");
		if (out == NULL) {
			fprintf(stderr, "test_golden: cannot write %s\n", bless);
			return 1;
		}
		fprintf(out,
			"# Golden digests of the switch model (test_golden.c; regenerate with\n"
			"# `make bless` and say in the commit why they changed).\n");
	} else {
		expected = read_text(path);
		if (expected == NULL) {
			fprintf(stderr, "test_golden: cannot read %s\n", path);
			return 1;
		}
	}
	for (unsigned i = 0; i < NSCEN; i++) {
		struct result r;
		char line[512], want[512];
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		if (run_scen(&scens[i], &r) < 0) {
			bad = 1;
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		format_line(line, sizeof(line), scens[i].name, &r);
		printf("%s  (%.2f s)\n", line,
		       (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
		if (out) {
			fprintf(out, "%s\n", line);
			continue;
		}
		if (find_line(expected, scens[i].name, want, sizeof(want)) == NULL) {
			printf("FAIL: %s: no line in %s (run make bless)\n", scens[i].name, path);
			bad = 1;
			continue;
		}
		if (strcmp(line, want) == 0)
			continue;
		bad = 1;
		printf("FAIL: %s differs from %s\n  want %s\n", scens[i].name, path, want);
		for (unsigned k = 0; k < NSTREAMS; k++) {
			char key[32];
			snprintf(key, sizeof(key), " %s=", stream_names[k]);
			const char *x = strstr(line, key), *y = strstr(want, key);
			if (x == NULL || y == NULL || strcspn(x + 1, " ") != strcspn(y + 1, " ") ||
			    strncmp(x, y, strcspn(x + 1, " ") + 1) != 0)
				printf("  stream %s differs\n", stream_names[k]);
		}
	}
	if (out && fclose(out) != 0) {
		fprintf(stderr, "test_golden: cannot write %s\n", bless);
		return 1;
	}
	free(expected);
	if (bless)
		printf("wrote %s\n", bless);
	return bad;
}
