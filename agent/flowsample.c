/*
 * flowsample.c - 0:3 flow samples from sampled-packet events, and the
 * per-port flow sampling state (see flowsample.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "agent/flowsample.h"
#include "agent/evsample.h"
#include "proto/sflow_encode.h"

int bsf_flowsample_vlan(const uint8_t *hdr, uint32_t hdr_len, uint32_t *vid, uint32_t *pcp)
{
	uint32_t tpid;

	if (!hdr || hdr_len < 16)
		return 0;
	tpid = ((uint32_t)hdr[12] << 8) | hdr[13];
	if (tpid != 0x8100 && tpid != 0x88a8)
		return 0;
	*vid = (((uint32_t)hdr[14] << 8) | hdr[15]) & 0x0fffu;
	*pcp = hdr[14] >> 5;
	return 1;
}

int bsf_flowsample_encode(const struct bsf_flowsample_params *p, const struct bsf_event *ev,
			  uint8_t *buf, size_t cap, size_t *len)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_flow_sample h;
	struct sflow_sampled_header sh;
	struct sflow_ext_switch xs;
	uint32_t vid = 0, pcp = 0;
	int mc;

	if (!p || !ev || ev->type != BSF_EV_SAMPLE || p->header_bytes < BSF_FLOW_HEADER_MIN ||
	    p->header_bytes > BSF_FLOW_HEADER_MAX)
		return SFLOW_ERR_INVALID;
	mc = ev->multicast != 0;
	memset(&h, 0, sizeof h);
	h.sequence_number = p->seq;
	h.source_id_type = SFLOW_DS_IFINDEX;
	h.source_id_index = p->source_ifindex;
	h.sampling_rate = p->sampling_rate;
	h.sample_pool = p->sample_pool;
	h.drops = p->drops;
	h.input_format = SFLOW_IF_FORMAT_IFINDEX;
	h.input_value = p->in_ifindex;
	if (ev->reason != 0) {
		/* sampled, then dropped: sFlow's discarded-packet output */
		h.output_format = SFLOW_IF_FORMAT_DISCARDED;
		h.output_value = ev->reason;
	} else if (mc) {
		h.output_format = SFLOW_IF_FORMAT_MULTIPLE;
		h.output_value =
		    ev->multicast > 1 ? ev->multicast : BSF_FLOW_OUTPUT_MULTIPLE_UNKNOWN;
	} else {
		h.output_format = SFLOW_IF_FORMAT_IFINDEX;
		h.output_value = p->out_ifindex;
	}

	sflow_w_init(&w, buf, cap);
	sflow_enc_flow_begin(&w, &s, &h);

	bsf_evsample_header(&sh, ev->hdr, ev->hdr_len, ev->frame_len, p->header_bytes);
	sflow_enc_sampled_header(&w, &s, &sh);

	if (p->header_only)
		goto end;
	bsf_flowsample_vlan(ev->hdr, sh.header_length, &vid, &pcp);
	xs.src_vlan = vid;
	xs.src_priority = pcp;
	xs.dst_vlan = vid;
	xs.dst_priority = pcp;
	sflow_enc_ext_switch(&w, &s, &xs);

	/* the depth is that of the egress queue record: never without it;
	 * an unknown depth or transit (BSF_UNKNOWN) is left out */
	if (!mc && p->out_ifindex != 0 && ev->queue != UINT32_MAX) {
		sflow_enc_egress_queue(&w, &s, ev->queue);
		sflow_enc_bst_egress_queue(&w, &s, ev->queue);
		if (ev->depth_bytes != BSF_UNKNOWN)
			sflow_enc_queue_depth(&w, &s, ev->depth_bytes);
	}
	if (ev->reason == 0 && ev->transit_ns != BSF_UNKNOWN) /* a dropped packet has none */
		sflow_enc_transit(&w, &s, ev->transit_ns);
	sflow_enc_timestamp(&w, &s, ev->t_ns);
end:
	sflow_enc_sample_end(&w, &s);
	if (w.err != SFLOW_OK)
		return w.err;
	*len = w.len;
	return SFLOW_OK;
}

/* ---- state */

void bsf_flows_init(struct bsf_flows *f)
{
	memset(f, 0, sizeof *f);
	f->header_bytes = BSF_FLOW_HEADER_DEFAULT;
}

void bsf_flows_fini(struct bsf_flows *f)
{
	free(f->ports);
	f->ports = NULL;
	f->nports = 0;
}

/* The data sources of dev's ports, keeping those of known ifIndexes;
 * fold: a new backend (its count folded into drops), else the same one
 * (its count goes on). */
static int set_device(struct bsf_flows *f, const struct bsf_device_desc *dev, int fold)
{
	struct bsf_flows_port *np = NULL;
	uint32_t n = dev ? dev->nports : 0;

	if (n > 0) {
		np = calloc(n, sizeof *np);
		if (!np)
			return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct bsf_port_desc *d = &dev->ports[i];

		np[i].ifindex = d->ifindex;
		np[i].rate = d->sampling_rate;
		np[i].next_seq = 1;
		for (uint32_t j = 0; j < f->nports; j++) {
			if (f->ports[j].ifindex == d->ifindex) {
				np[i].next_seq = f->ports[j].next_seq;
				np[i].samples = f->ports[j].samples;
				np[i].drops = f->ports[j].drops;
				if (fold)
					np[i].drops += f->ports[j].backend_drops;
				else
					np[i].backend_drops = f->ports[j].backend_drops;
				break;
			}
		}
	}
	free(f->ports);
	f->ports = np;
	f->nports = n;
	return 0;
}

int bsf_flows_set_device(struct bsf_flows *f, const struct bsf_device_desc *dev)
{
	return set_device(f, dev, 1);
}

int bsf_flows_device_changed(struct bsf_flows *f, const struct bsf_device_desc *dev)
{
	return set_device(f, dev, 0);
}

void bsf_flows_set_rate(struct bsf_flows *f, uint32_t port, uint32_t rate)
{
	if (port < f->nports)
		f->ports[port].rate = rate;
}

int bsf_flows_build(struct bsf_flows *f, const struct bsf_event *ev, uint64_t pool, uint8_t *buf,
		    size_t cap, size_t *len)
{
	struct bsf_flowsample_params p;
	struct bsf_flows_port *fp;
	int r;

	if (!ev || ev->type != BSF_EV_SAMPLE)
		return SFLOW_ERR_INVALID;
	if (ev->in_port >= f->nports) {
		f->no_source++;
		return SFLOW_ERR_INVALID;
	}
	fp = &f->ports[ev->in_port];
	memset(&p, 0, sizeof p);
	p.seq = fp->next_seq;
	p.source_ifindex = fp->ifindex;
	p.sampling_rate = fp->rate;
	p.sample_pool = (uint32_t)pool;
	p.drops = (uint32_t)(fp->drops + fp->backend_drops);
	p.in_ifindex = fp->ifindex;
	p.out_ifindex = ev->out_port < f->nports ? f->ports[ev->out_port].ifindex : 0;
	p.header_bytes = f->header_bytes;
	r = bsf_flowsample_encode(&p, ev, buf, cap, len);
	/* too big for the datagram: fewer header bytes, then 0:1 alone */
	for (int only = 0; r == SFLOW_ERR_FULL && only < 2; only++) {
		size_t over = only ? BSF_FLOW_OVERHEAD_MIN : BSF_FLOW_OVERHEAD;

		if (cap < over + BSF_FLOW_HEADER_MIN)
			continue;
		p.header_only = only;
		p.header_bytes = (uint32_t)((cap - over) & ~(size_t)3);
		if (p.header_bytes > f->header_bytes)
			p.header_bytes = f->header_bytes;
		if (p.header_bytes < BSF_FLOW_HEADER_MIN)
			p.header_bytes = BSF_FLOW_HEADER_MIN;
		r = bsf_flowsample_encode(&p, ev, buf, cap, len);
		if (r == SFLOW_OK)
			f->cut++;
	}
	if (r == SFLOW_OK) {
		fp->next_seq++;
		fp->samples++;
	}
	return r;
}

void bsf_flows_lost(struct bsf_flows *f, uint32_t port, uint64_t n)
{
	if (port < f->nports)
		f->ports[port].drops += n;
}

void bsf_flows_backend_lost(struct bsf_flows *f, uint32_t port, uint64_t total)
{
	if (port < f->nports)
		f->ports[port].backend_drops = total;
}
