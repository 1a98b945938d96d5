/*
 * test_plugin.c - the backend plugin loader: a good plugin (with the
 * queue event switches), interface versions outside the range this daemon
 * speaks (99; 1 and 2, built before sizes), a plugin of an older layout of
 * interface 3 (smaller table and events: what it lacks is unknown / NULL,
 * never read), a table smaller than the required functions, a missing
 * entry point, paths that are not a plugin.
 * The plugins are built by `make check` (agent/tests/testplugin*.la) and
 * loaded from their .libs/ directory.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/abiwrap.h"
#include "agent/backends.h"
#include "agent/conf.h"
#include "agent/linux/backend_linux.h"
#include "agent/model/backend_model.h"
#include "agent/model/model.h"
#include "agent/plugin.h"

static void plugin_path(char *buf, size_t len, const char *name)
{
	const char *b = getenv("top_builddir");

	snprintf(buf, len, "%s/agent/tests/.libs/%s.so", b ? b : ".", name);
}

START_TEST(good)
{
	struct bsf_plugin p;
	struct bsf_backend_args args;
	const struct bsf_device_desc *d;
	const char *opts[] = {"a=b"};
	char path[512], err[512];
	void *st;

	plugin_path(path, sizeof path, "testplugin");
	ck_assert_msg(bsf_plugin_load(path, &p, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(p.ops->name, "testplugin");
	ck_assert_uint_eq(p.ops->abi_version, BSF_BACKEND_ABI_VERSION);
	memset(&args, 0, sizeof args);
	args.size = sizeof args;
	args.options = opts;
	args.n_options = 1;
	st = p.ops->open(&args, err, sizeof err);
	ck_assert_ptr_nonnull(st);
	d = p.ops->describe(st);
	ck_assert_uint_eq(d->nports, 2);
	ck_assert_uint_eq(d->ports[1].ifindex, 12);
	ck_assert_str_eq(d->ports[0].name, "tp0");
	/* the queue event switches (since version 2) */
	ck_assert_uint_eq(BSF_BACKEND_ABI_VERSION, 3);
	ck_assert_uint_eq(p.ops->size, sizeof(struct bsf_backend_ops));
	ck_assert(d->caps & BSF_CAP_QUEUE_EVENTS);
	ck_assert_ptr_nonnull(p.ops->set_queue_events);
	ck_assert_ptr_nonnull(p.ops->queue_events_lost);
	{
		unsigned(*qev)[2] = (unsigned(*)[2])dlsym(p.handle, "testplugin_qev");

		ck_assert_ptr_nonnull(qev);
		ck_assert_int_eq(p.ops->set_queue_events(st, 1, 0, 0,
							 BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE, err,
							 sizeof err),
				 0);
		ck_assert_uint_eq(qev[1][0], 3);
		ck_assert_uint_eq(qev[0][0], 0);
		ck_assert_int_eq(p.ops->set_queue_events(st, 1, 0, 0, 0, err, sizeof err), 0);
		ck_assert_uint_eq(qev[1][0], 0);
		ck_assert_int_eq(p.ops->set_queue_events(st, 0, 2, 0, 1, err, sizeof err), -1);
		ck_assert_str_eq(err, "no such queue");
		ck_assert_uint_eq(p.ops->queue_events_lost(st), 0);
	}
	p.ops->close(st);
	/* open failing with a message */
	opts[0] = "fail=1";
	err[0] = '\0';
	ck_assert_ptr_null(p.ops->open(&args, err, sizeof err));
	ck_assert_str_eq(err, "asked to fail");
	bsf_plugin_unload(&p);
	ck_assert_ptr_null(p.handle);
}
END_TEST

/* Plugin `name`, built for interface version `version`, is refused with
 * a message naming both versions. */
static void check_refused(const char *name, unsigned version)
{
	struct bsf_plugin p;
	char path[512], err[1024], want[1024];

	plugin_path(path, sizeof path, name);
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	ck_assert_ptr_null(p.handle);
	snprintf(want, sizeof want,
		 "backend plugin %s: backend interface version %u, but this bsflowd speaks "
		 "version 3 only (rebuild the backend against this <bsflowd/backend.h>)",
		 path, version);
	ck_assert_str_eq(err, want);
}

START_TEST(wrong_abi)
{
	check_refused("testplugin_badabi", 99);
}
END_TEST

/* A plugin built for version 1 (before queue events: its table is shorter
 * and its events smaller) is refused, not used. */
START_TEST(abi_1)
{
	check_refused("testplugin_abi1", 1);
}
END_TEST

/* Version 2, the last without sizes, likewise. */
START_TEST(abi_2)
{
	check_refused("testplugin_abi2", 2);
}
END_TEST

/* The range: both ends accepted, one outside each refused, the message
 * naming the version and the range (a one-version range says so). */
START_TEST(abi_range)
{
	struct bsf_backend_ops o;
	char err[256];

	ck_assert_uint_le(BSF_BACKEND_ABI_MIN, BSF_BACKEND_ABI_VERSION);
	ck_assert_uint_ge(BSF_BACKEND_ABI_MIN, 3);
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.abi_version = BSF_BACKEND_ABI_MIN - 1;
	ck_assert_int_eq(bsf_backend_check_ops(&o, "x", err, sizeof err), -1);
	ck_assert_str_eq(err, "x: backend interface version 2, but this bsflowd speaks version 3 "
			      "only (rebuild the backend against this <bsflowd/backend.h>)");
	o.abi_version = BSF_BACKEND_ABI_VERSION + 1;
	ck_assert_int_eq(bsf_backend_check_ops(&o, "x", err, sizeof err), -1);
	ck_assert_str_eq(err, "x: backend interface version 4, but this bsflowd speaks version 3 "
			      "only (rebuild the backend against this <bsflowd/backend.h>)");
	/* in range: refused for what it lacks, not for its version */
	o.abi_version = BSF_BACKEND_ABI_MIN;
	ck_assert_int_eq(bsf_backend_check_ops(&o, "x", err, sizeof err), -1);
	ck_assert_str_eq(err, "x: backend has no open function");
}
END_TEST

/* A table whose size does not reach the required functions (size left 0,
 * or an impossible layout) is refused before any of them is read. */
START_TEST(ops_too_small)
{
	struct bsf_backend_ops o;
	char err[256], want[256];

	memset(&o, 0, sizeof o);
	o.abi_version = BSF_BACKEND_ABI_VERSION;
	o.size = 0;
	ck_assert_int_eq(bsf_backend_check_ops(&o, "x", err, sizeof err), -1);
	/* through read_delays: version, size, name and 7 functions */
	snprintf(want, sizeof want,
		 "x: backend function table of 0 bytes, less than the %zu of the functions "
		 "every backend must have (size not set to sizeof?)",
		 (size_t)(8 + 8 * sizeof(void *)));
	ck_assert_str_eq(err, want);
}
END_TEST

/* A plugin of an older layout of interface 3 (testplugin_old: its table
 * ends at queue_events_lost, its events at copy_id) is opened and used:
 * the members past its table's size are NULL to the daemon (they hold
 * functions that abort), its events' missing fields are unknown (names ""
 * and sampling_rate 0, not the "NOT-MINE" and 77 its struct holds past
 * its size). */
START_TEST(old_layout)
{
	char path[512], text[1024], err[1024], report[256];
	struct bsf_event ev[4];
	struct bsf_backend be;
	struct conf *c;

	plugin_path(path, sizeof path, "testplugin_old");
	snprintf(text, sizeof text, "backend = \"%s\"\n", path);
	c = conf_load_text(text, "t.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	/* -t: no check op called */
	ck_assert_msg(bsf_backend_check(c, report, sizeof report, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(report, "");
	ck_assert_msg(bsf_backend_open(&be, c, NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(be.ops->size, sizeof(struct bsf_backend_ops));
	ck_assert_ptr_null(be.ops->check);
	ck_assert_ptr_null(be.ops->read_eth_counters);
	ck_assert_ptr_nonnull(be.ops->set_queue_events);
	ck_assert_ptr_nonnull(be.ops->read_events);
	ck_assert_uint_eq(be.ops->describe(be.st)->nports, 2);
	ck_assert_str_eq(be.ops->describe(be.st)->ports[1].name, "tp1");
	ck_assert_uint_eq(be.ops->read_events(be.st, ev, 4), 1);
	ck_assert_uint_eq(ev[0].size, sizeof ev[0]);
	ck_assert_uint_eq(ev[0].type, BSF_EV_DROP);
	ck_assert_uint_eq(ev[0].reason, 3);
	ck_assert_uint_eq(ev[0].in_port, 1);
	ck_assert_uint_eq(ev[0].out_port, UINT32_MAX);
	ck_assert_uint_eq(ev[0].frame_len, 100);
	ck_assert_str_eq(ev[0].function, "");
	ck_assert_str_eq(ev[0].reason_name, "");
	ck_assert_uint_eq(ev[0].sampling_rate, 0);
	bsf_backend_close(&be);
	conf_free(c);
}
END_TEST

/* A backend's own state behind the wrapper: given only to a caller naming
 * its table (bsflow-sim and the model); a conf's model seed (bsflow-sim
 * --seed) replaces the section's. */
START_TEST(own_state)
{
	char path[512], text[1024], err[1024];
	struct bsf_backend be;
	struct conf *c;
	void *st;

	c = conf_load_text("model {\n ports = 3\n seed = 5\n}\n", "t.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_msg(bsf_backend_open(&be, c, NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	st = bsf_backend_own_state(&be, bsf_backend_model_ops());
	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_ne(st, be.st); /* not the wrapper */
	ck_assert_uint_eq(model_config_of(bsf_backend_model_of(st))->nports, 3);
	ck_assert_uint_eq(model_config_of(bsf_backend_model_of(st))->seed, 5);
	ck_assert_ptr_null(bsf_backend_own_state(&be, linuxbe_ops()));
	bsf_backend_close(&be);
	c->model_seed_set = 1;
	c->model_seed = 42;
	ck_assert_msg(bsf_backend_open(&be, c, NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	st = bsf_backend_own_state(&be, bsf_backend_model_ops());
	ck_assert_uint_eq(model_config_of(bsf_backend_model_of(st))->seed, 42);
	bsf_backend_close(&be);
	conf_free(c);

	/* a plugin is not the model */
	plugin_path(path, sizeof path, "testplugin");
	snprintf(text, sizeof text, "backend = \"%s\"\n", path);
	c = conf_load_text(text, "t.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_msg(bsf_backend_open(&be, c, NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_null(bsf_backend_own_state(&be, bsf_backend_model_ops()));
	bsf_backend_close(&be);
	conf_free(c);
}
END_TEST

static uint64_t five_lost(void *arg)
{
	return *(uint64_t *)arg;
}

/* The wrapper's queue_events_lost: the backend's own count (testplugin:
 * always 0) plus the stream events the daemon's push queue lost, so that
 * the visibility monitors see a gap wherever the events were lost. */
START_TEST(wrap_push_lost)
{
	struct bsf_plugin p;
	struct bsf_backend_args args;
	struct bsf_abiwrap *w;
	const struct bsf_backend_ops *o;
	uint64_t lost = 5;
	char path[512], err[512];
	void *st;

	plugin_path(path, sizeof path, "testplugin");
	ck_assert_msg(bsf_plugin_load(path, &p, err, sizeof err) == 0, "%s", err);
	memset(&args, 0, sizeof args);
	args.size = sizeof args;
	st = p.ops->open(&args, err, sizeof err);
	ck_assert_ptr_nonnull(st);
	w = bsf_abiwrap_new(p.ops, st, five_lost, &lost, err, sizeof err);
	ck_assert_ptr_nonnull(w);
	o = bsf_abiwrap_ops(w);
	ck_assert_uint_eq(o->queue_events_lost(bsf_abiwrap_st(w)), 5);
	lost = 7;
	ck_assert_uint_eq(o->queue_events_lost(bsf_abiwrap_st(w)), 7);
	o->close(bsf_abiwrap_st(w));
	bsf_abiwrap_free(w);
	bsf_plugin_unload(&p);
}
END_TEST

START_TEST(missing_symbol)
{
	struct bsf_plugin p;
	char path[512], err[1024], want[1024];

	plugin_path(path, sizeof path, "testplugin_nosym");
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "backend plugin %s: no symbol bsf_backend_entry (not a bsflowd backend?)", path);
	ck_assert_str_eq(err, want);
}
END_TEST

/* An entry symbol that is data, not a function, is refused before it is
 * called (calling it crashed). */
START_TEST(data_entry)
{
	struct bsf_plugin p;
	char path[512], err[1024], want[1200];

	plugin_path(path, sizeof path, "testplugin_dataentry");
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "backend plugin %s: bsf_backend_entry is not a function (not a bsflowd "
		 "backend?)",
		 path);
	ck_assert_str_eq(err, want);
}
END_TEST

/* A copy of the good plugin in a directory of the test's own: loaded
 * while only its owner can write the file and the directories; refused,
 * with a message naming what is unsafe, when the file or its directory
 * is writable by group or others. */
START_TEST(unsafe_permissions)
{
	struct bsf_plugin p;
	char src[512], dir[512], path[600], err[2048], cmd[1400];
	const char *b = getenv("top_builddir");

	plugin_path(src, sizeof src, "testplugin");
	snprintf(dir, sizeof dir, "%s/agent/tests/plugdirXXXXXX", b ? b : ".");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/p.so", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, path);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(chmod(path, 0755), 0);
	ck_assert_msg(bsf_plugin_load(path, &p, err, sizeof err) == 0, "%s", err);
	bsf_plugin_unload(&p);
	/* a world-writable file */
	ck_assert_int_eq(chmod(path, 0757), 0);
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "refused: file") && strstr(err, "is writable by others") &&
			  strstr(err, "mode 0757"),
		      "got: %s", err);
	/* a group-writable directory */
	ck_assert_int_eq(chmod(path, 0755), 0);
	ck_assert_int_eq(chmod(dir, 0775), 0);
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "refused: directory") && strstr(err, "mode 0775"), "got: %s",
		      err);
	/* a world-writable one */
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "refused: directory") && strstr(err, "mode 0777"), "got: %s",
		      err);
	/* but a sticky one like /tmp is safe (only an entry's owner can rename
	 * or remove it) */
	ck_assert_int_eq(chmod(dir, 01777), 0);
	ck_assert_msg(bsf_plugin_load(path, &p, err, sizeof err) == 0, "%s", err);
	bsf_plugin_unload(&p);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(not_a_file)
{
	struct bsf_plugin p;
	char path[512], err[1024];
	const char *b = getenv("top_builddir");

	/* a directory */
	snprintf(path, sizeof path, "%s/agent/tests/.libs", b ? b : ".");
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	ck_assert(strstr(err, "not a regular file") != NULL);
	/* nothing there */
	ck_assert_int_eq(bsf_plugin_load("/nonexistent/bsflowd/x.so", &p, err, sizeof err), -1);
	ck_assert_str_eq(err,
			 "backend plugin /nonexistent/bsflowd/x.so: No such file or directory");
}
END_TEST

START_TEST(not_a_shared_object)
{
	struct bsf_plugin p;
	char path[512];
	char err[1024];
	const char *b = getenv("top_builddir");
	int fd;

	snprintf(path, sizeof path, "%s/agent/tests/bsfplugXXXXXX", b ? b : ".");
	fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "hello\n", 6), 6);
	close(fd);
	ck_assert_int_eq(bsf_plugin_load(path, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "cannot load") != NULL, "got: %s", err);
	unlink(path);
}
END_TEST

START_TEST(check_ops)
{
	struct bsf_backend_ops o;
	char err[256];

	memset(&o, 0, sizeof o);
	o.abi_version = BSF_BACKEND_ABI_VERSION;
	o.size = sizeof o;
	ck_assert_int_eq(bsf_backend_check_ops(&o, "x", err, sizeof err), -1);
	ck_assert_str_eq(err, "x: backend has no open function");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin");
	TCase *tc = tcase_create("plugin");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, good);
	tcase_add_test(tc, wrong_abi);
	tcase_add_test(tc, abi_1);
	tcase_add_test(tc, abi_2);
	tcase_add_test(tc, abi_range);
	tcase_add_test(tc, ops_too_small);
	tcase_add_test(tc, old_layout);
	tcase_add_test(tc, own_state);
	tcase_add_test(tc, wrap_push_lost);
	tcase_add_test(tc, missing_symbol);
	tcase_add_test(tc, not_a_file);
	tcase_add_test(tc, data_entry);
	tcase_add_test(tc, unsafe_permissions);
	tcase_add_test(tc, not_a_shared_object);
	tcase_add_test(tc, check_ops);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
