/*
 * test_conf_keys.c - every key bsflowd.conf accepts is documented, and
 * every key documented is accepted: the keys of the code are those of its
 * libconfuse option tables (conf_opts(), walked at run time, the model's
 * and the visibility section's included), compared both ways with
 *  - bsflowd.conf(5): the keys named with Cm in the part of the page about
 *    each section (its .Sh / .Ss headings), and the .It Cm entries there;
 *  - the commented etc/bsflowd.conf: its keys and sections, commented out
 *    ("#key" or "#<tab>key") or not; "# " starts prose.
 * A key is named by its path of sections: "model.traffic.rate".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <confuse.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/conf.h"

#define MAXKEYS 1024

struct keys {
	char *k[MAXKEYS];
	int n;
};

static void add(struct keys *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->k[i], k) == 0)
			return;
	ck_assert_int_lt(s->n, MAXKEYS);
	s->k[s->n++] = strdup(k);
}

static int has(const struct keys *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->k[i], k) == 0)
			return 1;
	return 0;
}

static void release(struct keys *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->k[i]);
	s->n = 0;
}

/* The code's keys: "agent", "agent.address", ... */
static void walk(cfg_opt_t *opts, const char *prefix, struct keys *out)
{
	for (cfg_opt_t *o = opts; o && o->name; o++) {
		char path[256];

		snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", o->name);
		add(out, path);
		if (o->type == CFGT_SEC)
			walk(o->subopts, path, out);
	}
}

static char *slurp(const char *rel)
{
	const char *src = getenv("top_srcdir");
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof path, "%s/%s", src ? src : "..", rel);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* ---- the man page ---- */

/* Which sections the text under a heading documents (the first is where
 * its .It Cm entries belong; the others are also looked in). */
static const struct {
	const char *heading;
	const char *sect[4];
} regions[] = {
    {"GLOBAL KEYS", {"", NULL}},
    {"AGENT SECTION", {"agent", ""}},
    {"COLLECTOR SECTIONS", {"collector", ""}},
    {"PLUGIN SECTION", {"plugin", ""}},
    {"LINUX SECTION", {"linux", ""}},
    {"SONIC SECTION", {"sonic", ""}},
    {"SAMPLING SECTION", {"sampling", "", "sampling.port"}},
    {"DROPS SECTION", {"drops", ""}},
    {"VISIBILITY SECTION", {"visibility", ""}},
    {"Monitors", {"visibility", NULL}},
    {"Eligibility section", {"visibility.eligible", "visibility"}},
    {"Delay profile sections", {"visibility.delay_profile", "visibility"}},
    {"Congestion sections", {"visibility.congestion", "visibility"}},
    {"Sampler sections", {"visibility.sampler", "visibility"}},
    {"MODEL SECTION", {"model", ""}},
    {"The switch", {"model", NULL}},
    {"Port sections", {"model.port", "model"}},
    {"Queue sections",
     {"model.queue", "model.mc_queue", "model.port.queue", "model.port.mc_queue"}},
    {"Priority group sections", {"model.pg", "model.port.pg"}},
    {"WRED sections", {"model.wred", "model"}},
    {"Multicast group sections", {"model.mc_group", "model"}},
    {"Traffic sections", {"model.traffic", "model"}},
    {"Replay sections", {"model.replay", "model"}},
    {"Ingress arbitration section", {"model.ingress_arbitration", "model"}},
    {"Flow admission section", {"model.flow_admission", "model"}},
    {"Flow admission rule sections", {"model.flow_admission.rule", "model.flow_admission"}},
};
#define NREGIONS ((int)(sizeof regions / sizeof regions[0]))

static int is_macro(const char *t)
{
	static const char *const m[] = {"No",  "Ar", "Ns", "Brq", "Pq", "Qq", "Ql", "Li", "Op",
					"Dq",  "Sq", "Xr", "Fl",  "Va", "Ic", "Em", "Sy", "Bro",
					"Brc", "Qo", "Qc", "Oo",  "Oc", "Cm", NULL};

	for (int i = 0; m[i]; i++)
		if (strcmp(t, m[i]) == 0)
			return 1;
	return 0;
}

/* The words of an mdoc line after Cm: ".It Cm a , b No = ..." gives a, b;
 * with items, only those of an .It Cm line. */
static void cm_words(const char *line, void (*fn)(void *, const char *, int), void *arg)
{
	char buf[512], *save = NULL, *t;
	int it = strncmp(line, ".It Cm ", 7) == 0, in = 0;

	snprintf(buf, sizeof buf, "%s", line);
	for (t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (strcmp(t, "Cm") == 0 || strcmp(t, ".Cm") == 0) {
			in = 1;
			continue;
		}
		if (!in)
			continue;
		if (strcmp(t, ",") == 0)
			continue;
		if (is_macro(t) || strchr("|.;:(){}=", t[0])) {
			in = 0;
			it = 0;
			continue;
		}
		fn(arg, t, it);
	}
}

struct man_ctx {
	int region;
	struct keys *mentioned[NREGIONS]; /* Cm words of each region */
	struct keys *items[NREGIONS];	  /* .It Cm words */
};

static void man_word(void *arg, const char *w, int it)
{
	struct man_ctx *m = arg;

	if (m->region < 0)
		return;
	add(m->mentioned[m->region], w);
	if (it)
		add(m->items[m->region], w);
}

static void man_keys(struct keys *mentioned, struct keys *items)
{
	char *text = slurp("man/bsflowd.conf.5"), *save = NULL;
	struct man_ctx m = {.region = -1};

	for (int i = 0; i < NREGIONS; i++) {
		m.mentioned[i] = &mentioned[i];
		m.items[i] = &items[i];
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, ".Sh ", 4) == 0 || strncmp(l, ".Ss ", 4) == 0) {
			int sh = l[2] == 'h', found = -1;

			for (int i = 0; i < NREGIONS; i++)
				if (strcmp(l + 4, regions[i].heading) == 0)
					found = i;
			/* an .Ss not listed stays in its .Sh's region */
			if (found >= 0 || sh)
				m.region = found;
			continue;
		}
		cm_words(l, man_word, &m);
	}
	free(text);
}

/* ---- etc/bsflowd.conf ---- */

/* The keys of a libconfuse text (comments already out): sections and
 * key = value, values and lists skipped. */
static void conf_text_keys(const char *t, struct keys *out)
{
	char stack[8][128];
	int depth = 0;
	const char *p = t;

	while (*p) {
		char word[128];
		size_t n = 0;
		const char *q;

		if (isspace((unsigned char)*p) || *p == ',') {
			p++;
			continue;
		}
		if (*p == '}') {
			ck_assert_int_gt(depth, 0);
			depth--;
			p++;
			continue;
		}
		while (*p && !isspace((unsigned char)*p) && !strchr("{}=,\"", *p) && n < 127)
			word[n++] = *p++;
		word[n] = '\0';
		ck_assert_msg(n > 0, "etc/bsflowd.conf: cannot read at '%.20s'", p);
		q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '"' || (*q && !strchr("{}=", *q) && !isspace((unsigned char)*q))) {
			/* a title */
			if (*q == '"') {
				q = strchr(q + 1, '"');
				ck_assert_ptr_nonnull(q);
				q++;
			} else {
				while (*q && !isspace((unsigned char)*q) && *q != '{')
					q++;
			}
			while (isspace((unsigned char)*q))
				q++;
		}
		{
			char path[1200] = "";

			for (int i = 0; i < depth; i++) {
				strcat(path, stack[i]);
				strcat(path, ".");
			}
			strcat(path, word);
			add(out, path);
		}
		if (*q == '{') {
			ck_assert_int_lt(depth, 8);
			snprintf(stack[depth++], sizeof stack[0], "%s", word);
			p = q + 1;
			continue;
		}
		ck_assert_msg(*q == '=', "etc/bsflowd.conf: no = after %s", word);
		q++;
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '{') {
			while (*q && *q != '}')
				q++;
			p = *q ? q + 1 : q;
		} else if (*q == '"') {
			q = strchr(q + 1, '"');
			ck_assert_ptr_nonnull(q);
			p = q + 1;
		} else {
			while (*q && !isspace((unsigned char)*q) && *q != '}')
				q++;
			p = q;
		}
	}
	ck_assert_int_eq(depth, 0);
}

static void etc_keys(struct keys *out)
{
	char *text = slurp("etc/bsflowd.conf");
	size_t n = strlen(text);
	char *t = malloc(n + 1), *o = t;

	ck_assert_ptr_nonnull(t);
	/* keep what is config: a line's text before a comment, and the text
	 * of "#key" and "#<tab>key" lines (commented-out settings) */
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		int quote = 0;

		if (l[0] == '#' && len > 1 && l[1] != ' ' && l[1] != '#')
			l++, len--;
		else if (l[0] == '#')
			len = 0;
		for (size_t i = 0; i < len; i++) {
			if (l[i] == '"')
				quote = !quote;
			if (l[i] == '#' && !quote)
				break;
			*o++ = l[i];
		}
		*o++ = '\n';
		l += e ? (size_t)(e - l) + 1 : strlen(l);
	}
	*o = '\0';
	conf_text_keys(t, out);
	free(t);
	free(text);
}

/* ---- the tests ---- */

START_TEST(man_page_both_ways)
{
	static struct keys code, mentioned[NREGIONS], items[NREGIONS];
	int missing = 0;

	walk(conf_opts(), "", &code);
	man_keys(mentioned, items);
	/* accepted -> documented: named in a region about its section */
	for (int i = 0; i < code.n; i++) {
		const char *k = code.k[i];
		int ok = 0;

		/* a key of section S is "S.key" (a key may hold a dot: 2.5G) */
		for (int r = 0; r < NREGIONS && !ok; r++) {
			for (int j = 0; j < 4 && !ok; j++) {
				const char *sect = regions[r].sect[j];
				size_t n = sect ? strlen(sect) : 0;

				if (!sect)
					continue;
				if (n == 0)
					ok = has(&mentioned[r], k);
				else if (strncmp(k, sect, n) == 0 && k[n] == '.')
					ok = has(&mentioned[r], k + n + 1);
			}
		}
		if (!ok) {
			fprintf(stderr, "bsflowd.conf(5) does not document %s\n", k);
			missing++;
		}
	}
	/* documented -> accepted: every .It Cm entry is a key of its section
	 * (or, for a section's own entry, of the one above) */
	for (int r = 0; r < NREGIONS; r++) {
		for (int i = 0; i < items[r].n; i++) {
			int ok = 0;

			for (int j = 0; j < 4 && !ok; j++) {
				char path[256];
				const char *s = regions[r].sect[j];

				if (!s)
					continue;
				snprintf(path, sizeof path, "%s%s%s", s, *s ? "." : "",
					 items[r].k[i]);
				ok = has(&code, path);
			}
			if (!ok) {
				fprintf(stderr, "bsflowd.conf(5), %s: %s is not a key\n",
					regions[r].heading, items[r].k[i]);
				missing++;
			}
		}
	}
	ck_assert_int_eq(missing, 0);
	release(&code);
	for (int r = 0; r < NREGIONS; r++) {
		release(&mentioned[r]);
		release(&items[r]);
	}
}
END_TEST

START_TEST(etc_conf_both_ways)
{
	static struct keys code, etc;
	int missing = 0;

	walk(conf_opts(), "", &code);
	etc_keys(&etc);
	for (int i = 0; i < code.n; i++) {
		if (!has(&etc, code.k[i])) {
			fprintf(stderr, "etc/bsflowd.conf does not show %s\n", code.k[i]);
			missing++;
		}
	}
	for (int i = 0; i < etc.n; i++) {
		if (!has(&code, etc.k[i])) {
			fprintf(stderr, "etc/bsflowd.conf: %s is not a key\n", etc.k[i]);
			missing++;
		}
	}
	ck_assert_int_eq(missing, 0);
	release(&code);
	release(&etc);
}
END_TEST

/* The comparison can fail: a key the code does not have is seen. */
START_TEST(checker_sees_unknown)
{
	static struct keys k;

	conf_text_keys("a { b = 1\n c \"t\" { d = {1, 2} } }\ne = x\n", &k);
	ck_assert_int_eq(k.n, 5);
	ck_assert(has(&k, "a") && has(&k, "a.b") && has(&k, "a.c") && has(&k, "a.c.d") &&
		  has(&k, "e"));
	release(&k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conf_keys");
	TCase *tc = tcase_create("conf_keys");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, checker_sees_unknown);
	tcase_add_test(tc, man_page_both_ways);
	tcase_add_test(tc, etc_conf_both_ways);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
