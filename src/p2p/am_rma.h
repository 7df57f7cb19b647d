/* SPDX-License-Identifier: MIT
 * Active messages of other layers: the p2p handler owns the transport's one
 * upcall and passes message types from RX_AM_RMA_FIRST on to the hook the
 * one-sided layer installs (src/rma/am.c), so p2p knows nothing of RMA. */
#ifndef RX_P2P_AM_RMA_H
#define RX_P2P_AM_RMA_H

#include "tl/tl.h"

#define RX_AM_RMA_FIRST 32

extern rx_am_handler_t rx_p2p_rma_hook;

#endif
