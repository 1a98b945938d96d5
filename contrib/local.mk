# contrib/local.mk - files shipped for other tools (included by the top
# Makefile.am): the Grafana dashboard for bsflow-collect --prometheus,
# installed as data; the script behind README's collector table (in the
# source tarball only).
#
# SPDX-License-Identifier: BSD-2-Clause
grafanadir = $(pkgdatadir)/grafana
dist_grafana_DATA = contrib/grafana/bsflowd-buffers.json
EXTRA_DIST += contrib/collectors-table.sh
