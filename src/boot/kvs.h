/* SPDX-License-Identifier: MIT
 * An in-memory key-value table with fence semantics: a put is pending until
 * rx_kvs_commit makes every pending put visible to rx_kvs_get at once. The
 * launcher keeps the job's store in one; the singleton client keeps its own. */
#ifndef RX_BOOT_KVS_H
#define RX_BOOT_KVS_H

#include <stddef.h>

#define RX_KVS_KEY_MAX 64   /* bytes including the NUL: keys of up to 63 characters */
#define RX_KVS_VAL_MAX 1024 /* bytes including the NUL */

typedef struct rx_kvs rx_kvs_t;

int rx_kvs_create(rx_kvs_t **out);
void rx_kvs_destroy(rx_kvs_t *kvs);
/* Stage key=value; a later put of the same key replaces the earlier one at the
 * next commit. RX_ERR_INVAL when the key or value is too long. */
int rx_kvs_put(rx_kvs_t *kvs, const char *key, const char *value);
/* Make every staged put visible. */
int rx_kvs_commit(rx_kvs_t *kvs);
/* The committed value or NULL; the pointer stays valid until the key is
 * replaced or the table destroyed. */
const char *rx_kvs_get(const rx_kvs_t *kvs, const char *key);
size_t rx_kvs_count(const rx_kvs_t *kvs);

#endif
