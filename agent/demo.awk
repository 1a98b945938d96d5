# demo.awk - turn bsflow-collect's text output into a per-port table for
# `make demo` (until bsflow-collect has a table mode of its own).
#
# Per port (counters samples of data source 0:ifIndex): the egress peak
# buffer use of the port and of its fullest queue in the last interval
# (4413:2, percent of the allocation) and the highest seen so far; the
# discards (in / out) since the first sample; the worst queue delay in the
# last interval (bsflowd's own queue-delay record: the non-tagged maximum,
# else the marker delay).  Redrawn when a datagram arrives in a new second.
# Variables: clear=1 to clear the screen before each table.
#
# SPDX-License-Identifier: BSD-2-Clause

function pct(v) {
	return v < 0 ? "    -" : sprintf("%5.2f", v / 100)
}

function draw(   i, p) {
	if (clear)
		printf "\033[H\033[2J"
	printf "bsflowd demo: %d datagrams, %d counters samples, device peak %s%%\n", \
		ndgram, nsamples, pct(dev_uc)
	printf "%-8s %-8s %8s %8s %8s %10s %10s %12s\n", "ifIndex", "name", "egress%", \
		"queue%", "max%", "in-drops", "out-drops", "delay-us"
	for (i = 1; i <= nports; i++) {
		p = order[i]
		printf "%-8s %-8s %8s %8s %8s %10d %10d %12.1f\n", p, name[p], pct(egr[p]), \
			pct(qmax[p]), pct(best[p]), indisc[p] - indisc0[p], \
			outdisc[p] - outdisc0[p], delay[p] / 1000
	}
	fflush()
}

/^startDatagram/ { ndgram++ }
/^unixSecondsUTC/ { now = $2 }
/^startSample/ { src = ""; q = -1; d = 0 }
/^sourceId/ {
	src = $2
	if (src ~ /^0:/) {
		port = substr(src, 3) + 0
		if (!(port in seen)) {
			seen[port] = 1
			order[++nports] = port
			# keep the ports sorted by ifIndex
			for (i = nports; i > 1 && order[i - 1] > order[i]; i--) {
				t = order[i]; order[i] = order[i - 1]; order[i - 1] = t
			}
		}
	}
}
src ~ /^0:/ && /^ifName / { name[port] = $2 }
src ~ /^0:/ && /^ifInDiscards / {
	if (!(port in indisc0)) indisc0[port] = $2
	indisc[port] = $2
}
src ~ /^0:/ && /^ifOutDiscards / {
	if (!(port in outdisc0)) outdisc0[port] = $2
	outdisc[port] = $2
}
src ~ /^0:/ && /^bst_egress_uc_pc / { egr[port] = $2 }
src ~ /^0:/ && /^bst_egress_queue_uc_pc\./ { if ($2 > q) q = $2 }
src ~ /^0:/ && /^bsf_delay_uc_[0-9]+_(max|marker)_ns / { if ($2 > d) d = $2 }
src == "2:1" && /^bst_device_uc_pc / { dev_uc = $2 }
/^endSample/ {
	if (src ~ /^0:/) {
		nsamples++
		qmax[port] = q
		if (q > best[port]) best[port] = q
		if (egr[port] > best[port]) best[port] = egr[port]
		delay[port] = d
	} else if (src != "") {
		nsamples++
	}
}
/^endDatagram/ {
	if (now != drawn) {
		drawn = now
		draw()
	}
}
END { if (ndgram) draw() }
