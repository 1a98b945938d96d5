# man/local.mk - rules for man (included by the top Makefile.am).
