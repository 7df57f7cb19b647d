/* SPDX-License-Identifier: MIT */
#include "log.h"
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rx_log_level = RX_LOG_WARN;
static char rx_log_prefix[64] = "rdmx";

void rx_log_set_prefix(const char *prefix)
{
    snprintf(rx_log_prefix, sizeof rx_log_prefix, "%s", prefix);
}

void rx_log_init(void)
{
    const char *v = getenv("RDMX_LOG");
    if (!v || !*v)
        return;
    if (!strcmp(v, "error")) rx_log_level = RX_LOG_ERROR;
    else if (!strcmp(v, "warn")) rx_log_level = RX_LOG_WARN;
    else if (!strcmp(v, "info")) rx_log_level = RX_LOG_INFO;
    else if (!strcmp(v, "debug")) rx_log_level = RX_LOG_DEBUG;
    else fprintf(stderr, "%s: RDMX_LOG=\"%s\" unknown (error, warn, info, debug)\n", rx_log_prefix, v);
}

void rx_log_msg(int level, const char *fmt, ...)
{
    static const char *names[] = {"error", "warning", "info", "debug"};
    char buf[1024];
    int n = snprintf(buf, sizeof buf, "%s: %s: ", rx_log_prefix, names[level]);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof buf)
        vsnprintf(buf + n, sizeof buf - n, fmt, ap);
    va_end(ap);
    /* one write per line so lines of different ranks never interleave */
    size_t len = strlen(buf);
    if (len + 1 < sizeof buf) { buf[len++] = '\n'; buf[len] = 0; }
    fputs(buf, stderr);
}

const char *rx_status_string(int status)
{
    switch (status) {
    case RX_OK: return "success";
    case RX_INPROGRESS: return "in progress";
    case RX_ERR_AGAIN: return "resource temporarily unavailable";
    case RX_ERR_NOMEM: return "out of memory";
    case RX_ERR_INVAL: return "invalid argument";
    case RX_ERR_TRUNCATE: return "message truncated";
    case RX_ERR_IO: return "system call failed";
    case RX_ERR_UNSUPPORTED: return "not supported";
    case RX_ERR_NOTFOUND: return "not found";
    case RX_ERR_PEER: return "peer process failed";
    case RX_ERR_OVERFLOW: return "size or extent overflows";
    default: return "internal error";
    }
}
