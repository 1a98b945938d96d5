/*
 * print_own.c - print bsflowd's own sFlow structures (sflow_own.h) in
 * bsflow-collect's output, by name (see print.h for when these are
 * called).
 *
 * STATUS: stub.  Until the own structures are defined, own records are
 * printed like unknown ones (length and body bytes) and own samples have no
 * fields of their own.
 */
#include "collector-test/print.h"

void collect_print_own_record(struct collect_out *o, const struct sflow_record *r)
{
	collect_out_unknown_body(o, r->length, r->body);
}

void collect_print_own_sample_fields(struct collect_out *o, const struct sflow_sample *s)
{
	(void)o;
	(void)s;
}
