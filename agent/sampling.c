/*
 * sampling.c - per-port sampling rate resolution (see sampling.h for the
 * precedence rules).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <string.h>

#include "agent/sampling.h"

uint32_t bsf_sampling_derived(uint64_t speed_bps)
{
	uint64_t n;

	if (speed_bps == 0)
		return BSF_SAMPLING_FALLBACK;
	n = speed_bps / 1000000u + (speed_bps % 1000000u >= 500000u);
	if (n < 1)
		n = 1;
	if (n > BSF_SAMPLING_MAX)
		n = BSF_SAMPLING_MAX;
	return (uint32_t)n;
}

uint32_t bsf_sampling_resolve(const struct bsf_sampling_conf *c, const char *port_name,
			      uint64_t speed_bps, enum bsf_sampling_origin *origin)
{
	enum bsf_sampling_origin o = BSF_SAMPLING_FROM_DERIVED;
	uint32_t rate = 0;
	int found = 0;

	if (c && port_name) {
		for (size_t i = 0; i < c->nports && !found; i++) {
			if (c->ports[i].name && strcmp(c->ports[i].name, port_name) == 0) {
				rate = c->ports[i].rate;
				o = BSF_SAMPLING_FROM_PORT;
				found = 1;
			}
		}
	}
	if (c && !found && speed_bps != 0) {
		for (size_t i = 0; i < c->nspeeds && !found; i++) {
			if (c->speeds[i].speed_bps == speed_bps) {
				rate = c->speeds[i].rate;
				o = BSF_SAMPLING_FROM_SPEED;
				found = 1;
			}
		}
	}
	if (c && !found && c->have_default) {
		rate = c->default_rate;
		o = BSF_SAMPLING_FROM_DEFAULT;
		found = 1;
	}
	if (!found)
		rate = bsf_sampling_derived(speed_bps);
	if (origin)
		*origin = o;
	return rate;
}

int bsf_sampling_parse_speed(const char *s, uint64_t *bps)
{
	uint64_t v = 0, frac = 0, fdiv = 1, mult = 1;
	const char *p = s;

	if (!s || !*s)
		return -1;
	while (*p >= '0' && *p <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (p == s)
		return -1;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9') {
			if (fdiv >= 1000000000000ull)
				return -1; /* more decimals than any unit has */
			frac = frac * 10 + (uint64_t)(*p - '0');
			fdiv *= 10;
			p++;
		}
	}
	switch (*p) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mult = 1000ull;
		p++;
		break;
	case 'm':
	case 'M':
		mult = 1000000ull;
		p++;
		break;
	case 'g':
	case 'G':
		mult = 1000000000ull;
		p++;
		break;
	case 't':
	case 'T':
		mult = 1000000000000ull;
		p++;
		break;
	default:
		return -1;
	}
	if (*p != '\0' || v > UINT64_MAX / mult)
		return -1;
	/* the fraction must come out in whole bits per second */
	if (frac != 0 && (mult % fdiv != 0))
		return -1;
	v = v * mult + frac * (mult / fdiv);
	if (v == 0)
		return -1;
	*bps = v;
	return 0;
}

const char *bsf_sampling_origin_name(enum bsf_sampling_origin o)
{
	switch (o) {
	case BSF_SAMPLING_FROM_PORT:
		return "port";
	case BSF_SAMPLING_FROM_SPEED:
		return "speed";
	case BSF_SAMPLING_FROM_DEFAULT:
		return "default";
	case BSF_SAMPLING_FROM_DERIVED:
		return "derived";
	}
	return "?";
}
