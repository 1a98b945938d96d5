/*
 * confhint.h - the hints added to "unknown key" in configuration errors:
 * a key of the same section within an edit distance of 1 or 2 ("did you
 * mean polling_interval?"), else the section where the key belongs
 * ("polling_interval belongs at the top level" / "in section agent").
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_CONFHINT_H
#define BSFLOWD_AGENT_CONFHINT_H

#include <confuse.h>
#include <stddef.h>

/* Edit distance (insertions, deletions, substitutions, adjacent
 * transpositions) of a and b, capped at 3 (3 means "3 or more"). */
unsigned conf_hint_distance(const char *a, const char *b);

/* Append to out (of size len, already holding a message) the hint for key
 * unknown in section sec of the tree whose root is root; nothing when no
 * hint applies. */
void conf_hint_unknown(const cfg_t *sec, const cfg_t *root, const char *key, char *out, size_t len);

#endif
