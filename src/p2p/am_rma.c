/* SPDX-License-Identifier: MIT
 * The hook through which one-sided messages leave the p2p handler. */
#include "am_rma.h"

rx_am_handler_t rx_p2p_rma_hook;
