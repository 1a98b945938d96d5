/*
 * test_conf.c - configuration parsing: a good file with every key, the
 * defaults, each kind of bad input with its exact "FILE:LINE: message",
 * a missing file, the built-in default, the shipped etc/bsflowd.conf,
 * when a reload must reopen the backend, and the visibility section (its
 * values, its errors with FILE:LINE, a bare byte suffix refused, when a
 * reload changes it); the right line after comments of each kind.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	/* polling_interval reads times as every time key does */
	c = conf_load_text("polling_interval = 20s\n", "s.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->polling_interval, 20);
	conf_free(c);
	c = conf_load_text("polling_interval = 90000ms\n", "ms.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->polling_interval, 90);
	conf_free(c);
	c = conf_load_text("datagram_bytes = 8192\nagent {\naddress = \"fe80::1\"\n}\n", "c.conf",
			   err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->agent_address, "fe80::1");
	conf_free(c);
}
END_TEST

#define ADDR_ALLOWED                                                                               \
	"not an address or a host name; allowed: an IPv4 or IPv6 address, or a host name "         \
	"(letters, digits, - and dots, at most 253 characters)"
#define SIZE_ALLOWED "not a size; allowed: 0..1T bytes, suffix K, M, G or T (powers of 1024)"

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
    /* unknown keys (libconfuse's message, reworded) */
    {"\n\nbogus = 1\n", "t.conf:3: bogus: unknown key; allowed: the keys of bsflowd.conf(5)"},
    {"agent {\n  adress = 1.2.3.4\n}\n",
     "t.conf:2: agent: adress: unknown key; allowed: the keys of bsflowd.conf(5); did you mean "
     "address?"},
    /* host:port in an address */
    {"collector c {\n  address = \"192.0.2.1:6343\"\n}\n",
     "t.conf:2: collector \"c\": address = 192.0.2.1:6343: a port in the address; allowed: the "
     "address alone, with the port in port = 6343"},
    /* wrong types */
    {"polling_interval = \"abc\"\n",
     "t.conf:1: polling_interval = abc: not a time; allowed: 0ns..86400s, a number with ns, us, ms "
     "or s (a bare number is seconds)"},
    {"collector x {\n address = 127.0.0.1\n port = many\n}\n",
     "t.conf:3: collector \"x\": port = many: not an integer; allowed: 1..65535"},
    /* libconfuse's CFG_INT read "0x10" as 16 and "010" as 8: decimal only now */
    {"polling_interval = 0x10\n",
     "t.conf:1: polling_interval = 0x10: not a time; allowed: 0ns..86400s, a number with ns, us, "
     "ms or s (a bare number is seconds)"},
    /* out of range */
    {"\ndatagram_bytes = 199\n",
     "t.conf:2: datagram_bytes = 199: out of range; allowed: 200..8192"},
    {"datagram_bytes = 8193\n",
     "t.conf:1: datagram_bytes = 8193: out of range; allowed: 200..8192"},
    {"polling_interval = -1\n",
     "t.conf:1: polling_interval = -1: not a time; allowed: 0ns..86400s, a number with ns, us, ms "
     "or s (a bare number is seconds)"},
    {"polling_interval = 86401\n",
     "t.conf:1: polling_interval = 86401: out of range; allowed: 0ns..86400s"},
    /* a time in whole seconds, with the units of every time key */
    {"polling_interval = 1.5s\n",
     "t.conf:1: polling_interval = 1.5s: not whole seconds; allowed: 0..86400 seconds, e.g. 20 "
     "or 20s"},
    {"collector x {\n address = 1.2.3.4\n port = 70000\n}\n",
     "t.conf:3: collector \"x\": port = 70000: out of range; allowed: 1..65535"},
    {"collector x {\n address = 1.2.3.4\n port = 0\n}\n",
     "t.conf:3: collector \"x\": port = 0: out of range; allowed: 1..65535"},
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
     "t.conf:2: agent: enterprise = 1048576: out of range; allowed: 1..1048575"},
    {"agent {\n sub_agent_id = 4294967296\n}\n",
     "t.conf:2: agent: sub_agent_id = 4294967296: out of range; allowed: 0..4294967295"},
    /* malformed values */
    {"\nagent {\n address = bogus\n}\n",
     "t.conf:3: agent: address = bogus: not an address; allowed: auto, an IPv4 or IPv6 address"},
    {"agent {\n address = 224.0.0.1\n}\n",
     "t.conf:2: agent: address = 224.0.0.1: unspecified or multicast; allowed: auto, a unicast "
     "address"},
    {"collector x {\n address = 127.0.0.1\n source = here\n}\n",
     "t.conf:3: collector \"x\": source = here: not an address; allowed: \"\" (any) or an IPv4 "
     "or IPv6 address"},
    {"collector x {\n address = 127.0.0.1\n device = abcdefghijklmnopq\n}\n",
     "t.conf:3: collector \"x\": device = abcdefghijklmnopq: too long; allowed: \"\" (none) or "
     "a device name of 1..15 characters"},
    /* collector addresses: literal or host name syntax, checked before
     * any resolution */
    {"collector x {\n address = \"\"\n}\n",
     "t.conf:2: collector \"x\": address = \"\": " ADDR_ALLOWED},
    {"collector x {\n address = \"::1::2\"\n}\n",
     "t.conf:2: collector \"x\": address = ::1::2: " ADDR_ALLOWED},
    {"collector x {\n address = \"bad host!name\"\n}\n",
     "t.conf:2: collector \"x\": address = \"bad host!name\": " ADDR_ALLOWED},
    {"collector x {\n address = 1.2.3.999\n}\n",
     "t.conf:2: collector \"x\": address = 1.2.3.999: " ADDR_ALLOWED},
    {"collector x {\n address = -a.example\n}\n",
     "t.conf:2: collector \"x\": address = -a.example: " ADDR_ALLOWED},
    /* a section's own errors name its first line, not its closing brace */
    {"collector x {\n port = 1\n}\n",
     "t.conf:2: collector \"x\": address: missing; allowed: an IPv4 or IPv6 address or a host "
     "name"},
    {"collector \"\" {\n address = a\n}\n",
     "t.conf:2: collector \"\": an empty name; allowed: 1..63 characters"},
    {"collector x {\n address = a\n}\ncollector x {\n address = b\n}\n",
     "t.conf:4: \"x\": a second section of that name; allowed: one"},
    /* backends */
    {"\nbackend = linux\nlinux {\n bogus = 1\n}\n",
     "t.conf:4: linux: bogus: unknown key; allowed: the keys of bsflowd.conf(5)"},
    {"backend = foo\n",
     "t.conf:1: backend = foo: unknown backend; allowed: model, linux, sonic or the path "
     "of a plugin .so (containing a /)"},
    {"backend = \"/x.so\"\nplugin {\n option = {\"novalue\"}\n}\n",
     "t.conf:3: plugin: option = novalue: not key=value; allowed: \"key=value\""},
    {"model {\n ports = abc\n}\n",
     "t.conf:2: model: ports = abc: not an integer; allowed: 1..4096"},
    /* the section's line after a `backend = model` line (its value once
       counted the newlines after it twice) */
    {"backend = model\n\nmodel {\n seed = 1\n ports = 0\n}\n",
     "t.conf:5: model: ports = 0: out of range; allowed: 1..4096"},
    /* the visibility section: its own checks, with the file and line */
    {"visibility {\n bogus = 1\n}\n",
     "t.conf:2: visibility: bogus: unknown key; allowed: the keys of bsflowd.conf(5)"},
    {"visibility {\n congestion q {\n  high = K\n }\n}\n",
     "t.conf:3: visibility: congestion \"q\": high = K: " SIZE_ALLOWED},
    {"visibility {\n congestion q {\n  high = 64K\n  low = M\n }\n}\n",
     "t.conf:4: visibility: congestion \"q\": low = M: " SIZE_ALLOWED},
    {"visibility {\n congestion q {\n  high = \" 5\"\n }\n}\n",
     "t.conf:3: visibility: congestion \"q\": high = \" 5\": " SIZE_ALLOWED},
    {"visibility {\n congestion q {\n  high = 64K\n  low = 65537\n }\n}\n",
     "t.conf:4: visibility: congestion \"q\": low = 65537: above high; allowed: 0..65536 bytes "
     "(high)"},
    {"\nvisibility {\n sample_drops = nosuch\n}\n",
     "t.conf:3: visibility: sample_drops = nosuch: no sampler named \"nosuch\""},
    {"visibility {\n sampler s {\n  every = 2\n  probability = 0.5\n }\n}\n",
     "t.conf:3: visibility: sampler \"s\": probability, every and first/of exclude each other"},
    /* a key in a sampler: the path of sections */
    {"visibility {\n sampler s {\n  colour = red\n }\n}\n",
     "t.conf:3: visibility: sampler \"s\": colour: unknown key; allowed: the keys of "
     "bsflowd.conf(5)"},
    /* after comments of each kind, the line is the line (libconfuse 3.3
     * alone counts 2 per # or // comment line) */
    {"# a\n# b\n# c\nbogus = 1\n",
     "t.conf:4: bogus: unknown key; allowed: the keys of bsflowd.conf(5)"},
    {"// a\n/* b\n c */ polling_interval = 20 # d\nbogus = 1\n",
     "t.conf:4: bogus: unknown key; allowed: the keys of bsflowd.conf(5)"},
    {"# a\nmodel {\n # b\n seed = 4 // c\n ports = abc\n}\n",
     "t.conf:5: model: ports = abc: not an integer; allowed: 1..4096"},
    {"# a\n# b\nvisibility {\n # c\n sample_drops = nosuch\n}\n",
     "t.conf:5: visibility: sample_drops = nosuch: no sampler named \"nosuch\""},
    {"collector \"#x\" {\n address = \"a#b\" # c\n}\n# d\nbogus = 1\n",
     "t.conf:5: bogus: unknown key; allowed: the keys of bsflowd.conf(5)"},
    /* a key given twice: libconfuse kept the last one silently */
    {"polling_interval = 5\n\npolling_interval = 7\n",
     "t.conf:3: polling_interval = 7: given twice (first on line 1); allowed: once"},
    {"collector x {\n address = a\n port = 1\n port = 2\n}\n",
     "t.conf:4: collector \"x\": port = 2: given twice (first on line 3); allowed: once"},
    {"model {\n ports = 4\n traffic t {\n  ports = {1}\n  rate = 1G\n  rate = 2G\n }\n}\n",
     "t.conf:6: model: traffic \"t\": rate = 2G: given twice (first on line 5); allowed: once"},
    /* a list given twice: libconfuse kept the last one silently, in
     * every section; a section written twice was merged */
    {"model {\n ports = 4\n traffic t {\n  ports = {1}\n  rate = 1G\n  ports = {2, 3}\n }\n}\n",
     "t.conf:6: model: traffic \"t\": ports: given twice (first on line 4); allowed: once, with "
     "all its values in one { }"},
    {"model {\n ports = 4\n traffic t {\n  ports = 1\n  ports = 2\n  rate = 1G\n }\n}\n",
     "t.conf:5: model: traffic \"t\": ports: given twice (first on line 4); allowed: once, with "
     "all its values in one { }"},
    {"model {\n ports = 4\n traffic t {\n  ports = {1}\n  ports = {}\n  rate = 1G\n }\n}\n",
     "t.conf:4: model: traffic \"t\": ports: given twice (first on line 4, emptied by a later "
     "ports = { }); allowed: once"},
    {"visibility {\n sampler s {\n  ports = {0}\n  tickets = 5\n  ports = {1}\n }\n}\n",
     "t.conf:5: visibility: sampler \"s\": ports: given twice (first on line 3); allowed: once, "
     "with all its values in one { }"},
    {"plugin {\n option = {\"a=1\"}\n option = {\"b=2\"}\n}\n",
     "t.conf:3: plugin: option: given twice (first on line 2); allowed: once, with all its values "
     "in one { }"},
    {"backend = linux\nlinux {\n ports = {eth0}\n link = off\n ports = {eth1}\n}\n",
     "t.conf:5: linux: ports: given twice (first on line 3); allowed: once, with all its values "
     "in one { }"},
    /* a list with default values added to, then given again: the +=
     * was dropped silently */
    {"backend = linux\nlinux {\n ports += {eth0}\n ports = {eth1}\n}\n",
     "t.conf:4: linux: ports: given twice (first on line 3); allowed: once, with all its values "
     "in one { }"},
    {"linux {\n link = off\n\n link = on\n}\n",
     "t.conf:4: linux: link = on: given twice (first on line 2); allowed: once"},
    {"linux {\n header_bytes = 64\n header_bytes = 96\n}\n",
     "t.conf:3: linux: header_bytes = 96: given twice (first on line 2); allowed: once"},
    /* the linux section's integers are read as every integer (libconfuse
     * took hexadecimal there) */
    {"linux {\n qdisc_poll_ms = 0x10\n}\n",
     "t.conf:2: linux: qdisc_poll_ms = 0x10: not an integer; allowed: decimal digits"},
    {"sonic {\n redis = /run/redis.sock\n redis = /tmp/r.sock\n}\n",
     "t.conf:3: sonic: redis = /tmp/r.sock: given twice (first on line 2); allowed: once"},
    {"agent {\n address = 192.0.2.1\n}\npolling_interval = 5\nagent {\n sub_agent_id = 2\n}\n",
     "t.conf:6: agent: a second section of that name (the first ends on line 3); allowed: one"},
    {"model {\n ports = 4\n ingress_arbitration {\n }\n ingress_arbitration {\n }\n}\n",
     "t.conf:6: model: ingress_arbitration: a second section of that name (the first ends on "
     "line 4); allowed: one"},
    {"visibility {\n eligible {\n  ports = {1}\n }\n eligible {\n  queues = {2}\n }\n}\n",
     "t.conf:6: visibility: eligible: a second section of that name (the first ends on line 4); "
     "allowed: one"},
    /* a key with no value: libconfuse took the next line's first word
     * for it and complained there, about something else */
    {"collector x {\n address =\n}\n",
     "t.conf:2: address: no value after =; allowed: the value on the same line"},
    {"polling_interval =   # later\ncollector x {\n address = a\n}\n",
     "t.conf:1: polling_interval: no value after =; allowed: the value on the same line"},
    {"model {\n ports = 4\n traffic t {\n  ports +=\n }\n}\n",
     "t.conf:4: ports: no value after =; allowed: the value on the same line"},
    /* syntax */
    {"collector x {\n address = a\n", "t.conf:1: section not closed (missing })"},
    {"collector x {\n address = a\n}\n}\n", "t.conf:4: unexpected closing brace"},
    /* libconfuse 3.3 takes an open comment or string as the end of the
     * file: everything after it was lost, "configuration OK" */
    {"collector x {\n address = a\n}\n/* old:\ncollector y {\n address = b\n}\nport = 99999\n",
     "t.conf:4: comment not closed (the /* opened here has no */)"},
    {"collector x {\n address = \"a\n}\n",
     "t.conf:2: string not closed (the \" opened here runs to the end of the file)"},
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
	    {"a={//c\n1}\n", "a={   \n1}\n"},		  /* a // after { or = is a comment */
	    {"/* x\ny */a = 1\n", "    \n    a = 1\n"},	  /* newlines kept */
	    {"", ""},
	};
	char err[200];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char *o = conf_blank_comments(t[i].in, "t", err, sizeof err);

		ck_assert_ptr_nonnull(o);
		ck_assert_str_eq(o, t[i].out);
		free(o);
	}
	/* a key whose value is on the next line, or only a comment follows */
	ck_assert_ptr_null(conf_blank_comments("a=//c\n1\n", "t", err, sizeof err));
	ck_assert_str_eq(err, "t:1: a: no value after =; allowed: the value on the same line");
	/* what libconfuse 3.3 takes silently as the end of the file */
	ck_assert_ptr_null(
	    conf_blank_comments("a = 1\nb = 2 /* open\nc = 3\n", "t", err, sizeof err));
	ck_assert_str_eq(err, "t:2: comment not closed (the /* opened here has no */)");
	ck_assert_ptr_null(conf_blank_comments("a = 1\n\nb = \"x\nc = 3\n", "t", err, sizeof err));
	ck_assert_str_eq(err, "t:3: string not closed (the \" opened here runs to the end of the "
			      "file)");
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

/* Input is bounded before libconfuse sees it: a
 * FIFO or a device is refused at once (a FIFO with no writer used to hang
 * -t, /dev/urandom too), so are a file over 1 MiB and a line over 4096
 * characters (a 4 MiB number took 20 s to check). */
START_TEST(bounded_input)
{
	char dir[] = "/tmp/bsfboundXXXXXX", path[64], err[1024], want[128];
	struct conf *c;
	char *big;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	c = conf_load_file(path, err, sizeof err);
	ck_assert_ptr_null(c);
	snprintf(want, sizeof want, "%s: not a regular file", path);
	ck_assert_str_eq(err, want);
	unlink(path);
	c = conf_load_file("/dev/urandom", err, sizeof err);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err, "/dev/urandom: not a regular file");
	/* 1 MiB of comment lines is read; one byte more is not */
	snprintf(path, sizeof path, "%s/big.conf", dir);
	big = malloc((1 << 20) + 2);
	ck_assert_ptr_nonnull(big);
	for (size_t i = 0; i < (1 << 20); i++)
		big[i] = i % 64 == 63 ? '\n' : '#';
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(big, 1, 1 << 20, f), 1 << 20);
	fclose(f);
	c = conf_load_file(path, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	conf_free(c);
	f = fopen(path, "a");
	fputc('\n', f);
	fclose(f);
	c = conf_load_file(path, err, sizeof err);
	ck_assert_ptr_null(c);
	snprintf(want, sizeof want,
		 "%s: larger than 1048576 bytes (a config file is at most 1048576)", path);
	ck_assert_str_eq(err, want);
	unlink(path);
	/* a line of 4096 characters is read, one of 4097 is not */
	memset(big, '1', 5000);
	memcpy(big, "# ", 2);
	big[4096] = '\0';
	c = conf_load_text(big, "t.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	conf_free(c);
	memcpy(big, "\npolling_interval = ", 20);
	big[4096] = '1';
	big[4098] = '\0'; /* line 2: 4097 characters */
	c = conf_load_text(big, "t.conf", err, sizeof err);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err, "t.conf:2: line longer than 4096 characters");
	free(big);
	rmdir(dir);
}
END_TEST

/* The one grammar of each kind (confval.h), on values computed by hand. */
START_TEST(value_grammar)
{
	static const struct {
		const char *s;
		double v; /* -1: refused */
	} sizes[] = {{"64K", 65536},
		     {"64 KiB", 65536},
		     {"64kb", 65536},
		     {"1.5M", 1572864},
		     {"2g", 2147483648.0},
		     {"10B", 10},
		     {"1T", 1099511627776.0},
		     {"7", 7},
		     {"K", -1},
		     {" 5", -1},
		     {"0x10", -1},
		     {"-1", -1},
		     {"5X", -1},
		     {"inf", -1},
		     {"", -1}},
	  rates[] = {{"10G", 1e10}, {"800M", 8e8}, {"1.5Gbps", 1.5e9}, {"100 kb/s", 1e5}, {"7", 7},
		     {"2t", 2e12},  {"G", -1},	   {"10Gb", -1},       {"nan", -1}};
	static const struct {
		const char *s;
		int kind;
	} hosts[] = {{"127.0.0.1", 1},
		     {"::1", 1},
		     {"fe80::1", 1},
		     {"::1::2", 0},
		     {"bad host!name", 0},
		     {"collector.example", 2},
		     {"a", 2},
		     {"x.example.", 2},
		     {"1.2.3.999", 0},
		     {"-a.b", 0},
		     {"a-.b", 0},
		     {"a..b", 0},
		     {"", 0},
		     {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.b", 2},
		     {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.b", 0}};
	long long a, b;
	double d;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		int r = conf_parse_size(sizes[i].s, &d);

		ck_assert_msg(r == (sizes[i].v < 0 ? -1 : 0), "size %s", sizes[i].s);
		if (r == 0)
			ck_assert_msg(d == sizes[i].v, "size %s: %g", sizes[i].s, d);
	}
	for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
		int r = conf_parse_rate(rates[i].s, &d);

		ck_assert_msg(r == (rates[i].v < 0 ? -1 : 0), "rate %s", rates[i].s);
		if (r == 0)
			ck_assert_msg(d == rates[i].v, "rate %s: %g", rates[i].s, d);
	}
	for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++)
		ck_assert_msg(conf_host_kind(hosts[i].s) == hosts[i].kind, "host %s", hosts[i].s);
	ck_assert_int_eq(conf_parse_int("010", &a), 0);
	ck_assert_int_eq(a, 10);
	ck_assert_int_eq(conf_parse_int("+5", &a), 0);
	ck_assert_int_eq(a, 5);
	ck_assert_int_eq(conf_parse_int("0x10", &a), -1);
	ck_assert_int_eq(conf_parse_int(" 5", &a), -1);
	ck_assert_int_eq(conf_parse_int("5 ", &a), -1);
	ck_assert_int_eq(conf_parse_int("99999999999999999999", &a), -1);
	ck_assert_int_eq(conf_parse_range("3", &a, &b), 0);
	ck_assert(a == 3 && b == 3);
	ck_assert_int_eq(conf_parse_range("1-4", &a, &b), 0);
	ck_assert(a == 1 && b == 4);
	ck_assert_int_eq(conf_parse_range("-1", &a, &b), 0);
	ck_assert(a == -1 && b == -1);
	ck_assert_int_eq(conf_parse_range("1-", &a, &b), -1);
	ck_assert_int_eq(conf_parse_range("a-b", &a, &b), -1);
	ck_assert_int_eq(conf_parse_range("1-2-3", &a, &b), -1);
}
END_TEST

/* Spellings one of the two old grammars accepted are accepted in every
 * section now: decimals and blanks in sizes and times, words in any
 * case. */
START_TEST(union_spellings)
{
	char err[1024];
	struct conf *c = conf_load_text("visibility {\n congestion q {\n  high = 1.5M\n }\n"
					" sampler s {\n  tickets = 10\n  period = \"0.1 s\"\n"
					"  type = SAMPLER\n  dedup = Yes\n }\n}\n"
					"model {\n buffer = \"2 MiB\"\n scheduler = DWRR\n}\n",
					"u.conf", err, sizeof err);

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->vis.congestion[0].high, 1572864);
	ck_assert_uint_eq(c->vis.samplers[0].c.period_ns, 100000000);
	ck_assert_int_eq(c->vis.samplers[0].c.dedup, 1);
	conf_free(c);
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

/* A list written once, then added to with += (libconfuse's append): not
 * a key given twice; both values count. */
START_TEST(list_append)
{
	char err[512];
	struct conf *c = conf_load_text("backend = \"/p.so\"\nplugin {\n option = {\"a=1\"}\n "
					"option += {\"b=2\"}\n}\n",
					"t.conf", err, sizeof err);

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->n_plugin_options, 2);
	ck_assert_str_eq(c->plugin_options[0], "a=1");
	ck_assert_str_eq(c->plugin_options[1], "b=2");
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
	/* the drop limit reopens the linux backend (its kernel drop reports
	 * follow it), not the model */
	a = conf_load_text("backend = linux\ndrops {\n limit = 100\n}\n", "a", err, sizeof err);
	b = conf_load_text("backend = linux\ndrops {\n limit = 50\n}\n", "b", err, sizeof err);
	c = conf_load_text("model {\n ports = 4\n}\ndrops {\n limit = 100\n}\n", "c", err,
			   sizeof err);
	d = conf_load_text("model {\n ports = 4\n}\ndrops {\n limit = 50\n}\n", "d", err,
			   sizeof err);
	ck_assert_msg(a && b && c && d, "%s", err);
	ck_assert_int_eq(conf_backend_same(a, b), 0);
	ck_assert_int_eq(conf_backend_same(a, a), 1);
	ck_assert_int_eq(conf_backend_same(c, d), 1);
	conf_free(a);
	conf_free(b);
	conf_free(c);
	conf_free(d);
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
	tcase_add_test(tc, bounded_input);
	tcase_add_test(tc, value_grammar);
	tcase_add_test(tc, union_spellings);
	tcase_add_test(tc, blank_comments);
	tcase_add_test(tc, builtin_default);
	tcase_add_test(tc, shipped_conf);
	tcase_add_test(tc, list_append);
	tcase_add_test(tc, backend_same);
	tcase_add_test(tc, visibility_section);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
