/* SPDX-License-Identifier: MIT
 * Runtime configuration from RDMX_* environment variables.
 * rx_config_load() reads the environment once; rx_config() returns the values. */
#ifndef RX_CONFIG_H
#define RX_CONFIG_H

#include <stdio.h>

#define RX_CONFIG_TYPE_INT long long
#define RX_CONFIG_TYPE_STR const char *
#define RX_CONFIG_TYPE_BOOL int

typedef struct rx_config {
#define RX_CONFIG(name, type, def, help) RX_CONFIG_TYPE_##type name;
#include "config_table.h"
#undef RX_CONFIG
} rx_config_t;

/* Parse the environment; returns RX_OK or RX_ERR_INVAL (message logged). */
int rx_config_load(void);
const rx_config_t *rx_config(void);
/* Print every variable, its default, current value and meaning. */
void rx_config_print(FILE *out);
/* Print the table as Markdown (docs/configuration.md is generated from it). */
void rx_config_print_markdown(FILE *out);
/* Parse "16k", "4M", "1g" into bytes; returns 0 on success. */
int rx_parse_size(const char *s, long long *out);

#endif
