/* SPDX-License-Identifier: MIT
 * A string -> index map (open addressing) for the loaders: host, switch and GUID names. */
#ifndef RX_TOPO_NAMES_H
#define RX_TOPO_NAMES_H

#include <stdint.h>

typedef struct rx_names {
    char **key;
    uint32_t *val;
    uint32_t cap, n;
} rx_names_t;

/* Value of name, or UINT32_MAX. */
uint32_t rx_names_get(const rx_names_t *m, const char *name);
/* Inserts name -> val (name copied); RX_ERR_INVAL if present already. */
int rx_names_put(rx_names_t *m, const char *name, uint32_t val);
void rx_names_free(rx_names_t *m);

#endif
