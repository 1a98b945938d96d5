/* sflow_encode.c - placeholder */
#include "proto/sflow_encode.h"
