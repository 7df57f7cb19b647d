/* SPDX-License-Identifier: MIT */
#include "pmi1_wire.h"
#include "util/status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rx_pmi1_field(const char *line, const char *name, char *out, size_t outlen)
{
    size_t nlen = strlen(name);
    const char *p = line;
    while (*p && *p != '\n') {
        while (*p == ' ')
            p++;
        const char *tok = p;
        while (*p && *p != ' ' && *p != '\n')
            p++;
        /* match "name=" at the start of a token only: "key=" must not match "xkey=" */
        if ((size_t)(p - tok) > nlen && !strncmp(tok, name, nlen) && tok[nlen] == '=') {
            size_t vlen = (size_t)(p - tok) - nlen - 1;
            if (vlen + 1 > outlen)
                return RX_ERR_TRUNCATE;
            memcpy(out, tok + nlen + 1, vlen);
            out[vlen] = 0;
            return RX_OK;
        }
    }
    return RX_ERR_NOTFOUND;
}

int rx_pmi1_field_int(const char *line, const char *name, long *out)
{
    char buf[32], *end;
    int rc = rx_pmi1_field(line, name, buf, sizeof buf);
    if (rc == RX_ERR_TRUNCATE)
        return RX_ERR_INVAL;
    if (rc != RX_OK)
        return rc;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (errno || end == buf || *end)
        return RX_ERR_INVAL;
    *out = v;
    return RX_OK;
}

int rx_pmi1_token_ok(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f)
            return 0;
    return 1;
}

void rx_pmi1_hex(const void *data, size_t len, char *out)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *d = data;
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[2 * len] = 0;
}

static int rx_pmi1_hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long rx_pmi1_unhex(const char *src, void *out, size_t cap)
{
    size_t n = strlen(src);
    if (n % 2 || n / 2 > cap)
        return -1;
    unsigned char *d = out;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = rx_pmi1_hexval(src[2 * i]), lo = rx_pmi1_hexval(src[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        d[i] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(n / 2);
}
