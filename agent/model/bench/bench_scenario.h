/*
 * bench_scenario.h - the switch model's benchmark scenario (the model
 * section of a config): a 64-port 100G switch with 8 unicast queues per
 * port at about 60 % load of IMIX packets, four uniform-destination
 * Poisson streams per port (DSCP 0, 8, 16, 24: 15 % each) plus an 8:1
 * incast group bursting at line rate into port 0.  make bench runs it
 * (bench_model.c), and so does make bench-ab (bench_ab.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_BENCH_SCENARIO_H
#define BSFLOWD_MODEL_BENCH_SCENARIO_H

static const char bench_scenario[] =
    "model {\n"
    "  seed = 7\n"
    "  ports = 64\n"
    "  speed = 100G\n"
    "  buffer = 32M\n"
    "  unicast_queues = 8\n"
    "  traffic tc0 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 0 flows = 2 }\n"
    "  traffic tc1 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 8 flows = 2 }\n"
    "  traffic tc2 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 16 flows = 2 }\n"
    "  traffic tc3 { ports = {0-63} destination = uniform rate = 15% arrival = poisson\n"
    "                size = imix dscp = 24 flows = 2 }\n"
    "  traffic incast { ports = {1-8} destination = incast to = 0 rate = 100%\n"
    "                arrival = onoff period = 1ms duty = 2% size = imix dscp = 0 flows = 2 }\n"
    "}\n";

#endif
