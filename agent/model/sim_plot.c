/*
 * sim_plot.c - the SVG of bsflow-sim --plot (sim_plot.h): points kept per
 * queue as the series runs, drawn at the end with fixed colours, two
 * panels sharing the time axis.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/model/sim_plot.h"

struct point {
	double t;
	uint64_t bytes, peak, drops, p99;
};

struct pq {
	unsigned port, queue;
	int mc;
	struct point *pts;
	size_t n, cap;
	uint64_t max_peak;
};

struct sim_plot {
	struct pq *q;
	size_t nq, capq;
	unsigned chosen; /* queues named on the command line; 0 = pick */
};

#define W	 960
#define PANEL_H	 240
#define LEFT	 90
#define RIGHT	 200
#define TOP	 50
#define GAP	 60
#define PLOT_W	 (W - LEFT - RIGHT)
#define H	 (TOP + 2 * PANEL_H + GAP + 50)
#define NCOLOURS 8

static const char *const colours[NCOLOURS] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e",
					      "#17becf", "#8c564b", "#e377c2", "#7f7f7f"};

struct sim_plot *sim_plot_new(const char *const *queues, unsigned nqueues, char *err, size_t errlen)
{
	struct sim_plot *p = calloc(1, sizeof *p);

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (nqueues > SIM_PLOT_MAX_QUEUES) {
		snprintf(err, errlen, "--plot-queue: at most %d queues", SIM_PLOT_MAX_QUEUES);
		free(p);
		return NULL;
	}
	p->q = calloc(SIM_PLOT_MAX_QUEUES, sizeof *p->q);
	if (!p->q) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->capq = SIM_PLOT_MAX_QUEUES;
	for (unsigned i = 0; i < nqueues; i++) {
		unsigned port, queue;
		char tail;

		if (sscanf(queues[i], "%u:%u%c", &port, &queue, &tail) != 2) {
			snprintf(err, errlen, "--plot-queue %s: not PORT:QUEUE (e.g. 0:3)",
				 queues[i]);
			sim_plot_free(p);
			return NULL;
		}
		p->q[p->nq].port = port;
		p->q[p->nq].queue = queue;
		p->nq++;
	}
	p->chosen = nqueues;
	return p;
}

static struct pq *find(struct sim_plot *p, unsigned port, unsigned queue, int mc)
{
	struct pq *q;

	for (size_t i = 0; i < p->nq; i++)
		if (p->q[i].port == port && p->q[i].queue == queue && p->q[i].mc == mc)
			return &p->q[i];
	if (p->chosen)
		return NULL;
	/* picking: keep every queue seen until the end (bounded by capq) */
	if (p->nq == p->capq) {
		struct pq *n = realloc(p->q, 2 * p->capq * sizeof *n);

		if (!n)
			return NULL;
		memset(n + p->capq, 0, p->capq * sizeof *n);
		p->q = n;
		p->capq *= 2;
	}
	q = &p->q[p->nq++];
	q->port = port;
	q->queue = queue;
	q->mc = mc;
	return q;
}

void sim_plot_add(struct sim_plot *p, double t, unsigned port, unsigned queue, int mc,
		  uint64_t bytes, uint64_t peak_bytes, uint64_t drops, uint64_t delay_p99_ns)
{
	struct pq *q = find(p, port, queue, mc);

	if (!q)
		return;
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 256;
		struct point *n = realloc(q->pts, cap * sizeof *n);

		if (!n)
			return;
		q->pts = n;
		q->cap = cap;
	}
	q->pts[q->n++] = (struct point){t, bytes, peak_bytes, drops, delay_p99_ns};
	if (peak_bytes > q->max_peak)
		q->max_peak = peak_bytes;
}

static int by_peak(const void *a, const void *b)
{
	const struct pq *x = a, *y = b;

	return x->max_peak < y->max_peak ? 1 : x->max_peak > y->max_peak ? -1 : 0;
}

static double xpos(double t, double dur)
{
	return LEFT + (dur > 0 ? t / dur : 0) * PLOT_W;
}

static double ypos(double v, double vmax, int panel)
{
	double top = TOP + panel * (PANEL_H + GAP);

	return top + PANEL_H - (vmax > 0 ? v / vmax : 0) * PANEL_H;
}

static void axes(FILE *out, int panel, const char *label, double vmax, const char *unit, double dur)
{
	double top = TOP + panel * (PANEL_H + GAP);

	fprintf(out,
		"<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#000\"/>\n",
		LEFT, top, PLOT_W, PANEL_H);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">%s</text>\n",
		LEFT, top - 8, label);
	fprintf(out,
		"<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%.4g %s</text>\n",
		LEFT - 6, top + 12, vmax, unit);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">0</text>\n",
		LEFT - 6, top + PANEL_H);
	fprintf(out,
		"<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%.6g s</text>\n",
		LEFT + PLOT_W, top + PANEL_H + 16, dur);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\">0 s</text>\n", LEFT,
		top + PANEL_H + 16);
}

int sim_plot_write(struct sim_plot *p, FILE *out, const char *title, double dur)
{
	double bmax = 0, dmax = 0;
	size_t n;

	if (!p->chosen) {
		qsort(p->q, p->nq, sizeof *p->q, by_peak);
		if (p->nq > 4)
			p->nq = 4;
	}
	n = p->nq;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < p->q[i].n; k++) {
			const struct point *pt = &p->q[i].pts[k];

			if ((double)pt->peak > bmax)
				bmax = (double)pt->peak;
			if ((double)pt->p99 / 1e6 > dmax)
				dmax = (double)pt->p99 / 1e6;
		}
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		W, H, W, H);
	fputs("<text x=\"10\" y=\"24\" font-size=\"16\">bsflow-sim: ", out);
	for (const char *c = title; *c; c++)
		if (*c == '<')
			fputs("&lt;", out);
		else if (*c == '&')
			fputs("&amp;", out);
		else
			fputc(*c, out);
	fputs("</text>\n", out);
	axes(out, 0, "queue occupancy (bytes; dashed: peak in the interval)", bmax, "B", dur);
	axes(out, 1, "queue delay, 99th percentile of the interval", dmax, "ms", dur);
	for (size_t i = 0; i < n; i++) {
		const struct pq *q = &p->q[i];
		const char *col = colours[i % NCOLOURS];

		for (int panel = 0; panel < 2; panel++) {
			for (int dashed = 0; dashed < (panel == 0 ? 2 : 1); dashed++) {
				fprintf(
				    out,
				    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
				    "points=\"",
				    col, dashed ? " stroke-dasharray=\"5,4\"" : "");
				for (size_t k = 0; k < q->n; k++) {
					const struct point *pt = &q->pts[k];
					double v = panel    ? (double)pt->p99 / 1e6
						   : dashed ? (double)pt->peak
							    : (double)pt->bytes;

					fprintf(out, "%.1f,%.1f ", xpos(pt->t, dur),
						ypos(v, panel ? dmax : bmax, panel));
				}
				fputs("\"/>\n", out);
			}
		}
		/* drops: a red tick under the occupancy panel per interval */
		for (size_t k = 0; k < q->n; k++)
			if (q->pts[k].drops)
				fprintf(out,
					"<rect class=\"drop\" x=\"%.1f\" y=\"%d\" width=\"3\" "
					"height=\"10\" fill=\"#d62728\"><title>%llu "
					"drops</title></rect>\n",
					xpos(q->pts[k].t, dur) - 1.5,
					TOP + PANEL_H + 22 + (int)i * 3,
					(unsigned long long)q->pts[k].drops);
		fprintf(out,
			"<rect x=\"%d\" y=\"%zu\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%zu\" font-size=\"13\">port %u queue %u%s</text>\n",
			W - RIGHT + 15, TOP + i * 22, col, W - RIGHT + 35, TOP + i * 22 + 12,
			q->port, q->queue, q->mc ? " mc" : "");
	}
	fprintf(out,
		"<rect x=\"%d\" y=\"%zu\" width=\"14\" height=\"14\" fill=\"#d62728\"/>"
		"<text x=\"%d\" y=\"%zu\" font-size=\"13\">drops in the interval</text>\n",
		W - RIGHT + 15, TOP + n * 22, W - RIGHT + 35, TOP + n * 22 + 12);
	if (n == 0)
		fprintf(out,
			"<text x=\"%d\" y=\"%d\" font-size=\"14\">no queue held, sent or dropped "
			"anything</text>\n",
			LEFT + 20, TOP + 40);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

void sim_plot_free(struct sim_plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->capq; i++)
		free(p->q[i].pts);
	free(p->q);
	free(p);
}
