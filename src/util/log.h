/* SPDX-License-Identifier: MIT
 * Logging to stderr with a per-process prefix ("rdmx[rank]"), filtered by RDMX_LOG.
 * rx_log_debug compiles out unless RX_DEBUG_LOG is defined: the fast path stays clean. */
#ifndef RX_LOG_H
#define RX_LOG_H

enum { RX_LOG_ERROR = 0, RX_LOG_WARN = 1, RX_LOG_INFO = 2, RX_LOG_DEBUG = 3 };

extern int rx_log_level;

/* Set the prefix shown before each line (e.g. "rdmx[3]"); call once the rank is known. */
void rx_log_set_prefix(const char *prefix);
/* Read RDMX_LOG. */
void rx_log_init(void);
void rx_log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define rx_log_error(...) rx_log_msg(RX_LOG_ERROR, __VA_ARGS__)
#define rx_log_warn(...) do { if (rx_log_level >= RX_LOG_WARN) rx_log_msg(RX_LOG_WARN, __VA_ARGS__); } while (0)
#define rx_log_info(...) do { if (rx_log_level >= RX_LOG_INFO) rx_log_msg(RX_LOG_INFO, __VA_ARGS__); } while (0)
#ifdef RX_DEBUG_LOG
#define rx_log_debug(...) do { if (rx_log_level >= RX_LOG_DEBUG) rx_log_msg(RX_LOG_DEBUG, __VA_ARGS__); } while (0)
#else
#define rx_log_debug(...) do { } while (0)
#endif

#endif
