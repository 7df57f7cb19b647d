/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "log.h"
#include "status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static rx_config_t rx_cfg;
static int rx_cfg_loaded;

struct rx_config_row {
    const char *name, *type, *def, *help;
};

static const struct rx_config_row rx_config_rows[] = {
#define RX_CONFIG(name, type, def, help) {#name, #type, def, help},
#include "config_table.h"
#undef RX_CONFIG
};

int rx_parse_size(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || end == s)
        return -1;
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static int rx_config_set_INT(long long *field, const char *name, const char *val)
{
    if (rx_parse_size(val, field)) {
        rx_log_error("RDMX_%s=\"%s\" is not an integer", name, val);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

static int rx_config_set_STR(const char **field, const char *name, const char *val)
{
    (void)name;
    *field = val;
    return RX_OK;
}

__attribute__((unused)) static int rx_config_set_BOOL(int *field, const char *name, const char *val)
{
    if (!strcmp(val, "1") || !strcasecmp(val, "yes") || !strcasecmp(val, "on") || !strcasecmp(val, "true"))
        *field = 1;
    else if (!strcmp(val, "0") || !strcasecmp(val, "no") || !strcasecmp(val, "off") || !strcasecmp(val, "false"))
        *field = 0;
    else {
        rx_log_error("RDMX_%s=\"%s\" is not a boolean", name, val);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

int rx_config_load(void)
{
    int rc = RX_OK;
    const char *val;
#define RX_CONFIG(name, type, def, help)                                       \
    val = getenv("RDMX_" #name);                                               \
    if (rx_config_set_##type(&rx_cfg.name, #name, def) != RX_OK)               \
        rc = RX_ERR_INTERN;                                                    \
    if (val && *val && rx_config_set_##type(&rx_cfg.name, #name, val) != RX_OK) \
        rc = RX_ERR_INVAL;
#include "config_table.h"
#undef RX_CONFIG
    rx_cfg_loaded = 1;
    return rc;
}

const rx_config_t *rx_config(void)
{
    if (!rx_cfg_loaded)
        rx_config_load();
    return &rx_cfg;
}

void rx_config_print(FILE *out)
{
    size_t n = sizeof(rx_config_rows) / sizeof(rx_config_rows[0]);
    for (size_t i = 0; i < n; i++) {
        char env[128];
        snprintf(env, sizeof env, "RDMX_%s", rx_config_rows[i].name);
        const char *cur = getenv(env);
        fprintf(out, "%-24s %-4s default: %-8s%s%s\n    %s\n", env, rx_config_rows[i].type,
                rx_config_rows[i].def, cur ? "  current: " : "", cur ? cur : "",
                rx_config_rows[i].help);
    }
}

void rx_config_print_markdown(FILE *out)
{
    size_t n = sizeof(rx_config_rows) / sizeof(rx_config_rows[0]);
    fprintf(out, "| variable | type | default | meaning |\n| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "| `RDMX_%s` | %s | `%s` | %s |\n", rx_config_rows[i].name,
                rx_config_rows[i].type, rx_config_rows[i].def, rx_config_rows[i].help);
}
