# agent/model/traffic.mk - traffic sources, scenario config and bsflow-sim (included by the top Makefile.am).
