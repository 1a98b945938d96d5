/* xdr.c - placeholder */
#include "proto/xdr.h"
