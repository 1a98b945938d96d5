# proto/local.mk - libsflow: sFlow v5 XDR encoding and decoding (no I/O).
# Included by the top Makefile.am.

noinst_LIBRARIES += proto/libsflow.a
proto_libsflow_a_SOURCES = \
	proto/xdr.c proto/xdr.h \
	proto/sflow.h \
	proto/sflow_encode.c proto/sflow_encode.h \
	proto/sflow_decode.c proto/sflow_decode.h \
	proto/sflow_drops.c proto/sflow_drops.h \
	proto/sflow_own.c proto/sflow_own.h
