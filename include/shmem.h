/* SPDX-License-Identifier: MIT
 * OpenSHMEM 1.5 on the rdmx runtime. What is there and what is missing:
 * docs/shmem.md. Build with rdmx-oshcc (oshcc), start with rdmx-run (oshrun). */
#ifndef RDMX_SHMEM_H
#define RDMX_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "rdmx"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

enum { SHMEM_CMP_EQ = 1, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE };
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* contexts */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)
typedef struct rdmx_shmem_ctx *shmem_ctx_t;
extern shmem_ctx_t SHMEM_CTX_DEFAULT;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

/* teams */
typedef struct rdmx_shmem_team *shmem_team_t;
extern shmem_team_t SHMEM_TEAM_WORLD;
extern shmem_team_t SHMEM_TEAM_SHARED;
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* sizes of the deprecated active-set work arrays (accepted, not needed) */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BCAST_SYNC_SIZE 1
#define SHMEM_SYNC_SIZE 1
#define SHMEM_REDUCE_SYNC_SIZE 1
#define SHMEM_BARRIER_SYNC_SIZE 1
#define SHMEM_COLLECT_SYNC_SIZE 1
#define SHMEM_ALLTOALL_SYNC_SIZE 1
#define SHMEM_ALLTOALLS_SYNC_SIZE 1
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1

/* RDMX_SHMEM_RMA_TYPES(X): X(TYPE, TYPENAME) for every standard RMA type. */
#define RDMX_SHMEM_RMA_TYPES(X)                                                     \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)      \
    X(signed char, schar) X(short, short) X(int, int) X(long, long)                 \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)        \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)           \
    X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)   \
    X(size_t, size) X(ptrdiff_t, ptrdiff)
/* RMA sizes in bits: X(BITS) */
#define RDMX_SHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)
/* standard atomic types (also point-to-point synchronization minus short types) */
#define RDMX_SHMEM_AMO_TYPES(X)                                                     \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)          \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)      \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)       \
    X(ptrdiff_t, ptrdiff)
/* extended atomic types: fetch, set, swap */
#define RDMX_SHMEM_EXT_AMO_TYPES(X) RDMX_SHMEM_AMO_TYPES(X) X(float, float) X(double, double)
/* bitwise atomic types */
#define RDMX_SHMEM_BIT_AMO_TYPES(X)                                                 \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)  \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
/* point-to-point synchronization types */
#define RDMX_SHMEM_SYNC_TYPES(X)                                                    \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)                \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64)            \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
/* reduction types by operation class */
#define RDMX_SHMEM_BITRED_TYPES(X)                                                  \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)         \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)        \
    X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)         \
    X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define RDMX_SHMEM_CMPRED_TYPES(X)                                                  \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)   \
    X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar)            \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)              \
    X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)       \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(float, float)         \
    X(double, double) X(long double, longdouble)
#define RDMX_SHMEM_ARITHRED_TYPES(X)                                                \
    RDMX_SHMEM_CMPRED_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)

/* setup, query, exit */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
/* deprecated spellings */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* symmetric heap */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);

/* contexts */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* RMA */
#define RDMX_SHMEM_DECL_RMA(T, N)                                                            \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                   \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                   \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);               \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,   \
                                 int pe);                                                    \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);               \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,   \
                                 int pe);                                                    \
    void shmem_##N##_p(T *dest, T value, int pe);                                            \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                       \
    T shmem_##N##_g(const T *source, int pe);                                                \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                           \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,            \
                          size_t nelems, int pe);                                            \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe);                         \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,            \
                          size_t nelems, int pe);                                            \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe);                         \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                uint64_t signal, int sig_op, int pe);                        \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems,                 \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source,           \
                                        size_t nelems, uint64_t *sig_addr, uint64_t signal,  \
                                        int sig_op, int pe);
RDMX_SHMEM_RMA_TYPES(RDMX_SHMEM_DECL_RMA)
#define RDMX_SHMEM_DECL_SIZED(B)                                                             \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe);                \
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                          int pe);                                                           \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe);                \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                          int pe);                                                           \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe);          \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source,             \
                                size_t nelems, int pe);                                      \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe);          \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source,             \
                                size_t nelems, int pe);                                      \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,         \
                       size_t nelems, int pe);                                               \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,   \
                           ptrdiff_t sst, size_t nelems, int pe);                            \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,         \
                       size_t nelems, int pe);                                               \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,   \
                           ptrdiff_t sst, size_t nelems, int pe);                            \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems,                \
                               uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);     \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source,          \
                                   size_t nelems, uint64_t *sig_addr, uint64_t signal,       \
                                   int sig_op, int pe);                                      \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems,            \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,      \
                                       size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                                       int sig_op, int pe);
RDMX_SHMEM_RMA_SIZES(RDMX_SHMEM_DECL_SIZED)
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* atomics */
#define RDMX_SHMEM_DECL_AMO(T, N)                                                            \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                         \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                    \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                            \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                       \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);           \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                   \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                     \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                        \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);   \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);               \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,   \
                                              int pe);                                       \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);    \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, \
                                                 T value, int pe);
RDMX_SHMEM_AMO_TYPES(RDMX_SHMEM_DECL_AMO)
#define RDMX_SHMEM_DECL_EXT_AMO(T, N)                                                        \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                     \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                   \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                     \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                    \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                    \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
RDMX_SHMEM_EXT_AMO_TYPES(RDMX_SHMEM_DECL_EXT_AMO)
#define RDMX_SHMEM_DECL_BIT_AMO1(T, N, OP)                                                   \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                               \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);          \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);                                  \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);            \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, \
                                                 int pe);
#define RDMX_SHMEM_DECL_BIT_AMO(T, N)                                                        \
    RDMX_SHMEM_DECL_BIT_AMO1(T, N, and) RDMX_SHMEM_DECL_BIT_AMO1(T, N, or)                   \
    RDMX_SHMEM_DECL_BIT_AMO1(T, N, xor)
RDMX_SHMEM_BIT_AMO_TYPES(RDMX_SHMEM_DECL_BIT_AMO)

/* ordering and synchronization */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
#define RDMX_SHMEM_DECL_SYNC(T, N)                                                           \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                              \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,     \
                                    T cmp_value);                                            \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,   \
                                      T cmp_value);                                          \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,             \
                                       const int *status, int cmp, T cmp_value);             \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,       \
                                           int cmp, const T *cmp_values);                    \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,     \
                                             int cmp, const T *cmp_values);                  \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,      \
                                              const int *status, int cmp,                    \
                                              const T *cmp_values);                          \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                     \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,            \
                             T cmp_value);                                                   \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,         \
                                T cmp_value);                                                \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                 int cmp, T cmp_value);                                      \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,     \
                                    const T *cmp_values);                                    \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                       const T *cmp_values);                                 \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,            \
                                        const int *status, int cmp, const T *cmp_values);
RDMX_SHMEM_SYNC_TYPES(RDMX_SHMEM_DECL_SYNC)

/* teams */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);

/* distributed locks */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

#ifdef __cplusplus
}
#endif

#endif
