/* sflow_drops.c - placeholder */
#include "proto/sflow_drops.h"
