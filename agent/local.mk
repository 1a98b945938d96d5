# agent/local.mk - rules for agent (included by the top Makefile.am).
