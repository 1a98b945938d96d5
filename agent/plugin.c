/*
 * plugin.c - the backend plugin loader: dlopen a .so by path, find its
 * entry point and check the interface version (the range this daemon
 * speaks), the table's size and its required functions before using
 * anything in it.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/abiwrap.h"
#include "agent/plugin.h"

/* Before anything of the object runs (its constructors run at dlopen, as
 * root for -t and for the daemon): like sshd's StrictModes, the file and
 * every directory above it (symbolic links resolved) must belong to root
 * or to this user and be writable by nobody else (a sticky directory such
 * as /tmp excepted).  0, or -1 with a
 * message. */
static int plugin_path_safe(const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX];
	uid_t me = geteuid();
	size_t n;

	if (!realpath(path, real)) {
		snprintf(err, errlen, "backend plugin %s: %s", path, strerror(errno));
		return -1;
	}
	n = strlen(real);
	for (;;) {
		const char *what = n ? real : "/";
		struct stat st;
		int writable;

		if (stat(what, &st) < 0) {
			snprintf(err, errlen, "backend plugin %s: %s: %s", path, what,
				 strerror(errno));
			return -1;
		}
		/* a sticky directory (/tmp) writable by others is safe: no one
		 * but an entry's owner can rename or remove it */
		writable = (st.st_mode & (S_IWGRP | S_IWOTH)) &&
			   !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX));
		if ((st.st_uid != 0 && st.st_uid != me) || writable) {
			snprintf(
			    err, errlen,
			    "backend plugin %s: refused: %s %s %s (owner uid %u, mode %04o); a "
			    "plugin and every directory above it must belong to root or to "
			    "the user bsflowd runs as and be writable by no one else",
			    path, S_ISDIR(st.st_mode) ? "directory" : "file", what,
			    writable ? "is writable by others" : "belongs to another user",
			    (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
			return -1;
		}
		if (n == 0)
			return 0;
		while (n > 0 && real[n] != '/')
			n--;
		real[n] = '\0';
	}
}

/* The entry symbol must be a function of the object (a data symbol of
 * that name would be called as code).  0, or -1 with a message.
 * (ELF64_ST_TYPE is ELF32_ST_TYPE: the low 4 bits of st_info.) */
static int plugin_entry_is_function(const char *path, void *sym, char *err, size_t errlen)
{
	Dl_info info;
	const ElfW(Sym) *es = NULL;

	if (dladdr1(sym, &info, (void **)&es, RTLD_DL_SYMENT) == 0 || !es ||
	    (ELF64_ST_TYPE(es->st_info) != STT_FUNC &&
	     ELF64_ST_TYPE(es->st_info) != STT_GNU_IFUNC)) {
		snprintf(err, errlen,
			 "backend plugin %s: %s is not a function (not a bsflowd "
			 "backend?)",
			 path, BSF_BACKEND_ENTRY);
		return -1;
	}
	return 0;
}

int bsf_backend_check_ops(const struct bsf_backend_ops *raw, const char *what, char *err,
			  size_t errlen)
{
	struct bsf_backend_ops o;
	const char *missing = NULL;

	/* abi_version is where every version had it; nothing else is read
	 * before it is known to be in range */
	if (raw->abi_version < BSF_BACKEND_ABI_MIN || raw->abi_version > BSF_BACKEND_ABI_VERSION) {
		if (BSF_BACKEND_ABI_MIN == BSF_BACKEND_ABI_VERSION)
			snprintf(err, errlen,
				 "%s: backend interface version %u, but this bsflowd speaks "
				 "version %u only (rebuild the backend against this "
				 "<bsflowd/backend.h>)",
				 what, raw->abi_version, BSF_BACKEND_ABI_VERSION);
		else
			snprintf(err, errlen,
				 "%s: backend interface version %u, but this bsflowd speaks "
				 "versions %u to %u (rebuild the backend against this "
				 "<bsflowd/backend.h>)",
				 what, raw->abi_version, BSF_BACKEND_ABI_MIN,
				 BSF_BACKEND_ABI_VERSION);
		return -1;
	}
	if (raw->size < BSF_ABI_OPS_MIN) {
		snprintf(err, errlen,
			 "%s: backend function table of %u bytes, less than the %zu of the "
			 "functions every backend must have (size not set to sizeof?)",
			 what, raw->size, (size_t)BSF_ABI_OPS_MIN);
		return -1;
	}
	bsf_abi_ops_copy(&o, raw);
	if (!o.open)
		missing = "open";
	else if (!o.close)
		missing = "close";
	else if (!o.describe)
		missing = "describe";
	else if (!o.read_counters)
		missing = "read_counters";
	else if (!o.read_port_buffers)
		missing = "read_port_buffers";
	else if (!o.read_device_buffers)
		missing = "read_device_buffers";
	else if (!o.read_delays)
		missing = "read_delays";
	if (missing) {
		snprintf(err, errlen, "%s: backend has no %s function", what, missing);
		return -1;
	}
	return 0;
}

int bsf_plugin_load(const char *path, struct bsf_plugin *p, char *err, size_t errlen)
{
	struct stat st;
	bsf_backend_entry_fn entry;
	void *sym;

	memset(p, 0, sizeof *p);
	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "backend plugin %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "backend plugin %s: not a regular file", path);
		return -1;
	}
	if (plugin_path_safe(path, err, errlen) < 0)
		return -1;
	p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		const char *e = dlerror();

		snprintf(err, errlen, "backend plugin %s: cannot load: %s", path,
			 e ? e : "unknown error");
		return -1;
	}
	dlerror();
	sym = dlsym(p->handle, BSF_BACKEND_ENTRY);
	if (!sym) {
		snprintf(err, errlen, "backend plugin %s: no symbol %s (not a bsflowd backend?)",
			 path, BSF_BACKEND_ENTRY);
		goto fail;
	}
	if (plugin_entry_is_function(path, sym, err, errlen) < 0)
		goto fail;
	/* POSIX: a function pointer and void * convert through memcpy */
	memcpy(&entry, &sym, sizeof entry);
	p->ops = entry();
	if (!p->ops) {
		snprintf(err, errlen, "backend plugin %s: %s() returned NULL", path,
			 BSF_BACKEND_ENTRY);
		goto fail;
	}
	{
		char what[600];

		snprintf(what, sizeof what, "backend plugin %s", path);
		if (bsf_backend_check_ops(p->ops, what, err, errlen) < 0)
			goto fail;
	}
	return 0;
fail:
	dlclose(p->handle);
	memset(p, 0, sizeof *p);
	return -1;
}

void bsf_plugin_unload(struct bsf_plugin *p)
{
	if (p->handle)
		dlclose(p->handle);
	memset(p, 0, sizeof *p);
}
