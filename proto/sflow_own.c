/*
 * sflow_own.c - decoding of bsflowd's own sFlow structures (see sflow_own.h).
 * STATUS: placeholder until the daemon issue defines the records.
 */
#include "proto/sflow_own.h"

int sflow_own_decode_record(uint32_t format, uint32_t in_sample, struct sflow_r *r,
			    struct sflow_own_record *out)
{
	(void)in_sample;
	(void)r;
	out->format = format;
	return 1;
}

int sflow_own_decode_sample(uint32_t format, struct sflow_r *r, struct sflow_own_sample *out)
{
	(void)r;
	out->format = format;
	return 1;
}

const char *sflow_own_record_name(uint32_t format, uint32_t in_sample)
{
	(void)format;
	(void)in_sample;
	return 0;
}

const char *sflow_own_sample_name(uint32_t format)
{
	(void)format;
	return 0;
}
