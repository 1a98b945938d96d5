/*
 * test_conf.c - configuration parsing: a good file with every key, the
 * defaults, each kind of bad input with its exact "FILE:LINE: message",
 * a missing file, the built-in default, the shipped etc/bsflowd.conf,
 * when a reload must reopen the backend, and the visibility section (its
 * values, its errors with FILE:LINE, a bare byte suffix refused, when a
 * reload changes it); the right line after comments of each kind.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/conf.h"
#include "agent/confval.h"

START_TEST(good_file)
{
	static const char text[] = "# a full configuration\n"
				   "agent {\n"
				   "  address = 192.0.2.1\n"
				   "  sub_agent_id = 7\n"
				   "  enterprise = 99999\n"
				   "}\n"
				   "polling_interval = 5\n"
				   "datagram_bytes = 8000\n"
				   "collector \"a\" {\n"
				   "  address = 127.0.0.1\n"
				   "}\n"
				   "collector b {\n"
				   "  address = collector.example\n"
				   "  port = 16343\n"
				   "  source = ::1\n"
				   "  device = mgmt\n"
				   "}\n"
				   "backend = \"/opt/x/backend.so\"\n"
				   "plugin {\n"
				   "  option = {\"asic=0\", \"unit=2\"}\n"
				   "}\n";
	char path[] = "/tmp/bsfconfXXXXXX";
	char err[1024];
	int fd = mkstemp(path);
	struct conf *c;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	c = conf_load_file(path, err, sizeof err);
	unlink(path);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->file, path);
	ck_assert_str_eq(c->agent_address, "192.0.2.1");
	ck_assert_uint_eq(c->sub_agent_id, 7);
	ck_assert_uint_eq(c->enterprise, 99999);
	ck_assert_uint_eq(c->polling_interval, 5);
	ck_assert_uint_eq(c->datagram_bytes, 8000);
	ck_assert_uint_eq(c->n_collectors, 2);
	ck_assert_str_eq(c->collectors[0].name, "a");
	ck_assert_str_eq(c->collectors[0].address, "127.0.0.1");
	ck_assert_uint_eq(c->collectors[0].port, 6343);
	ck_assert_str_eq(c->collectors[0].source, "");
	ck_assert_str_eq(c->collectors[0].device, "");
	ck_assert_str_eq(c->collectors[1].name, "b");
	ck_assert_str_eq(c->collectors[1].address, "collector.example");
	ck_assert_uint_eq(c->collectors[1].port, 16343);
	ck_assert_str_eq(c->collectors[1].source, "::1");
	ck_assert_str_eq(c->collectors[1].device, "mgmt");
	ck_assert_int_eq(c->backend, CONF_BACKEND_PLUGIN);
	ck_assert_str_eq(c->backend_path, "/opt/x/backend.so");
	ck_assert_str_eq(conf_backend_name(c), "/opt/x/backend.so");
	ck_assert_int_eq(c->backend_line, 18);
	ck_assert_uint_eq(c->n_plugin_options, 2);
	ck_assert_str_eq(c->plugin_options[0], "asic=0");
	ck_assert_str_eq(c->plugin_options[1], "unit=2");
	conf_free(c);
}
END_TEST

START_TEST(defaults)
{
	char err[512];
	struct conf *c = conf_load_text("", "empty.conf", err, sizeof err);

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->agent_address, "auto");
	ck_assert_uint_eq(c->sub_agent_id, 0);
	ck_assert_uint_eq(c->enterprise, 32473);
	ck_assert_uint_eq(c->polling_interval, 20);
	ck_assert_uint_eq(c->datagram_bytes, 1400);
	ck_assert_int_eq(c->backend, CONF_BACKEND_MODEL);
	ck_assert_str_eq(conf_backend_name(c), "model");
	ck_assert_uint_eq(c->n_collectors, 0);
	ck_assert_int_eq(c->backend_line, 0);
	conf_free(c);
	/* the bounds themselves are accepted */
	c = conf_load_text("polling_interval = 0\ndatagram_bytes = 200\n"
			   "agent {\nsub_agent_id = 4294967295\nenterprise = 1048575\n}\n",
			   "b.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->polling_interval, 0);
	ck_assert_uint_eq(c->datagram_bytes, 200);
	ck_assert_uint_eq(c->sub_agent_id, 4294967295u);
	ck_assert_uint_eq(c->enterprise, 1048575);
	conf_free(c);
	c = conf_load_text("datagram_bytes = 8192\nagent {\naddress = \"fe80::1\"\n}\n", "c.conf",
			   err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->agent_address, "fe80::1");
	conf_free(c);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
    /* unknown keys */
    {"\n\nbogus = 1\n", "t.conf:3: no such option 'bogus'"},
    {"agent {\n  adress = 1.2.3.4\n}\n", "t.conf:2: agent: no such option 'adress'"},
    /* wrong types */
    {"polling_interval = \"abc\"\n",
     "t.conf:1: invalid integer value for option 'polling_interval'"},
    {"collector x {\n address = 127.0.0.1\n port = many\n}\n",
     "t.conf:3: collector \"x\": invalid integer value for option 'port'"},
    /* out of range */
    {"\ndatagram_bytes = 199\n", "t.conf:2: datagram_bytes = 199: out of range (200..8192)"},
    {"datagram_bytes = 8193\n", "t.conf:1: datagram_bytes = 8193: out of range (200..8192)"},
    {"polling_interval = -1\n", "t.conf:1: polling_interval = -1: out of range (0..86400)"},
    {"polling_interval = 86401\n", "t.conf:1: polling_interval = 86401: out of range (0..86400)"},
    {"collector x {\n address = 1.2.3.4\n port = 70000\n}\n",
     "t.conf:3: collector \"x\": port = 70000: out of range (1..65535)"},
    {"collector x {\n address = 1.2.3.4\n port = 0\n}\n",
     "t.conf:3: collector \"x\": port = 0: out of range (1..65535)"},
    {"agent {\n enterprise = 0\n}\n",
     "t.conf:2: agent: enterprise = 0: refused: 0 is the enterprise of the standard sFlow "
     "structures; bsflowd's own records need an enterprise number of their own (an IANA "
     "Private Enterprise Number)"},
    {"agent {\n enterprise = 4413\n}\n",
     "t.conf:2: agent: enterprise = 4413: refused: 4413 is Broadcom's, whose 4413:1, 4413:2 "
     "and 4413:3 (BST buffer structures) bsflowd also sends: its own records would carry "
     "the same tags and collectors would misread them; use an IANA Private Enterprise "
     "Number of your own"},
    {"agent {\n enterprise = 1048576\n}\n",
     "t.conf:2: agent: enterprise = 1048576: out of range (1..1048575)"},
    {"agent {\n sub_agent_id = 4294967296\n}\n",
     "t.conf:2: agent: sub_agent_id = 4294967296: out of range (0..4294967295)"},
    /* malformed values */
    {"\nagent {\n address = bogus\n}\n",
     "t.conf:3: agent: address = \"bogus\": not an IPv4 or IPv6 address, nor auto"},
    {"agent {\n address = 224.0.0.1\n}\n",
     "t.conf:2: agent: address = \"224.0.0.1\": unspecified or multicast address"},
    {"collector x {\n address = 127.0.0.1\n source = here\n}\n",
     "t.conf:3: collector \"x\": source = \"here\": not an IPv4 or IPv6 address"},
    {"collector x {\n address = 127.0.0.1\n device = abcdefghijklmnopq\n}\n",
     "t.conf:3: collector \"x\": device = \"abcdefghijklmnopq\": longer than 15 characters"},
    {"collector x {\n address = \"\"\n}\n", "t.conf:2: collector \"x\": address: empty"},
    {"collector x {\n port = 1\n}\n", "t.conf:3: collector \"x\": no address"},
    {"collector x {\n address = a\n}\ncollector x {\n address = b\n}\n",
     "t.conf:4: found duplicate title 'x'"},
    /* backends */
    {"\nbackend = linux\n",
     "t.conf:2: backend = linux: not built yet in this version of bsflowd; use model or the "
     "path of a backend plugin"},
    {"backend = foo\n", "t.conf:1: backend = \"foo\": unknown backend; use model or the path "
			"of a plugin .so (containing a /)"},
    {"backend = \"/x.so\"\nplugin {\n option = {\"novalue\"}\n}\n",
     "t.conf:3: plugin: option \"novalue\": not of the form key=value"},
    {"model {\n ports = abc\n}\n", "t.conf:2: ports: 'abc' is not an integer"},
    /* the visibility section: its own checks, with the file and line */
    {"visibility {\n bogus = 1\n}\n", "t.conf:2: visibility: no such option 'bogus'"},
    {"visibility {\n congestion q {\n  high = K\n }\n}\n",
     "t.conf:3: visibility: congestion \"q\": high: \"K\" is not a whole number of bytes (with "
     "K, M or G)"},
    {"visibility {\n congestion q {\n  high = 64K\n  low = M\n }\n}\n",
     "t.conf:4: visibility: congestion \"q\": low: \"M\" is not a whole number of bytes (with "
     "K, M or G)"},
    {"visibility {\n congestion q {\n  high = \" 5\"\n }\n}\n",
     "t.conf:3: visibility: congestion \"q\": high: \" 5\" is not a whole number of bytes "
     "(with K, M or G)"},
    {"visibility {\n congestion q {\n  high = 64K\n  low = 65537\n }\n}\n",
     "t.conf:4: visibility: congestion \"q\": low: 65537 is above high (65536)"},
    {"\nvisibility {\n sample_drops = nosuch\n}\n",
     "t.conf:3: visibility: sample_drops: no sampler named \"nosuch\""},
    {"visibility {\n sampler s {\n  every = 2\n  probability = 0.5\n }\n}\n",
     "t.conf:3: visibility: sampler \"s\": probability, every and first/of exclude each other"},
    /* after comments of each kind, the line is the line (libconfuse 3.3
     * alone counts 2 per # or // comment line) */
    {"# a\n# b\n# c\nbogus = 1\n", "t.conf:4: no such option 'bogus'"},
    {"// a\n/* b\n c */ polling_interval = 20 # d\nbogus = 1\n",
     "t.conf:4: no such option 'bogus'"},
    {"# a\nmodel {\n # b\n ports = 4 // c\n ports = abc\n}\n",
     "t.conf:5: ports: 'abc' is not an integer"},
    {"# a\n# b\nvisibility {\n # c\n sample_drops = nosuch\n}\n",
     "t.conf:5: visibility: sample_drops: no sampler named \"nosuch\""},
    {"collector \"#x\" {\n address = \"a#b\" # c\n}\n# d\nbogus = 1\n",
     "t.conf:5: no such option 'bogus'"},
    /* syntax */
    {"collector x {\n address = a\n", "t.conf:1: section not closed (missing })"},
    {"collector x {\n address = a\n}\n}\n", "t.conf:4: unexpected closing brace"},
};

START_TEST(bad_input)
{
	char err[1024];
	struct conf *c = conf_load_text(bad[_i].text, "t.conf", err, sizeof err);

	ck_assert_msg(c == NULL, "accepted: %s", bad[_i].text);
	ck_assert_str_eq(err, bad[_i].msg);
}
END_TEST

/* The comment blanker: what is a comment as libconfuse reads it. */
START_TEST(blank_comments)
{
	static const struct {
		const char *in, *out;
	} t[] = {
	    {"a = 1 # c\nb = 2\n", "a = 1    \nb = 2\n"},
	    {"a = x#y\n", "a = x  \n"},			  /* # anywhere outside quotes */
	    {"a = \"x#y\" // c\n", "a = \"x#y\"     \n"}, /* not inside quotes */
	    {"a = '#\\'#'\n", "a = '#\\'#'\n"},		  /* escaped quote */
	    {"a = /usr//lib\n", "a = /usr//lib\n"},	  /* // inside a word: a word */
	    {"a=//c\n", "a=   \n"},
	    {"/* x\ny */a = 1\n", "    \n    a = 1\n"}, /* newlines kept */
	    {"a = 1 /* open\n", "a = 1 /* open\n"},	/* not closed: left for libconfuse */
	    {"", ""},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char *o = conf_blank_comments(t[i].in);

		ck_assert_ptr_nonnull(o);
		ck_assert_str_eq(o, t[i].out);
		free(o);
	}
}
END_TEST

START_TEST(bad_file)
{
	char err[1024];
	struct conf *c = conf_load_file("/nonexistent/bsflowd.conf", err, sizeof err);

	ck_assert_ptr_null(c);
	ck_assert_str_eq(err, "/nonexistent/bsflowd.conf: No such file or directory");
	c = conf_load_file("/", err, sizeof err);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err, "/: Is a directory");
}
END_TEST

START_TEST(builtin_default)
{
	char err[1024];
	struct conf *c = conf_load_default(err, sizeof err);

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->file, "(built-in default)");
	ck_assert_int_eq(c->backend, CONF_BACKEND_MODEL);
	ck_assert_uint_eq(c->n_collectors, 1);
	ck_assert_str_eq(c->collectors[0].address, "127.0.0.1");
	ck_assert_uint_eq(c->collectors[0].port, 6343);
	ck_assert_uint_eq(c->polling_interval, 20);
	ck_assert_ptr_nonnull(conf_backend_section(c));
	/* it has a model section (the demo scenario) */
	ck_assert_ptr_nonnull(strstr(c->backend_text, "model"));
	ck_assert_ptr_nonnull(strstr(c->backend_text, "{"));
	conf_free(c);
}
END_TEST

START_TEST(shipped_conf)
{
	const char *src = getenv("top_srcdir");
	char path[512], err[1024];
	struct conf *c;

	snprintf(path, sizeof path, "%s/etc/bsflowd.conf", src ? src : "..");
	c = conf_load_file(path, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(c->backend, CONF_BACKEND_MODEL);
	ck_assert_uint_ge(c->n_collectors, 1);
	conf_free(c);
}
END_TEST

START_TEST(backend_same)
{
	char err[512];
	struct conf *a, *b, *c, *d, *e;

	a = conf_load_text("model {\n ports = 4\n}\ncollector x {\n address = 127.0.0.1\n}\n", "a",
			   err, sizeof err);
	/* other collectors and intervals, same model section */
	b = conf_load_text("polling_interval = 3\nmodel {\n ports = 4\n}\n", "b", err, sizeof err);
	/* the model section changed */
	c = conf_load_text("model {\n ports = 5\n}\n", "c", err, sizeof err);
	/* a plugin, and the same plugin with other options */
	d = conf_load_text("backend = \"/p.so\"\nplugin {\n option = {\"a=1\"}\n}\n", "d", err,
			   sizeof err);
	e = conf_load_text("backend = \"/p.so\"\nplugin {\n option = {\"a=2\"}\n}\n", "e", err,
			   sizeof err);
	ck_assert(a && b && c && d && e);
	ck_assert_int_eq(conf_backend_same(a, b), 1);
	ck_assert_int_eq(conf_backend_same(a, c), 0);
	ck_assert_int_eq(conf_backend_same(a, d), 0);
	ck_assert_int_eq(conf_backend_same(d, e), 0);
	ck_assert_int_eq(conf_backend_same(d, d), 1);
	conf_free(a);
	conf_free(b);
	conf_free(c);
	conf_free(d);
	conf_free(e);
}
END_TEST

START_TEST(visibility_section)
{
#define VIS_TEXT                                                                                   \
	"visibility {\n"                                                                           \
	" forensics = yes\n"                                                                       \
	" delay_profile d {\n  thresholds = {20us, -1}\n }\n"                                      \
	" congestion q {\n  queues = {0, 16-17}\n  high = 2K\n }\n"                                \
	" congestion p {\n  scope = port\n  high = 1M\n  low = 0\n }\n"                            \
	" sampler s {\n  tickets = 10\n  period = 100ms\n }\n"                                     \
	" sample_drops = s\n"                                                                      \
	"}\n"
	char err[1024];
	struct conf *c = conf_load_text("collector x {\n address = 127.0.0.1\n}\n" VIS_TEXT,
					"v.conf", err, sizeof err),
		    *d, *e;

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(c->vis.enabled, 1);
	ck_assert_int_eq(c->vis.forensics, 1);
	ck_assert_uint_eq(c->vis.n_delay, 1);
	ck_assert_int_eq(c->vis.delay[0].profile.lv[0].threshold_ns, 20000);
	ck_assert_int_eq(c->vis.delay[0].profile.lv[1].threshold_ns, -1);
	ck_assert_uint_eq(c->vis.n_congestion, 2);
	ck_assert_uint_eq(c->vis.congestion[0].high, 2048);
	ck_assert_uint_eq(c->vis.congestion[0].low, 1024); /* half of high */
	ck_assert_uint_eq(c->vis.congestion[0].queues.n, 3);
	ck_assert_int_eq(c->vis.congestion[1].port_scope, 1);
	ck_assert_uint_eq(c->vis.congestion[1].high, 1048576);
	ck_assert_uint_eq(c->vis.congestion[1].low, 0);
	ck_assert_uint_eq(c->vis.n_samplers, 1);
	ck_assert_uint_eq(c->vis.samplers[0].c.tickets, 10);
	ck_assert_uint_eq(c->vis.samplers[0].c.period_ns, 100000000);
	ck_assert_str_eq(c->vis.route[VIS_EV_DROP], "s");
	/* the same section with other collectors: same; a changed value: not */
	d = conf_load_text("# other\npolling_interval = 3\n" VIS_TEXT, "d.conf", err, sizeof err);
	ck_assert_msg(d != NULL, "%s", err);
	ck_assert_int_eq(conf_vis_same(c, d), 1);
	e = conf_load_text("visibility {\n forensics = no\n}\n", "e.conf", err, sizeof err);
	ck_assert_msg(e != NULL, "%s", err);
	ck_assert_int_eq(conf_vis_same(c, e), 0);
	ck_assert_int_eq(e->vis.enabled, 1);
	conf_free(c);
	conf_free(d);
	conf_free(e);
	/* no section, or an empty one: off */
	c = conf_load_text("", "n.conf", err, sizeof err);
	d = conf_load_text("visibility {\n}\n", "n.conf", err, sizeof err);
	ck_assert(c && d);
	ck_assert_int_eq(c->vis.enabled, 0);
	ck_assert_int_eq(d->vis.enabled, 0);
	conf_free(c);
	conf_free(d);
	/* enable = no keeps the settings checked but off */
	c = conf_load_text("visibility {\n enable = no\n forensics = yes\n}\n", "o.conf", err,
			   sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(c->vis.enabled, 0);
	conf_free(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conf");
	TCase *tc = tcase_create("conf");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, good_file);
	tcase_add_test(tc, defaults);
	tcase_add_loop_test(tc, bad_input, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, bad_file);
	tcase_add_test(tc, blank_comments);
	tcase_add_test(tc, builtin_default);
	tcase_add_test(tc, shipped_conf);
	tcase_add_test(tc, backend_same);
	tcase_add_test(tc, visibility_section);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
