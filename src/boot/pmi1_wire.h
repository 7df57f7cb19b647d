/* SPDX-License-Identifier: MIT
 * The PMI-1 "simple" wire format, shared by the client and rdmx-run's server.
 * A message is one line of space-separated name=value tokens ending in '\n',
 * the first being cmd=NAME (e.g. "cmd=put kvsname=k key=a value=b\n"). A value
 * therefore cannot hold spaces, '\n' or control characters. */
#ifndef RX_BOOT_PMI1_WIRE_H
#define RX_BOOT_PMI1_WIRE_H

#include <stddef.h>

/* The largest line either side sends: a put of a 63-character key and a
 * 1023-character value with a 255-character KVS name fits with room to spare. */
#define RX_PMI1_LINE_MAX 2048

/* Copy the value of token `name` in `line` (up to the next space or newline)
 * into out[outlen]. RX_OK, RX_ERR_NOTFOUND, or RX_ERR_TRUNCATE when too long. */
int rx_pmi1_field(const char *line, const char *name, char *out, size_t outlen);
/* Integer value of token `name`; RX_ERR_NOTFOUND or RX_ERR_INVAL. */
int rx_pmi1_field_int(const char *line, const char *name, long *out);
/* 1 when s can travel as a value: printable ASCII, no space (may be empty). */
int rx_pmi1_token_ok(const char *s);
/* Any bytes as a value: hex text of len bytes into out (2 * len + 1 bytes),
 * and back: the number of bytes decoded into out[cap], or -1 when src is not
 * hex or does not fit. */
void rx_pmi1_hex(const void *data, size_t len, char *out);
long rx_pmi1_unhex(const char *src, void *out, size_t cap);

#endif
