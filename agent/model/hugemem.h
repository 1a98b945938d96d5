/*
 * hugemem.h - memory for the switch model's large arrays that the
 * per-packet paths touch all over (the ports, the sources' buffers, the
 * packet pool), in transparent huge pages where the kernel offers them.
 *
 * A packet touches a dozen cache lines spread over a few megabytes (its
 * ingress and egress port, PG, queue, packet record, source buffer): with
 * 4 KiB pages nearly every one of them is a different page, and the TLB
 * that maps pages to memory misses on most of them.  A 2 MiB page maps as
 * much as 512 small ones.  Linux gives huge pages to memory that asks for
 * them (madvise MADV_HUGEPAGE) when transparent huge pages are in
 * "madvise" or "always" mode; elsewhere the memory is ordinary pages and
 * only the rounding below differs.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_HUGEMEM_H
#define BSFLOWD_MODEL_HUGEMEM_H

#include <stddef.h>

/* Arrays of at least this many bytes get pages of their own (mapped,
 * rounded up to HUGEMEM_PAGE bytes and aligned to them: at most 1.5 MiB
 * more than they need); smaller ones come from malloc, as do all of them
 * in a build with AddressSanitizer (HUGEMEM_MALLOC_ONLY), which checks
 * malloc's blocks only. */
#define HUGEMEM_MIN  (512u * 1024u)
#define HUGEMEM_PAGE (2u * 1024u * 1024u)
#if defined(__SANITIZE_ADDRESS__)
#define HUGEMEM_MALLOC_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUGEMEM_MALLOC_ONLY 1
#endif
#endif

/* size bytes (not 0), zeroed, aligned to at least 64 bytes; NULL if out of
 * memory.  Free with hugemem_free and the same size. */
void *hugemem_alloc(size_t size);
void hugemem_free(void *p, size_t size);

/* Bytes this process has in hugemem_alloc's own mappings now (whole huge
 * pages), and in *asked (if not NULL) the bytes the arrays in them asked
 * for; what malloc gives is counted by malloc's statistics. */
size_t hugemem_mapped(size_t *asked);

#endif
