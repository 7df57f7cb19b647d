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
