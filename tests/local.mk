# tests/local.mk - end-to-end tests of bsflowd (included by the top
# Makefile.am): the real daemon, mostly on its built-in model with a known
# scenario, received by bsflow-collect and independent decoders (tshark,
# pmacct's sfacctd) when installed; shared helpers in e2e-lib.sh.
#
# SPDX-License-Identifier: BSD-2-Clause

E2E_TESTS = \
	tests/e2e-print-own.sh \
	tests/e2e-congestion.sh \
	tests/e2e-reload.sh \
	tests/e2e-collectors.sh \
	tests/e2e-tshark.sh \
	tests/e2e-sfacctd.sh \
	tests/e2e-flows.sh \
	tests/e2e-drops.sh \
	tests/e2e-visibility.sh \
	tests/e2e-dns.sh \
	tests/e2e-pidfile.sh \
	tests/service-reload.sh \
	tests/e2e-admission.sh \
	tests/e2e-prometheus.sh \
	tests/e2e-sim-sflow.sh
TESTS += $(E2E_TESTS)
EXTRA_DIST += $(E2E_TESTS) \
	tests/e2e-lib.sh \
	tests/e2e-check.py \
	tests/e2e-flows-check.py \
	tests/e2e-visibility-check.py \
	tests/e2e-udp2pcap.py
