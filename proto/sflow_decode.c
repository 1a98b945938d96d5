/* sflow_decode.c - placeholder */
#include "proto/sflow_decode.h"
