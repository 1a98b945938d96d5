# agent/model/local.mk - rules for agent/model (included by the top Makefile.am).
