/*
 * bpfnop.c - the yardstick of the bpf benchmark (bench-bpf.sh): attaches
 * programs that do nothing (r0 = 0; exit) to the same tracepoints as the
 * linux backend's bpf source (tp_btf qdisc_enqueue, qdisc_dequeue), named
 * bench_nop_enq and bench_nop_deq, and waits until killed.  What the
 * kernel's BPF statistics (kernel.bpf_stats_enabled) count for them per
 * run is the cost of the tracepoint's call and of the statistics
 * themselves, which the benchmark takes off the bsf_ programs' run time.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int attach_nop(const char *tp, const char *name)
{
	struct bpf_insn insns[] = {
	    {.code = 0xb7, .dst_reg = 0, .imm = 0}, /* r0 = 0 */
	    {.code = 0x95},			    /* exit */
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_RAW_TP);
	int id = libbpf_find_vmlinux_btf_id(tp, BPF_TRACE_RAW_TP), fd;

	if (id < 0) {
		fprintf(stderr, "bpfnop: no tracepoint %s in the kernel's BTF\n", tp);
		return -1;
	}
	o.attach_btf_id = (unsigned)id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, name, "GPL", insns, 2, &o);
	if (fd < 0 || bpf_raw_tracepoint_open(NULL, fd) < 0) {
		fprintf(stderr, "bpfnop: %s: %s\n", tp, strerror(errno));
		return -1;
	}
	return 0;
}

int main(void)
{
	if (attach_nop("qdisc_enqueue", "bench_nop_enq") < 0 ||
	    attach_nop("qdisc_dequeue", "bench_nop_deq") < 0)
		return 1;
	printf("attached\n");
	fflush(stdout);
	pause();
	return 0;
}
