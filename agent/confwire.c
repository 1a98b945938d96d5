/*
 * confwire.c - configuration values the sFlow wire format rules out (see
 * confwire.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "agent/confwire.h"

const char *confwire_enterprise_refused(long v)
{
	if (v == 0)
		return "0 is the enterprise of the standard sFlow structures; bsflowd's own "
		       "records need an enterprise number of their own (an IANA Private "
		       "Enterprise Number)";
	if (v == 4413)
		return "4413 is Broadcom's, whose 4413:1, 4413:2 and 4413:3 (BST buffer "
		       "structures) bsflowd also sends: its own records would carry the same "
		       "tags and collectors would misread them; use an IANA Private Enterprise "
		       "Number of your own";
	return 0;
}
