# etc/local.mk - rules for etc (included by the top Makefile.am).
