/* SPDX-License-Identifier: MIT
 * The predefined (basic) datatypes, one X-macro list:
 *   RX_BASIC(ID, CTYPE, MPI_NAME, CLASS)
 * ID is the index in the datatype handle table (the handle of MPI_NAME is
 * RX_HANDLE(RX_KIND_DATATYPE, ID), see include/mpi.h); CLASS says which
 * reduction ops apply (MPI-4.0 section 6.9.2):
 *   CINT   C integer        MAX MIN SUM PROD LAND LOR LXOR BAND BOR BXOR
 *   FINT   Fortran integer  MAX MIN SUM PROD BAND BOR BXOR
 *   FLOAT  floating point   MAX MIN SUM PROD
 *   CPLX   complex          SUM PROD
 *   LOGIC  logical          LAND LOR LXOR
 *   BYTE   byte             BAND BOR BXOR
 *   PAIR   value-index pair MINLOC MAXLOC
 *   NONE   no reduction ops (MPI_PACKED, MPI_CHAR is treated as CINT as MPICH does)
 * Every class also accepts MPI_REPLACE and MPI_NO_OP (one-sided accumulate).
 * The IDs below are ABI: include/mpi.h repeats them as literals and
 * tests/unit/test_abi.c checks the two agree. Append only. */
#ifndef RX_DTYPE_BASIC_H
#define RX_DTYPE_BASIC_H

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

typedef struct { float v; int i; } rx_float_int_t;
typedef struct { double v; int i; } rx_double_int_t;
typedef struct { long v; int i; } rx_long_int_t;
typedef struct { int v; int i; } rx_2int_t;
typedef struct { short v; int i; } rx_short_int_t;
typedef struct { long double v; int i; } rx_long_double_int_t;
typedef struct { float v, i; } rx_2real_t;      /* Fortran pairs: index of the value's type */
typedef struct { double v, i; } rx_2double_t;
typedef _Complex _Float128 rx_complex32_t;     /* gfortran's COMPLEX(16) */

#define RX_BASIC_LIST(RX_BASIC)                                            \
    RX_BASIC(1, char, MPI_CHAR, CINT)                                      \
    RX_BASIC(2, signed char, MPI_SIGNED_CHAR, CINT)                        \
    RX_BASIC(3, unsigned char, MPI_UNSIGNED_CHAR, CINT)                    \
    RX_BASIC(4, unsigned char, MPI_BYTE, BYTE)                             \
    RX_BASIC(5, short, MPI_SHORT, CINT)                                    \
    RX_BASIC(6, unsigned short, MPI_UNSIGNED_SHORT, CINT)                  \
    RX_BASIC(7, int, MPI_INT, CINT)                                        \
    RX_BASIC(8, unsigned, MPI_UNSIGNED, CINT)                              \
    RX_BASIC(9, long, MPI_LONG, CINT)                                      \
    RX_BASIC(10, unsigned long, MPI_UNSIGNED_LONG, CINT)                   \
    RX_BASIC(11, long long, MPI_LONG_LONG, CINT)                           \
    RX_BASIC(12, unsigned long long, MPI_UNSIGNED_LONG_LONG, CINT)         \
    RX_BASIC(13, float, MPI_FLOAT, FLOAT)                                  \
    RX_BASIC(14, double, MPI_DOUBLE, FLOAT)                                \
    RX_BASIC(15, long double, MPI_LONG_DOUBLE, FLOAT)                      \
    RX_BASIC(16, wchar_t, MPI_WCHAR, NONE)                                 \
    RX_BASIC(17, bool, MPI_C_BOOL, LOGIC)                                  \
    RX_BASIC(18, int8_t, MPI_INT8_T, CINT)                                 \
    RX_BASIC(19, int16_t, MPI_INT16_T, CINT)                               \
    RX_BASIC(20, int32_t, MPI_INT32_T, CINT)                               \
    RX_BASIC(21, int64_t, MPI_INT64_T, CINT)                               \
    RX_BASIC(22, uint8_t, MPI_UINT8_T, CINT)                               \
    RX_BASIC(23, uint16_t, MPI_UINT16_T, CINT)                             \
    RX_BASIC(24, uint32_t, MPI_UINT32_T, CINT)                             \
    RX_BASIC(25, uint64_t, MPI_UINT64_T, CINT)                             \
    RX_BASIC(26, float _Complex, MPI_C_FLOAT_COMPLEX, CPLX)                \
    RX_BASIC(27, double _Complex, MPI_C_DOUBLE_COMPLEX, CPLX)              \
    RX_BASIC(28, long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, CPLX)    \
    RX_BASIC(29, intptr_t, MPI_AINT, FINT)                                 \
    RX_BASIC(30, long long, MPI_OFFSET, FINT)                              \
    RX_BASIC(31, long long, MPI_COUNT, FINT)                               \
    RX_BASIC(32, unsigned char, MPI_PACKED, NONE)                          \
    RX_BASIC(33, rx_float_int_t, MPI_FLOAT_INT, PAIR)                      \
    RX_BASIC(34, rx_double_int_t, MPI_DOUBLE_INT, PAIR)                    \
    RX_BASIC(35, rx_long_int_t, MPI_LONG_INT, PAIR)                        \
    RX_BASIC(36, rx_2int_t, MPI_2INT, PAIR)                                \
    RX_BASIC(37, rx_short_int_t, MPI_SHORT_INT, PAIR)                      \
    RX_BASIC(38, rx_long_double_int_t, MPI_LONG_DOUBLE_INT, PAIR)          \
    RX_BASIC(39, bool, MPI_CXX_BOOL, LOGIC)                                \
    RX_BASIC(40, float _Complex, MPI_CXX_FLOAT_COMPLEX, CPLX)              \
    RX_BASIC(41, double _Complex, MPI_CXX_DOUBLE_COMPLEX, CPLX)            \
    RX_BASIC(42, long double _Complex, MPI_CXX_LONG_DOUBLE_COMPLEX, CPLX)  \
    RX_BASIC(43, int, MPI_INTEGER, FINT)                                   \
    RX_BASIC(44, float, MPI_REAL, FLOAT)                                   \
    RX_BASIC(45, double, MPI_DOUBLE_PRECISION, FLOAT)                      \
    RX_BASIC(46, int, MPI_LOGICAL, LOGIC)                                  \
    RX_BASIC(47, char, MPI_CHARACTER, NONE)                                \
    RX_BASIC(48, float _Complex, MPI_COMPLEX, CPLX)                        \
    RX_BASIC(49, double _Complex, MPI_DOUBLE_COMPLEX, CPLX)                \
    RX_BASIC(50, rx_2int_t, MPI_2INTEGER, PAIR)                           \
    RX_BASIC(51, int8_t, MPI_INTEGER1, FINT)                               \
    RX_BASIC(52, int16_t, MPI_INTEGER2, FINT)                              \
    RX_BASIC(53, int32_t, MPI_INTEGER4, FINT)                              \
    RX_BASIC(54, int64_t, MPI_INTEGER8, FINT)                              \
    RX_BASIC(55, __int128, MPI_INTEGER16, FINT)                            \
    RX_BASIC(56, float, MPI_REAL4, FLOAT)                                  \
    RX_BASIC(57, double, MPI_REAL8, FLOAT)                                 \
    RX_BASIC(58, _Float128, MPI_REAL16, FLOAT)                             \
    RX_BASIC(59, float _Complex, MPI_COMPLEX8, CPLX)                       \
    RX_BASIC(60, double _Complex, MPI_COMPLEX16, CPLX)                     \
    RX_BASIC(61, rx_complex32_t, MPI_COMPLEX32, CPLX)                      \
    RX_BASIC(62, int8_t, MPI_LOGICAL1, LOGIC)                              \
    RX_BASIC(63, int16_t, MPI_LOGICAL2, LOGIC)                             \
    RX_BASIC(64, int32_t, MPI_LOGICAL4, LOGIC)                             \
    RX_BASIC(65, int64_t, MPI_LOGICAL8, LOGIC)                             \
    RX_BASIC(66, rx_2real_t, MPI_2REAL, PAIR)                              \
    RX_BASIC(67, rx_2double_t, MPI_2DOUBLE_PRECISION, PAIR)

/* MPI_2INTEGER is a pair of Fortran integers (same layout as rx_2int_t).
 * 51-67: the optional sized Fortran types of MPI-4.1 §3.2.2 that gfortran
 * has (REAL*2 has no C type here and is not provided). */
#define RX_BASIC_COUNT 68 /* one past the largest ID */
/* The IDs by name (RX_ID_MPI_INT, ...), for layers below the binding */
#define RX_BASIC_ID_ENUM(ID, CTYPE, NAME, CLASS) RX_ID_##NAME = ID,
enum rx_basic_id { RX_BASIC_LIST(RX_BASIC_ID_ENUM) };
#undef RX_BASIC_ID_ENUM

enum rx_basic_class { RX_CLASS_NONE, RX_CLASS_CINT, RX_CLASS_FINT, RX_CLASS_FLOAT,
                      RX_CLASS_CPLX, RX_CLASS_LOGIC, RX_CLASS_BYTE, RX_CLASS_PAIR };

#endif
