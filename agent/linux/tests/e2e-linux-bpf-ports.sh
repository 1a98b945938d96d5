#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-ports.sh - e2e-linux-ports.sh with the
# bpf source on: its object is loaded again on the new set of ports and
# measures the new port's queue.  SKIPs without BPF support or kernel BTF.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
PORTS_BPF=1
export PORTS_BPF
exec "$top_srcdir/agent/linux/tests/e2e-linux-ports.sh"
