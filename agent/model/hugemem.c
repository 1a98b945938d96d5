/*
 * hugemem.c - the model's large arrays in transparent huge pages where
 * the kernel offers them (see hugemem.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "agent/model/hugemem.h"

static atomic_size_t mapped, mapped_asked;

#if defined(MAP_ANONYMOUS) && !defined(HUGEMEM_MALLOC_ONLY)
#define HUGEMEM_MMAP 1
#else
#define HUGEMEM_MMAP 0
#endif

/* Is an array of size bytes in a mapping of its own? */
static int is_mapped(size_t size)
{
	return HUGEMEM_MMAP && size >= HUGEMEM_MIN;
}

#if HUGEMEM_MMAP
/* The size a mapped array takes: whole huge pages. */
static size_t mapped_size(size_t size)
{
	return (size + HUGEMEM_PAGE - 1) & ~(size_t)(HUGEMEM_PAGE - 1);
}

/* A mapping of size bytes (rounded up to huge pages) at a huge-page
 * boundary, asked to be in huge pages; zero, as every new anonymous
 * mapping.  NULL if the system has no room. */
static void *map_huge(size_t size)
{
	/* map one huge page more than needed and unmap what lies before the
	 * first huge-page boundary and after the array's last page: the
	 * kernel backs only aligned 2 MiB ranges with huge pages */
	size_t need = mapped_size(size), span = need + HUGEMEM_PAGE;
	char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)raw + HUGEMEM_PAGE - 1) & ~(uintptr_t)(HUGEMEM_PAGE - 1);
	char *p = raw + (a - (uintptr_t)raw);
	size_t head = (size_t)(p - raw), tail = span - head - need;
	if (head > 0)
		munmap(raw, head);
	if (tail > 0)
		munmap(p + need, tail);
#ifdef MADV_HUGEPAGE
	/* only a request: without transparent huge pages it fails, and the
	 * array is in small pages as any other */
	(void)madvise(p, need, MADV_HUGEPAGE);
#endif
	atomic_fetch_add(&mapped, need);
	atomic_fetch_add(&mapped_asked, size);
	return p;
}

static void unmap_huge(void *p, size_t size)
{
	munmap(p, mapped_size(size));
	atomic_fetch_sub(&mapped, mapped_size(size));
	atomic_fetch_sub(&mapped_asked, size);
}
#else
static void *map_huge(size_t size)
{
	return NULL; /* (not called: is_mapped is 0) */
}

static void unmap_huge(void *p, size_t size)
{
}
#endif

void *hugemem_alloc(size_t size)
{
	if (size == 0 || size > SIZE_MAX / 2)
		return NULL;
	if (is_mapped(size))
		return map_huge(size);
	size_t n = (size + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, n);
	if (p != NULL)
		memset(p, 0, n);
	return p;
}

void hugemem_free(void *p, size_t size)
{
	if (p == NULL)
		return;
	if (is_mapped(size))
		unmap_huge(p, size);
	else
		free(p);
}

size_t hugemem_mapped(size_t *asked)
{
	if (asked != NULL)
		*asked = atomic_load(&mapped_asked);
	return atomic_load(&mapped);
}
