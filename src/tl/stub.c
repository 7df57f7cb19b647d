/* SPDX-License-Identifier: MIT
 * Shared slots of the transports' ops tables: operations a transport does
 * not offer answer RX_ERR_UNSUPPORTED, so every slot can be called and no
 * caller tests a pointer for NULL. */
#include "tl/tl.h"
#include "util/status.h"

#include <unistd.h>

int rx_tl_get_unsupported(rx_tl_t *tl, int world_peer, void *local, size_t len,
                          const rx_rkey_t *rkey, uint64_t offset)
{
    (void)tl, (void)world_peer, (void)local, (void)len, (void)rkey, (void)offset;
    return RX_ERR_UNSUPPORTED;
}

int rx_tl_put_unsupported(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                          const rx_rkey_t *rkey, uint64_t offset)
{
    (void)tl, (void)world_peer, (void)local, (void)len, (void)rkey, (void)offset;
    return RX_ERR_UNSUPPORTED;
}

int rx_tl_get_nb_unsupported(rx_tl_t *tl, int world_peer, void *local, size_t len,
                             const rx_rkey_t *rkey, uint64_t offset, rx_tl_done_t done,
                             void *arg)
{
    (void)tl, (void)world_peer, (void)local, (void)len, (void)rkey, (void)offset;
    (void)done, (void)arg;
    return RX_ERR_UNSUPPORTED;
}

int rx_tl_put_nb_unsupported(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                             const rx_rkey_t *rkey, uint64_t offset)
{
    (void)tl, (void)world_peer, (void)local, (void)len, (void)rkey, (void)offset;
    return RX_ERR_UNSUPPORTED;
}

int rx_tl_getv_unsupported(rx_tl_t *tl, int world_peer, const struct iovec *local,
                           size_t nlocal, const struct iovec *remote, size_t nremote,
                           const rx_rkey_t *rkey)
{
    (void)tl, (void)world_peer, (void)local, (void)nlocal, (void)remote, (void)nremote;
    (void)rkey;
    return RX_ERR_UNSUPPORTED;
}

int rx_tl_atomic_unsupported(rx_tl_t *tl, int world_peer, int op, int type, size_t count,
                             const void *operand, const void *compare, void *fetched,
                             const rx_rkey_t *rkey, uint64_t offset)
{
    (void)tl, (void)world_peer, (void)op, (void)type, (void)count, (void)operand;
    (void)compare, (void)fetched, (void)rkey, (void)offset;
    return RX_ERR_UNSUPPORTED;
}

int rx_tl_flush_complete(rx_tl_t *tl, int world_peer)
{
    (void)tl, (void)world_peer;
    return RX_OK;
}

void rx_tl_mem_release_none(rx_tl_t *tl, void *addr, size_t len) { (void)tl, (void)addr, (void)len; }

void rx_tl_rma_expose_none(rx_tl_t *tl) { (void)tl; }

void rx_tl_sleep_none(rx_tl_t *tl, int timeout_us) { (void)tl, (void)timeout_us; }

int rx_tl_mem_reg_pid(rx_tl_t *tl, void *addr, size_t len, rx_rkey_t *rkey)
{
    (void)tl, (void)len;
    rkey->addr = (uint64_t)(uintptr_t)addr;
    rkey->key = (uint64_t)getpid();
    return RX_OK;
}
