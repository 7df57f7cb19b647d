/* SPDX-License-Identifier: MIT
 * rdmx — the MPI interface (MPI-3.1 subset; docs/mpi-support.md lists what is
 * implemented). Handles are integers: (kind << 24) | index, index 0 is the
 * null handle of each kind, so every handle a program passes can be checked. */
#ifndef RDMX_MPI_H
#define RDMX_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDMX 1
#define RDMX_VERSION_STRING "0.1.0"
#define MPI_VERSION 3
#define MPI_SUBVERSION 1

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Win;
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;
typedef int MPI_Message;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int rx_cancelled;     /* implementation fields: use the MPI accessors */
    long long rx_bytes;
} MPI_Status;

/* null handles and predefined objects */
#define MPI_COMM_NULL        ((MPI_Comm)0x44000000)
#define MPI_COMM_WORLD       ((MPI_Comm)0x44000001)
#define MPI_COMM_SELF        ((MPI_Comm)0x44000002)
#define MPI_GROUP_NULL       ((MPI_Group)0x48000000)
#define MPI_GROUP_EMPTY      ((MPI_Group)0x48000001)
#define MPI_DATATYPE_NULL    ((MPI_Datatype)0x4c000000)
#define MPI_ERRHANDLER_NULL  ((MPI_Errhandler)0x54000000)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x54000001)
#define MPI_ERRORS_RETURN    ((MPI_Errhandler)0x54000002)
#define MPI_ERRORS_ABORT     ((MPI_Errhandler)0x54000003)
#define MPI_OP_NULL          ((MPI_Op)0x58000000)
#define MPI_MAX              ((MPI_Op)0x58000001)
#define MPI_MIN              ((MPI_Op)0x58000002)
#define MPI_SUM              ((MPI_Op)0x58000003)
#define MPI_PROD             ((MPI_Op)0x58000004)
#define MPI_LAND             ((MPI_Op)0x58000005)
#define MPI_BAND             ((MPI_Op)0x58000006)
#define MPI_LOR              ((MPI_Op)0x58000007)
#define MPI_BOR              ((MPI_Op)0x58000008)
#define MPI_LXOR             ((MPI_Op)0x58000009)
#define MPI_BXOR             ((MPI_Op)0x5800000a)
#define MPI_MINLOC           ((MPI_Op)0x5800000b)
#define MPI_MAXLOC           ((MPI_Op)0x5800000c)
#define MPI_REPLACE          ((MPI_Op)0x5800000d)
#define MPI_NO_OP            ((MPI_Op)0x5800000e)
#define MPI_WIN_NULL         ((MPI_Win)0x60000000)
#define MPI_REQUEST_NULL     ((MPI_Request)0x6c000000)
#define MPI_INFO_NULL        ((MPI_Info)0x70000000)
#define MPI_INFO_ENV         ((MPI_Info)0x70000001)
#define MPI_MESSAGE_NULL     ((MPI_Message)0x74000000)
#define MPI_MESSAGE_NO_PROC  ((MPI_Message)0x74000001)

/* predefined datatypes (IDs from src/dtype/basic.h) */
#define MPI_CHAR                     ((MPI_Datatype)0x4c000001)
#define MPI_SIGNED_CHAR              ((MPI_Datatype)0x4c000002)
#define MPI_UNSIGNED_CHAR            ((MPI_Datatype)0x4c000003)
#define MPI_BYTE                     ((MPI_Datatype)0x4c000004)
#define MPI_SHORT                    ((MPI_Datatype)0x4c000005)
#define MPI_UNSIGNED_SHORT           ((MPI_Datatype)0x4c000006)
#define MPI_INT                      ((MPI_Datatype)0x4c000007)
#define MPI_UNSIGNED                 ((MPI_Datatype)0x4c000008)
#define MPI_LONG                     ((MPI_Datatype)0x4c000009)
#define MPI_UNSIGNED_LONG            ((MPI_Datatype)0x4c00000a)
#define MPI_LONG_LONG                ((MPI_Datatype)0x4c00000b)
#define MPI_UNSIGNED_LONG_LONG       ((MPI_Datatype)0x4c00000c)
#define MPI_FLOAT                    ((MPI_Datatype)0x4c00000d)
#define MPI_DOUBLE                   ((MPI_Datatype)0x4c00000e)
#define MPI_LONG_DOUBLE              ((MPI_Datatype)0x4c00000f)
#define MPI_WCHAR                    ((MPI_Datatype)0x4c000010)
#define MPI_C_BOOL                   ((MPI_Datatype)0x4c000011)
#define MPI_INT8_T                   ((MPI_Datatype)0x4c000012)
#define MPI_INT16_T                  ((MPI_Datatype)0x4c000013)
#define MPI_INT32_T                  ((MPI_Datatype)0x4c000014)
#define MPI_INT64_T                  ((MPI_Datatype)0x4c000015)
#define MPI_UINT8_T                  ((MPI_Datatype)0x4c000016)
#define MPI_UINT16_T                 ((MPI_Datatype)0x4c000017)
#define MPI_UINT32_T                 ((MPI_Datatype)0x4c000018)
#define MPI_UINT64_T                 ((MPI_Datatype)0x4c000019)
#define MPI_C_FLOAT_COMPLEX          ((MPI_Datatype)0x4c00001a)
#define MPI_C_DOUBLE_COMPLEX         ((MPI_Datatype)0x4c00001b)
#define MPI_C_LONG_DOUBLE_COMPLEX    ((MPI_Datatype)0x4c00001c)
#define MPI_AINT                     ((MPI_Datatype)0x4c00001d)
#define MPI_OFFSET                   ((MPI_Datatype)0x4c00001e)
#define MPI_COUNT                    ((MPI_Datatype)0x4c00001f)
#define MPI_PACKED                   ((MPI_Datatype)0x4c000020)
#define MPI_FLOAT_INT                ((MPI_Datatype)0x4c000021)
#define MPI_DOUBLE_INT               ((MPI_Datatype)0x4c000022)
#define MPI_LONG_INT                 ((MPI_Datatype)0x4c000023)
#define MPI_2INT                     ((MPI_Datatype)0x4c000024)
#define MPI_SHORT_INT                ((MPI_Datatype)0x4c000025)
#define MPI_LONG_DOUBLE_INT          ((MPI_Datatype)0x4c000026)
#define MPI_CXX_BOOL                 ((MPI_Datatype)0x4c000027)
#define MPI_CXX_FLOAT_COMPLEX        ((MPI_Datatype)0x4c000028)
#define MPI_CXX_DOUBLE_COMPLEX       ((MPI_Datatype)0x4c000029)
#define MPI_CXX_LONG_DOUBLE_COMPLEX  ((MPI_Datatype)0x4c00002a)
#define MPI_INTEGER                  ((MPI_Datatype)0x4c00002b)
#define MPI_REAL                     ((MPI_Datatype)0x4c00002c)
#define MPI_DOUBLE_PRECISION         ((MPI_Datatype)0x4c00002d)
#define MPI_LOGICAL                  ((MPI_Datatype)0x4c00002e)
#define MPI_CHARACTER                ((MPI_Datatype)0x4c00002f)
#define MPI_COMPLEX                  ((MPI_Datatype)0x4c000030)
#define MPI_DOUBLE_COMPLEX           ((MPI_Datatype)0x4c000031)
#define MPI_2INTEGER                 ((MPI_Datatype)0x4c000032)
/* optional Fortran types (MPI-4.1 3.2.2; no MPI_REAL2) */
#define MPI_INTEGER1                 ((MPI_Datatype)0x4c000033)
#define MPI_INTEGER2                 ((MPI_Datatype)0x4c000034)
#define MPI_INTEGER4                 ((MPI_Datatype)0x4c000035)
#define MPI_INTEGER8                 ((MPI_Datatype)0x4c000036)
#define MPI_INTEGER16                ((MPI_Datatype)0x4c000037)
#define MPI_REAL4                    ((MPI_Datatype)0x4c000038)
#define MPI_REAL8                    ((MPI_Datatype)0x4c000039)
#define MPI_REAL16                   ((MPI_Datatype)0x4c00003a)
#define MPI_COMPLEX8                 ((MPI_Datatype)0x4c00003b)
#define MPI_COMPLEX16                ((MPI_Datatype)0x4c00003c)
#define MPI_COMPLEX32                ((MPI_Datatype)0x4c00003d)
#define MPI_LOGICAL1                 ((MPI_Datatype)0x4c00003e)
#define MPI_LOGICAL2                 ((MPI_Datatype)0x4c00003f)
#define MPI_LOGICAL4                 ((MPI_Datatype)0x4c000040)
#define MPI_LOGICAL8                 ((MPI_Datatype)0x4c000041)
#define MPI_2REAL                    ((MPI_Datatype)0x4c000042)
#define MPI_2DOUBLE_PRECISION        ((MPI_Datatype)0x4c000043)
#define MPI_LONG_LONG_INT            MPI_LONG_LONG
#define MPI_C_COMPLEX                MPI_C_FLOAT_COMPLEX

/* special values */
#define MPI_ANY_SOURCE   (-1)
#define MPI_PROC_NULL    (-2)
#define MPI_ROOT         (-3)
#define MPI_ANY_TAG      (-1)
#define MPI_UNDEFINED    (-32766)
#define MPI_KEYVAL_INVALID (-1)
#define MPI_BSEND_OVERHEAD 96
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_IN_PLACE      ((void *)-1)
#define MPI_BOTTOM        ((void *)0)
/* buffered sends: attach this instead of memory and MPI allocates a copy of
 * each message (MPI-4.1 §3.6.1) */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)
#define MPI_STATUS_IGNORE   ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_UNWEIGHTED    ((int *)2)
#define MPI_WEIGHTS_EMPTY ((int *)3)

enum { MPI_IDENT = 0, MPI_CONGRUENT = 1, MPI_SIMILAR = 2, MPI_UNEQUAL = 3 };
enum { MPI_THREAD_SINGLE = 0, MPI_THREAD_FUNNELED = 1, MPI_THREAD_SERIALIZED = 2, MPI_THREAD_MULTIPLE = 3 };
enum { MPI_COMM_TYPE_SHARED = 1, MPI_COMM_TYPE_HW_GUIDED = 2, MPI_COMM_TYPE_HW_UNGUIDED = 3 };
enum { MPI_GRAPH = 1, MPI_CART = 2, MPI_DIST_GRAPH = 3 };

/* predefined attribute keys */
#define MPI_TAG_UB          0x64400001
#define MPI_HOST            0x64400002
#define MPI_IO              0x64400003
#define MPI_WTIME_IS_GLOBAL 0x64400004
#define MPI_UNIVERSE_SIZE   0x64400005
#define MPI_LASTUSEDCODE    0x64400006
#define MPI_APPNUM          0x64400007

/* error classes (MPI-3.1 table 8.2) */
#define MPI_SUCCESS          0
#define MPI_ERR_BUFFER       1
#define MPI_ERR_COUNT        2
#define MPI_ERR_TYPE         3
#define MPI_ERR_TAG          4
#define MPI_ERR_COMM         5
#define MPI_ERR_RANK         6
#define MPI_ERR_REQUEST      7
#define MPI_ERR_ROOT         8
#define MPI_ERR_GROUP        9
#define MPI_ERR_OP          10
#define MPI_ERR_TOPOLOGY    11
#define MPI_ERR_DIMS        12
#define MPI_ERR_ARG         13
#define MPI_ERR_UNKNOWN     14
#define MPI_ERR_TRUNCATE    15
#define MPI_ERR_OTHER       16
#define MPI_ERR_INTERN      17
#define MPI_ERR_IN_STATUS   18
#define MPI_ERR_PENDING     19
#define MPI_ERR_KEYVAL      20
#define MPI_ERR_NO_MEM      21
#define MPI_ERR_BASE        22
#define MPI_ERR_INFO_KEY    23
#define MPI_ERR_INFO_VALUE  24
#define MPI_ERR_INFO_NOKEY  25
#define MPI_ERR_SPAWN       26
#define MPI_ERR_PORT        27
#define MPI_ERR_SERVICE     28
#define MPI_ERR_NAME        29
#define MPI_ERR_WIN         30
#define MPI_ERR_SIZE        31
#define MPI_ERR_DISP        32
#define MPI_ERR_INFO        33
#define MPI_ERR_LOCKTYPE    34
#define MPI_ERR_ASSERT      35
#define MPI_ERR_RMA_CONFLICT 36
#define MPI_ERR_RMA_SYNC    37
#define MPI_ERR_FILE        38
#define MPI_ERR_NOT_SAME    39
#define MPI_ERR_AMODE       40
#define MPI_ERR_UNSUPPORTED_DATAREP 41
#define MPI_ERR_UNSUPPORTED_OPERATION 42
#define MPI_ERR_NO_SUCH_FILE 43
#define MPI_ERR_FILE_EXISTS 44
#define MPI_ERR_BAD_FILE    45
#define MPI_ERR_ACCESS      46
#define MPI_ERR_NO_SPACE    47
#define MPI_ERR_QUOTA       48
#define MPI_ERR_READ_ONLY   49
#define MPI_ERR_FILE_IN_USE 50
#define MPI_ERR_DUP_DATAREP 51
#define MPI_ERR_CONVERSION  52
#define MPI_ERR_IO          53
#define MPI_ERR_RMA_RANGE   54
#define MPI_ERR_RMA_ATTACH  55
#define MPI_ERR_RMA_SHARED  56
#define MPI_ERR_RMA_FLAVOR  57
#define MPI_ERR_LASTCODE    95

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *errcode, ...);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val,
                                          void *extra_state);
/* The predefined callbacks: every handle is an int, so one function serves
 * communicators, datatypes and windows. */
int rx_mpi_dup_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                  void *attribute_val_out, int *flag);
int rx_mpi_null_copy_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                        void *attribute_val_out, int *flag);
int rx_mpi_null_delete_fn(int obj, int keyval, void *attribute_val, void *extra_state);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)rx_mpi_null_copy_fn)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)rx_mpi_null_delete_fn)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)rx_mpi_dup_fn)
typedef MPI_Comm_copy_attr_function MPI_Copy_function;     /* MPI-1 names */
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)rx_mpi_null_copy_fn)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)rx_mpi_null_delete_fn)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)rx_mpi_dup_fn)
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)rx_mpi_null_copy_fn)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)rx_mpi_null_delete_fn)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function *)rx_mpi_dup_fn)

/* Every function below has a PMPI_ twin (the profiling interface). */
#define RX_MPI_API(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

/* environment */
RX_MPI_API(int, Init, (int *argc, char ***argv))
RX_MPI_API(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
RX_MPI_API(int, Finalize, (void))
RX_MPI_API(int, Initialized, (int *flag))
RX_MPI_API(int, Finalized, (int *flag))
RX_MPI_API(int, Abort, (MPI_Comm comm, int errorcode))
RX_MPI_API(int, Query_thread, (int *provided))
RX_MPI_API(int, Is_thread_main, (int *flag))
RX_MPI_API(int, Get_version, (int *version, int *subversion))
RX_MPI_API(int, Get_library_version, (char *version, int *resultlen))
RX_MPI_API(int, Get_processor_name, (char *name, int *resultlen))
RX_MPI_API(double, Wtime, (void))
RX_MPI_API(double, Wtick, (void))
RX_MPI_API(int, Error_string, (int errorcode, char *string, int *resultlen))
RX_MPI_API(int, Error_class, (int errorcode, int *errorclass))

/* info objects */
RX_MPI_API(int, Info_create, (MPI_Info *info))
RX_MPI_API(int, Get_hw_resource_info, (MPI_Info *hw_info))
RX_MPI_API(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
RX_MPI_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
RX_MPI_API(int, Info_free, (MPI_Info *info))
RX_MPI_API(int, Info_set, (MPI_Info info, const char *key, const char *value))
RX_MPI_API(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
RX_MPI_API(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value,
                                  int *flag))
RX_MPI_API(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
RX_MPI_API(int, Info_delete, (MPI_Info info, const char *key))
RX_MPI_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
RX_MPI_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
RX_MPI_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
RX_MPI_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
RX_MPI_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
RX_MPI_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
RX_MPI_API(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                                      MPI_Request *request))
RX_MPI_API(int, Win_set_info, (MPI_Win win, MPI_Info info))
RX_MPI_API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))

/* communicators and groups */
RX_MPI_API(int, Comm_rank, (MPI_Comm comm, int *rank))
RX_MPI_API(int, Comm_size, (MPI_Comm comm, int *size))
RX_MPI_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
RX_MPI_API(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
RX_MPI_API(int, Comm_free, (MPI_Comm *comm))
RX_MPI_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
RX_MPI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
RX_MPI_API(int, Comm_test_inter, (MPI_Comm comm, int *flag))
/* intercommunicators */
RX_MPI_API(int, Comm_remote_size, (MPI_Comm comm, int *size))
RX_MPI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
RX_MPI_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                   int remote_leader, int tag, MPI_Comm *newintercomm))
RX_MPI_API(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader,
                                               MPI_Group remote_group, int remote_leader,
                                               const char *stringtag, MPI_Info info,
                                               MPI_Errhandler errhandler,
                                               MPI_Comm *newintercomm))
RX_MPI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
RX_MPI_API(int, Comm_get_attr, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
RX_MPI_API(int, Comm_set_attr, (MPI_Comm comm, int keyval, void *attribute_val))
RX_MPI_API(int, Comm_delete_attr, (MPI_Comm comm, int keyval))
RX_MPI_API(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *copy_fn,
                                     MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                                     void *extra_state))
RX_MPI_API(int, Comm_free_keyval, (int *keyval))
RX_MPI_API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
RX_MPI_API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
RX_MPI_API(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler))
RX_MPI_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
RX_MPI_API(int, Errhandler_free, (MPI_Errhandler *errhandler))
RX_MPI_API(int, Comm_set_name, (MPI_Comm comm, const char *name))
RX_MPI_API(int, Comm_get_name, (MPI_Comm comm, char *name, int *resultlen))
RX_MPI_API(int, Group_size, (MPI_Group group, int *size))
RX_MPI_API(int, Group_rank, (MPI_Group group, int *rank))
RX_MPI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
RX_MPI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
RX_MPI_API(int, Group_free, (MPI_Group *group))
RX_MPI_API(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[],
                                        MPI_Group group2, int ranks2[]))
RX_MPI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
RX_MPI_API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
RX_MPI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
RX_MPI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
RX_MPI_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
RX_MPI_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))

/* point-to-point */
RX_MPI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RX_MPI_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RX_MPI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RX_MPI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RX_MPI_API(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                       MPI_Status *status))
RX_MPI_API(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                           int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status))
RX_MPI_API(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
                                   int sendtag, int source, int recvtag, MPI_Comm comm,
                                   MPI_Status *status))
RX_MPI_API(int, Buffer_attach, (void *buffer, int size))
RX_MPI_API(int, Buffer_detach, (void *buffer_addr, int *size))
RX_MPI_API(int, Wait, (MPI_Request *request, MPI_Status *status))
RX_MPI_API(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses))
RX_MPI_API(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
RX_MPI_API(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                           int array_of_indices[], MPI_Status *array_of_statuses))
RX_MPI_API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
RX_MPI_API(int, Testall, (int count, MPI_Request array_of_requests[], int *flag,
                          MPI_Status *array_of_statuses))
RX_MPI_API(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag,
                          MPI_Status *status))
RX_MPI_API(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                           int array_of_indices[], MPI_Status *array_of_statuses))
RX_MPI_API(int, Request_free, (MPI_Request *request))
RX_MPI_API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
RX_MPI_API(int, Request_get_status_any, (int count, MPI_Request array_of_requests[], int *index,
                                         int *flag, MPI_Status *status))
RX_MPI_API(int, Request_get_status_all, (int count, MPI_Request array_of_requests[], int *flag,
                                         MPI_Status *array_of_statuses))
RX_MPI_API(int, Request_get_status_some, (int incount, MPI_Request array_of_requests[],
                                          int *outcount, int array_of_indices[],
                                          MPI_Status *array_of_statuses))
RX_MPI_API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
RX_MPI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
RX_MPI_API(int, Cancel, (MPI_Request *request))
RX_MPI_API(int, Test_cancelled, (const MPI_Status *status, int *flag))
RX_MPI_API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
RX_MPI_API(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
RX_MPI_API(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype,
                                 MPI_Count *count))
RX_MPI_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
RX_MPI_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
RX_MPI_API(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb,
                                         MPI_Count *true_extent))
RX_MPI_API(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
RX_MPI_API(int, Type_size, (MPI_Datatype datatype, int *size))
RX_MPI_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
RX_MPI_API(int, Get_address, (const void *location, MPI_Aint *address))
/* attributes of datatypes and windows, the MPI-1 attribute calls, user error codes */
RX_MPI_API(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
                                     MPI_Type_delete_attr_function *type_delete_attr_fn,
                                     int *type_keyval, void *extra_state))
RX_MPI_API(int, Type_free_keyval, (int *type_keyval))
RX_MPI_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
RX_MPI_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                int *flag))
RX_MPI_API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
RX_MPI_API(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn,
                                    MPI_Win_delete_attr_function *win_delete_attr_fn,
                                    int *win_keyval, void *extra_state))
RX_MPI_API(int, Win_free_keyval, (int *win_keyval))
RX_MPI_API(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
RX_MPI_API(int, Win_delete_attr, (MPI_Win win, int win_keyval))
RX_MPI_API(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                                int *keyval, void *extra_state))
RX_MPI_API(int, Keyval_free, (int *keyval))
RX_MPI_API(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
RX_MPI_API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
RX_MPI_API(int, Attr_delete, (MPI_Comm comm, int keyval))
/* MPI-1 functions removed in MPI-3.0 (MPI-4.1 §16.2), still in MPICH's mpi.h:
 * programs that call them build with rdmx too. MPI_LB and MPI_UB are not
 * provided (their role is MPI_Type_create_resized's). */
typedef MPI_Comm_errhandler_function MPI_Handler_function;
RX_MPI_API(int, Address, (void *location, MPI_Aint *address))
RX_MPI_API(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
RX_MPI_API(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
RX_MPI_API(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
RX_MPI_API(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype))
RX_MPI_API(int, Type_hindexed, (int count, int *array_of_blocklengths,
                                MPI_Aint *array_of_displacements, MPI_Datatype oldtype,
                                MPI_Datatype *newtype))
RX_MPI_API(int, Type_struct, (int count, int *array_of_blocklengths,
                              MPI_Aint *array_of_displacements, MPI_Datatype *array_of_types,
                              MPI_Datatype *newtype))
RX_MPI_API(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
RX_MPI_API(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
RX_MPI_API(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))
RX_MPI_API(int, Add_error_class, (int *errorclass))
RX_MPI_API(int, Add_error_code, (int errorclass, int *errorcode))
RX_MPI_API(int, Add_error_string, (int errorcode, const char *string))
RX_MPI_API(int, Remove_error_class, (int errorclass))
RX_MPI_API(int, Remove_error_code, (int errorcode))
RX_MPI_API(int, Remove_error_string, (int errorcode))

/* C and Fortran handles and statuses: MPI_Fint is int, handles convert as
 * themselves. A Fortran status is MPI_F_STATUS_SIZE integers. */
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint rx_internal[3]; /* cancelled, byte count (low, high) */
} MPI_F08_status;
extern MPI_Fint *MPI_F_STATUS_IGNORE;
extern MPI_Fint *MPI_F_STATUSES_IGNORE;
extern MPI_F08_status *MPI_F08_STATUS_IGNORE;
extern MPI_F08_status *MPI_F08_STATUSES_IGNORE;
#define RX_MPI_CONV(kind, type)                                                      \
    RX_MPI_API(MPI_Fint, kind##_c2f, (type handle))                                  \
    RX_MPI_API(type, kind##_f2c, (MPI_Fint handle))
RX_MPI_CONV(Comm, MPI_Comm)
RX_MPI_CONV(Group, MPI_Group)
RX_MPI_CONV(Type, MPI_Datatype)
RX_MPI_CONV(Errhandler, MPI_Errhandler)
RX_MPI_CONV(Op, MPI_Op)
RX_MPI_CONV(Win, MPI_Win)
RX_MPI_CONV(Request, MPI_Request)
RX_MPI_CONV(Info, MPI_Info)
RX_MPI_CONV(Message, MPI_Message)
#undef RX_MPI_CONV
RX_MPI_API(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
RX_MPI_API(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
RX_MPI_API(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
RX_MPI_API(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
RX_MPI_API(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))
RX_MPI_API(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))

/* matched probes, nonblocking send-receive, generalized requests */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
RX_MPI_API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message,
                         MPI_Status *status))
RX_MPI_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                          MPI_Status *status))
RX_MPI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                        MPI_Status *status))
RX_MPI_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                         MPI_Request *request))
RX_MPI_API(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                            int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                            int source, int recvtag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
                                    int sendtag, int source, int recvtag, MPI_Comm comm,
                                    MPI_Request *request))
RX_MPI_API(int, Buffer_flush, (void))
RX_MPI_API(int, Buffer_iflush, (MPI_Request *request))
RX_MPI_API(int, Grequest_start, (MPI_Grequest_query_function *query_fn,
                                 MPI_Grequest_free_function *free_fn,
                                 MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                 MPI_Request *request))
RX_MPI_API(int, Grequest_complete, (MPI_Request request))
RX_MPI_API(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
RX_MPI_API(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype,
                                        MPI_Count count))
RX_MPI_API(int, Status_set_cancelled, (MPI_Status *status, int flag))
RX_MPI_API(int, Pcontrol, (const int level, ...))

/* collectives */
RX_MPI_API(int, Barrier, (MPI_Comm comm))
RX_MPI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
RX_MPI_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, int root, MPI_Comm comm))
RX_MPI_API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RX_MPI_API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
RX_MPI_API(int, Op_free, (MPI_Op *op))
RX_MPI_API(int, Op_commutative, (MPI_Op op, int *commute))
RX_MPI_API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count,
                               MPI_Datatype datatype, MPI_Op op))

/* === collectives and communicator creation, continued === */
RX_MPI_API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                          MPI_Comm comm))
RX_MPI_API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RX_MPI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm))
RX_MPI_API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
RX_MPI_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                         MPI_Request *request))
RX_MPI_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request *request))
RX_MPI_API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request))
RX_MPI_API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request))
RX_MPI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request))
RX_MPI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  MPI_Request *request))
RX_MPI_API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                        MPI_Request *request))
RX_MPI_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info,
                                  MPI_Comm *newcomm))
RX_MPI_API(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
RX_MPI_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))

/* === one-sided communication === */
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *errcode, ...);
#define MPI_LOCK_EXCLUSIVE     234
#define MPI_LOCK_SHARED        235
#define MPI_MODE_NOCHECK       1024
#define MPI_MODE_NOSTORE       2048
#define MPI_MODE_NOPUT         4096
#define MPI_MODE_NOPRECEDE     8192
#define MPI_MODE_NOSUCCEED     16384
#define MPI_WIN_BASE           0x64400010
#define MPI_WIN_SIZE           0x64400011
#define MPI_WIN_DISP_UNIT      0x64400012
#define MPI_WIN_CREATE_FLAVOR  0x64400013
#define MPI_WIN_MODEL          0x64400014
#define MPI_WIN_FLAVOR_CREATE   1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC  3
#define MPI_WIN_FLAVOR_SHARED   4
#define MPI_WIN_SEPARATE        1
#define MPI_WIN_UNIFIED         2
RX_MPI_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
RX_MPI_API(int, Free_mem, (void *base))
RX_MPI_API(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             MPI_Win *win))
RX_MPI_API(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win))
RX_MPI_API(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                      void *baseptr, MPI_Win *win))
RX_MPI_API(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
                                   void *baseptr))
RX_MPI_API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
RX_MPI_API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
RX_MPI_API(int, Win_detach, (MPI_Win win, const void *base))
RX_MPI_API(int, Win_free, (MPI_Win *win))
RX_MPI_API(int, Win_get_group, (MPI_Win win, MPI_Group *group))
RX_MPI_API(int, Win_get_attr, (MPI_Win win, int keyval, void *attribute_val, int *flag))
RX_MPI_API(int, Win_set_name, (MPI_Win win, const char *name))
RX_MPI_API(int, Win_get_name, (MPI_Win win, char *name, int *resultlen))
RX_MPI_API(int, Win_create_errhandler, (MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler))
RX_MPI_API(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
RX_MPI_API(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
RX_MPI_API(int, Win_call_errhandler, (MPI_Win win, int errorcode))
RX_MPI_API(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win))
RX_MPI_API(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win))
RX_MPI_API(int, Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                             int target_rank, MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
RX_MPI_API(int, Get_accumulate, (const void *origin_addr, int origin_count,
                                 MPI_Datatype origin_datatype, void *result_addr, int result_count,
                                 MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                                 int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                 MPI_Win win))
RX_MPI_API(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                               int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win))
RX_MPI_API(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr,
                                   void *result_addr, MPI_Datatype datatype, int target_rank,
                                   MPI_Aint target_disp, MPI_Win win))
RX_MPI_API(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
RX_MPI_API(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
RX_MPI_API(int, Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                              int target_rank, MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                              MPI_Request *request))
RX_MPI_API(int, Rget_accumulate, (const void *origin_addr, int origin_count,
                                  MPI_Datatype origin_datatype, void *result_addr, int result_count,
                                  MPI_Datatype result_datatype, int target_rank,
                                  MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                  MPI_Request *request))
RX_MPI_API(int, Win_fence, (int assert, MPI_Win win))
RX_MPI_API(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
RX_MPI_API(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
RX_MPI_API(int, Win_complete, (MPI_Win win))
RX_MPI_API(int, Win_wait, (MPI_Win win))
RX_MPI_API(int, Win_test, (MPI_Win win, int *flag))
RX_MPI_API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
RX_MPI_API(int, Win_unlock, (int rank, MPI_Win win))
RX_MPI_API(int, Win_lock_all, (int assert, MPI_Win win))
RX_MPI_API(int, Win_unlock_all, (MPI_Win win))
RX_MPI_API(int, Win_flush, (int rank, MPI_Win win))
RX_MPI_API(int, Win_flush_all, (MPI_Win win))
RX_MPI_API(int, Win_flush_local, (int rank, MPI_Win win))
RX_MPI_API(int, Win_flush_local_all, (MPI_Win win))
RX_MPI_API(int, Win_sync, (MPI_Win win))

/* === derived datatypes, process topologies, neighbourhood collectives, persistent requests === */
enum { MPI_COMBINER_NAMED = 1, MPI_COMBINER_DUP, MPI_COMBINER_CONTIGUOUS, MPI_COMBINER_VECTOR,
       MPI_COMBINER_HVECTOR, MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED,
       MPI_COMBINER_INDEXED_BLOCK, MPI_COMBINER_HINDEXED_BLOCK, MPI_COMBINER_STRUCT,
       MPI_COMBINER_SUBARRAY, MPI_COMBINER_DARRAY, MPI_COMBINER_RESIZED };
enum { MPI_ORDER_C = 56, MPI_ORDER_FORTRAN = 57 };
enum { MPI_TYPECLASS_REAL = 1, MPI_TYPECLASS_INTEGER = 2, MPI_TYPECLASS_COMPLEX = 3 };
enum { MPI_DISTRIBUTE_BLOCK = 121, MPI_DISTRIBUTE_CYCLIC = 122, MPI_DISTRIBUTE_NONE = 123 };
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
RX_MPI_API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
                              MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride,
                                      MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_indexed, (int count, const int array_of_blocklengths[],
                               const int array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[],
                                       MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_indexed_block, (int count, int blocklength,
                                            const int array_of_displacements[],
                                            MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_hindexed_block, (int count, int blocklength,
                                             const MPI_Aint array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_struct, (int count, const int array_of_blocklengths[],
                                     const MPI_Aint array_of_displacements[],
                                     const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_subarray, (int ndims, const int array_of_sizes[],
                                       const int array_of_subsizes[], const int array_of_starts[],
                                       int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
                                     const int array_of_distribs[], const int array_of_dargs[],
                                     const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                     MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                      MPI_Datatype *newtype))
RX_MPI_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_commit, (MPI_Datatype *datatype))
RX_MPI_API(int, Type_free, (MPI_Datatype *datatype))
RX_MPI_API(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb,
                                       MPI_Aint *true_extent))
RX_MPI_API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                    int *num_datatypes, int *combiner))
RX_MPI_API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses,
                                    int max_datatypes, int array_of_integers[],
                                    MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
RX_MPI_API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
RX_MPI_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
RX_MPI_API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                       int outsize, int *position, MPI_Comm comm))
RX_MPI_API(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf,
                         int outcount, MPI_Datatype datatype, MPI_Comm comm))
RX_MPI_API(int, Pack_external, (const char datarep[], const void *inbuf, int incount,
                                MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                                MPI_Aint *position))
RX_MPI_API(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize,
                                  MPI_Aint *position, void *outbuf, int outcount,
                                  MPI_Datatype datatype))
RX_MPI_API(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype,
                                     MPI_Aint *size))
RX_MPI_API(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
                                  MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                                  MPI_Count *position))
RX_MPI_API(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize,
                                    MPI_Count *position, void *outbuf, MPI_Count outcount,
                                    MPI_Datatype datatype))
RX_MPI_API(int, Pack_external_size_c, (const char datarep[], MPI_Count incount,
                                       MPI_Datatype datatype, MPI_Count *size))
RX_MPI_API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
RX_MPI_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
RX_MPI_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
/* process topologies */
RX_MPI_API(int, Dims_create, (int nnodes, int ndims, int dims[]))
RX_MPI_API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                              int reorder, MPI_Comm *comm_cart))
RX_MPI_API(int, Cartdim_get, (MPI_Comm comm, int *ndims))
RX_MPI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
RX_MPI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
RX_MPI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
RX_MPI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source,
                             int *rank_dest))
RX_MPI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
RX_MPI_API(int, Topo_test, (MPI_Comm comm, int *status))
RX_MPI_API(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[],
                                             const int *sourceweights, int outdegree,
                                             const int destinations[], const int *destweights,
                                             MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
RX_MPI_API(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[],
                                    const int degrees[], const int destinations[],
                                    const int *weights, MPI_Info info, int reorder,
                                    MPI_Comm *comm_dist_graph))
RX_MPI_API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree,
                                             int *weighted))
RX_MPI_API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[],
                                       int *sourceweights, int maxoutdegree, int destinations[],
                                       int *destweights))
RX_MPI_API(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[],
                               const int edges[], int reorder, MPI_Comm *comm_graph))
RX_MPI_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
RX_MPI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
RX_MPI_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
RX_MPI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
RX_MPI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[],
                            int *newrank))
RX_MPI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[],
                           int *newrank))
/* neighbourhood collectives */
RX_MPI_API(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm))
RX_MPI_API(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, const int recvcounts[], const int displs[],
                                      MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm))
RX_MPI_API(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
                                     const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[], const int rdispls[],
                                     MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
                                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                     void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                     MPI_Comm comm))
RX_MPI_API(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
                                      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
                                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                      void *recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                      MPI_Comm comm, MPI_Request *request))
/* persistent collectives (MPI-4) */
RX_MPI_API(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request))
RX_MPI_API(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request))
RX_MPI_API(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request))
RX_MPI_API(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request))
RX_MPI_API(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const int rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request))
RX_MPI_API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request))
RX_MPI_API(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request))
RX_MPI_API(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request))
RX_MPI_API(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf,
                                           const int recvcounts[], const int displs[],
                                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                           MPI_Request *request))
RX_MPI_API(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request))
RX_MPI_API(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[],
                                          const int sdispls[], MPI_Datatype sendtype,
                                          void *recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype,
                                          MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[],
                                          const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void *recvbuf,
                                          const int recvcounts[], const MPI_Aint rdispls[],
                                          const MPI_Datatype recvtypes[], MPI_Comm comm,
                                          MPI_Info info, MPI_Request *request))
/* their large-count forms */
RX_MPI_API(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request))
RX_MPI_API(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request))
RX_MPI_API(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount,
                                            MPI_Datatype sendtype, void *recvbuf,
                                            MPI_Count recvcount, MPI_Datatype recvtype,
                                            MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount,
                                           MPI_Datatype sendtype, void *recvbuf,
                                           MPI_Count recvcount, MPI_Datatype recvtype,
                                           MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf,
                                              MPI_Count recvcount, MPI_Datatype datatype,
                                              MPI_Op op, MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request))
RX_MPI_API(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request))
RX_MPI_API(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request))
RX_MPI_API(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const MPI_Count recvcounts[],
                                 const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request))
RX_MPI_API(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf,
                                        const MPI_Count recvcounts[], MPI_Datatype datatype,
                                        MPI_Op op, MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request))
RX_MPI_API(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
                                             MPI_Datatype sendtype, void *recvbuf,
                                             const MPI_Count recvcounts[], const MPI_Aint displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request))
RX_MPI_API(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                            const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                            void *recvbuf, const MPI_Count recvcounts[],
                                            const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                            MPI_Comm comm, MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                            const MPI_Aint sdispls[],
                                            const MPI_Datatype sendtypes[], void *recvbuf,
                                            const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request))
/* end of persistent collectives */
/* process management: see src/mpi/dynamic.c for what rdmx provides */
#define MPI_MAX_PORT_NAME 256
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
RX_MPI_API(int, Comm_spawn, (const char *command, char *argv[], int maxprocs, MPI_Info info,
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[]))
RX_MPI_API(int, Comm_spawn_multiple, (int count, char *array_of_commands[],
                                      char **array_of_argv[], const int array_of_maxprocs[],
                                      const MPI_Info array_of_info[], int root, MPI_Comm comm,
                                      MPI_Comm *intercomm, int array_of_errcodes[]))
RX_MPI_API(int, Comm_get_parent, (MPI_Comm *parent))
RX_MPI_API(int, Open_port, (MPI_Info info, char *port_name))
RX_MPI_API(int, Close_port, (const char *port_name))
RX_MPI_API(int, Comm_accept, (const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                              MPI_Comm *newcomm))
RX_MPI_API(int, Comm_connect, (const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                               MPI_Comm *newcomm))
RX_MPI_API(int, Comm_disconnect, (MPI_Comm *comm))
RX_MPI_API(int, Comm_join, (int fd, MPI_Comm *intercomm))
RX_MPI_API(int, Publish_name, (const char *service_name, MPI_Info info, const char *port_name))
RX_MPI_API(int, Unpublish_name, (const char *service_name, MPI_Info info,
                                 const char *port_name))
RX_MPI_API(int, Lookup_name, (const char *service_name, MPI_Info info, char *port_name))
/* end of process management */
/* sessions (MPI-4): see src/mpi/session.c */
typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0x7c000000)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
#define MPI_ERR_SESSION 58
#define MPI_ERR_PROC_ABORTED 59
#define MPI_ERR_VALUE_TOO_LARGE 60
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *errcode, ...);
RX_MPI_API(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
RX_MPI_API(int, Session_finalize, (MPI_Session *session))
RX_MPI_API(MPI_Fint, Session_c2f, (MPI_Session session))
RX_MPI_API(MPI_Session, Session_f2c, (MPI_Fint session))
RX_MPI_API(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
RX_MPI_API(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len,
                                       char *pset_name))
RX_MPI_API(int, Session_get_pset_info, (MPI_Session session, const char *pset_name,
                                        MPI_Info *info))
RX_MPI_API(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
RX_MPI_API(int, Session_create_errhandler,
           (MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler))
RX_MPI_API(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
RX_MPI_API(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
RX_MPI_API(int, Session_call_errhandler, (MPI_Session session, int errorcode))
RX_MPI_API(int, Group_from_session_pset, (MPI_Session session, const char *pset_name,
                                          MPI_Group *newgroup))
RX_MPI_API(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info,
                                         MPI_Errhandler errhandler, MPI_Comm *newcomm))
/* end of sessions */
/* partitioned communication (MPI-4): see src/mpi/partitioned.c */
RX_MPI_API(int, Psend_init, (const void *buf, int partitions, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Info info, MPI_Request *request))
RX_MPI_API(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                             int source, int tag, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request))
RX_MPI_API(int, Pready, (int partition, MPI_Request request))
RX_MPI_API(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
RX_MPI_API(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
RX_MPI_API(int, Parrived, (MPI_Request request, int partition, int *flag))
/* end of partitioned communication */
/* the tool information interface (MPI_T): see src/mpi/mpit.c */
typedef struct rx_t_enum *MPI_T_enum;
typedef struct rx_t_cvar *MPI_T_cvar_handle;
typedef struct rx_t_pvar *MPI_T_pvar_handle;
typedef struct rx_t_pvar_session *MPI_T_pvar_session;
typedef struct rx_t_event_registration *MPI_T_event_registration;
typedef struct rx_t_event_instance *MPI_T_event_instance;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
typedef enum { MPI_T_SOURCE_ORDERED, MPI_T_SOURCE_UNORDERED } MPI_T_source_order;
typedef enum {
    MPI_T_CB_REQUIRE_NONE, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety,
                                             void *user_data);
enum {
    MPI_T_VERBOSITY_USER_BASIC = 1, MPI_T_VERBOSITY_USER_DETAIL, MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
    MPI_T_BIND_NO_OBJECT, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP, MPI_T_BIND_MPI_OP,
    MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN, MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO,
    MPI_T_BIND_MPI_SESSION
};
enum {
    MPI_T_SCOPE_CONSTANT, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL, MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL, MPI_T_SCOPE_ALL_EQ
};
enum {
    MPI_T_PVAR_CLASS_STATE, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE, MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_AGGREGATE,
    MPI_T_PVAR_CLASS_TIMER, MPI_T_PVAR_CLASS_GENERIC
};
/* return codes of the MPI_T functions (error classes above the MPI-3.1 ones) */
#define MPI_T_ERR_MEMORY 64
#define MPI_T_ERR_NOT_INITIALIZED 65
#define MPI_T_ERR_CANNOT_INIT 66
#define MPI_T_ERR_INVALID_INDEX 67
#define MPI_T_ERR_INVALID_ITEM 68
#define MPI_T_ERR_INVALID_HANDLE 69
#define MPI_T_ERR_OUT_OF_HANDLES 70
#define MPI_T_ERR_OUT_OF_SESSIONS 71
#define MPI_T_ERR_INVALID_SESSION 72
#define MPI_T_ERR_CVAR_SET_NOT_NOW 73
#define MPI_T_ERR_CVAR_SET_NEVER 74
#define MPI_T_ERR_PVAR_NO_STARTSTOP 75
#define MPI_T_ERR_PVAR_NO_WRITE 76
#define MPI_T_ERR_PVAR_NO_ATOMIC 77
#define MPI_T_ERR_INVALID_NAME 78
#define MPI_T_ERR_INVALID 79
#define MPI_T_ERR_NOT_ACCESSIBLE 80
#define MPI_T_ERR_NOT_SUPPORTED 81
RX_MPI_API(int, T_init_thread, (int required, int *provided))
RX_MPI_API(int, T_finalize, (void))
RX_MPI_API(int, T_cvar_get_num, (int *num_cvar))
RX_MPI_API(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity,
                                  MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                                  int *desc_len, int *bind, int *scope))
RX_MPI_API(int, T_cvar_get_index, (const char *name, int *cvar_index))
RX_MPI_API(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle,
                                      MPI_T_cvar_handle *handle, int *count))
RX_MPI_API(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle))
RX_MPI_API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
RX_MPI_API(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))
RX_MPI_API(int, T_category_get_num, (int *num_cat))
RX_MPI_API(int, T_category_get_info, (int cat_index, char *name, int *name_len, char *desc,
                                      int *desc_len, int *num_cvars, int *num_pvars,
                                      int *num_categories))
RX_MPI_API(int, T_category_get_num_events, (int cat_index, int *num_events))
RX_MPI_API(int, T_category_get_index, (const char *name, int *cat_index))
RX_MPI_API(int, T_category_get_cvars, (int cat_index, int len, int indices[]))
RX_MPI_API(int, T_category_get_pvars, (int cat_index, int len, int indices[]))
RX_MPI_API(int, T_category_get_categories, (int cat_index, int len, int indices[]))
RX_MPI_API(int, T_category_get_events, (int cat_index, int len, int indices[]))
RX_MPI_API(int, T_category_changed, (int *update_number))
RX_MPI_API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
RX_MPI_API(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value, char *name,
                                  int *name_len))
RX_MPI_API(int, T_pvar_get_num, (int *num_pvar))
RX_MPI_API(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity,
                                  int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                                  char *desc, int *desc_len, int *bind, int *readonly,
                                  int *continuous, int *atomic))
RX_MPI_API(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index))
RX_MPI_API(int, T_pvar_session_create, (MPI_T_pvar_session *session))
RX_MPI_API(int, T_pvar_session_free, (MPI_T_pvar_session *session))
RX_MPI_API(int, T_pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index,
                                      void *obj_handle, MPI_T_pvar_handle *handle, int *count))
RX_MPI_API(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
RX_MPI_API(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
RX_MPI_API(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
RX_MPI_API(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
RX_MPI_API(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                               const void *buf))
RX_MPI_API(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
RX_MPI_API(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                   void *buf))
RX_MPI_API(int, T_source_get_num, (int *num_sources))
RX_MPI_API(int, T_source_get_info, (int source_index, char *name, int *name_len, char *desc,
                                    int *desc_len, MPI_T_source_order *ordering,
                                    MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                                    MPI_Info *info))
RX_MPI_API(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
RX_MPI_API(int, T_event_get_num, (int *num_events))
RX_MPI_API(int, T_event_get_info, (int event_index, char *name, int *name_len, int *verbosity,
                                   MPI_Datatype array_of_datatypes[],
                                   MPI_Aint array_of_displacements[], int *num_elements,
                                   MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                                   int *desc_len, int *bind))
RX_MPI_API(int, T_event_get_index, (const char *name, int *event_index))
RX_MPI_API(int, T_event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info,
                                       MPI_T_event_registration *event_registration))
RX_MPI_API(int, T_event_handle_set_info, (MPI_T_event_registration event_registration,
                                          MPI_Info info))
RX_MPI_API(int, T_event_handle_get_info, (MPI_T_event_registration event_registration,
                                          MPI_Info *info_used))
RX_MPI_API(int, T_event_register_callback, (MPI_T_event_registration event_registration,
                                            MPI_T_cb_safety cb_safety, MPI_Info info,
                                            void *user_data,
                                            MPI_T_event_cb_function event_cb_function))
RX_MPI_API(int, T_event_callback_set_info, (MPI_T_event_registration event_registration,
                                            MPI_T_cb_safety cb_safety, MPI_Info info))
RX_MPI_API(int, T_event_callback_get_info, (MPI_T_event_registration event_registration,
                                            MPI_T_cb_safety cb_safety, MPI_Info *info_used))
RX_MPI_API(int, T_event_handle_free, (MPI_T_event_registration event_registration,
                                      void *user_data,
                                      MPI_T_event_free_cb_function free_cb_function))
RX_MPI_API(int, T_event_set_dropped_handler,
           (MPI_T_event_registration event_registration,
            MPI_T_event_dropped_cb_function dropped_cb_function))
RX_MPI_API(int, T_event_read, (MPI_T_event_instance event_instance, int element_index,
                               void *buffer))
RX_MPI_API(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer))
RX_MPI_API(int, T_event_get_timestamp, (MPI_T_event_instance event_instance,
                                        MPI_Count *event_timestamp))
RX_MPI_API(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index))
/* end of the tool information interface */
/* persistent requests */
RX_MPI_API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                            MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                              int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                              int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Start, (MPI_Request *request))
RX_MPI_API(int, Startall, (int count, MPI_Request array_of_requests[]))

/* === MPI-4 large counts: the _c forms (MPI_Count counts, MPI_Aint displacements) === */
/* point-to-point */
RX_MPI_API(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                         int tag, MPI_Comm comm))
RX_MPI_API(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm))
RX_MPI_API(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm))
RX_MPI_API(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm))
RX_MPI_API(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                         MPI_Comm comm, MPI_Status *status))
RX_MPI_API(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                             MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                             MPI_Status *status))
RX_MPI_API(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag, MPI_Comm comm,
                                     MPI_Status *status))
RX_MPI_API(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                          MPI_Status *status))
RX_MPI_API(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                           MPI_Request *request))
RX_MPI_API(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                              MPI_Request *request))
RX_MPI_API(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag, MPI_Comm comm,
                                      MPI_Request *request))
RX_MPI_API(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
/* collectives */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);
RX_MPI_API(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op))
RX_MPI_API(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                          MPI_Comm comm))
RX_MPI_API(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
RX_MPI_API(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf,
                                   const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm))
RX_MPI_API(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RX_MPI_API(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                            MPI_Request *request))
RX_MPI_API(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request))
RX_MPI_API(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf,
                                    const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                          MPI_Request *request))
RX_MPI_API(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count,
                                 MPI_Datatype datatype, MPI_Op op))
RX_MPI_API(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm))
RX_MPI_API(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm))
RX_MPI_API(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm))
RX_MPI_API(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RX_MPI_API(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm))
RX_MPI_API(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm))
RX_MPI_API(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              MPI_Comm comm))
RX_MPI_API(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request))
RX_MPI_API(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request))
RX_MPI_API(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request))
/* neighbourhood collectives */
RX_MPI_API(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                       MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        const MPI_Count recvcounts[], const MPI_Aint displs[],
                                        MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype recvtype, MPI_Comm comm))
RX_MPI_API(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                       const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                       void *recvbuf, const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                       MPI_Comm comm))
RX_MPI_API(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                       const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                       void *recvbuf, const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                       MPI_Comm comm))
RX_MPI_API(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount,
                                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request *request))
RX_MPI_API(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Count recvcounts[], const MPI_Aint displs[],
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request))
RX_MPI_API(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                        void *recvbuf, const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                        void *recvbuf, const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                        MPI_Comm comm, MPI_Request *request))
/* datatypes, packing, the buffered-send buffer */
RX_MPI_API(int, Buffer_attach_c, (void *buffer, MPI_Count size))
RX_MPI_API(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
/* MPI-4.1 buffers of one communicator or one session for buffered sends */
RX_MPI_API(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
RX_MPI_API(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size))
RX_MPI_API(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
RX_MPI_API(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size))
RX_MPI_API(int, Comm_flush_buffer, (MPI_Comm comm))
RX_MPI_API(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
RX_MPI_API(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size))
RX_MPI_API(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size))
RX_MPI_API(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
RX_MPI_API(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr,
                                          MPI_Count *size))
RX_MPI_API(int, Session_flush_buffer, (MPI_Session session))
RX_MPI_API(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request))
RX_MPI_API(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype,
                                 MPI_Count *count))
RX_MPI_API(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
RX_MPI_API(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
RX_MPI_API(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb,
                                         MPI_Count *true_extent))
RX_MPI_API(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                         MPI_Count outsize, MPI_Count *position, MPI_Comm comm))
RX_MPI_API(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                           MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm))
RX_MPI_API(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                              MPI_Count *size))
/* datatype constructors and their envelopes */
RX_MPI_API(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                        MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                 const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                         const MPI_Count array_of_displacements[],
                                         MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                              const MPI_Count array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                               const MPI_Count array_of_displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_struct_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                       const MPI_Count array_of_displacements[],
                                       const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[],
                                         const MPI_Count array_of_subsizes[],
                                         const MPI_Count array_of_starts[], int order,
                                         MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_darray_c, (int size, int rank, int ndims,
                                       const MPI_Count array_of_gsizes[],
                                       const int array_of_distribs[], const int array_of_dargs[],
                                       const int array_of_psizes[], int order,
                                       MPI_Datatype oldtype, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                                        MPI_Datatype *newtype))
RX_MPI_API(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers,
                                      MPI_Count *num_addresses, MPI_Count *num_large_counts,
                                      MPI_Count *num_datatypes, int *combiner))
RX_MPI_API(int, Type_get_contents_c, (MPI_Datatype datatype, MPI_Count max_integers,
                                      MPI_Count max_addresses, MPI_Count max_large_counts,
                                      MPI_Count max_datatypes, int array_of_integers[],
                                      MPI_Aint array_of_addresses[],
                                      MPI_Count array_of_large_counts[],
                                      MPI_Datatype array_of_datatypes[]))
/* one-sided communication */
RX_MPI_API(int, Put_c, (const void *origin_addr, MPI_Count origin_count,
                        MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                        MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
RX_MPI_API(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                        int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                        MPI_Datatype target_datatype, MPI_Win win))
RX_MPI_API(int, Rput_c, (const void *origin_addr, MPI_Count origin_count,
                         MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request))
RX_MPI_API(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                         MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
RX_MPI_API(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count,
                               MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                               MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win))
RX_MPI_API(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count,
                                MPI_Datatype origin_datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Count target_count,
                                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                MPI_Request *request))
RX_MPI_API(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
                                   MPI_Datatype origin_datatype, void *result_addr,
                                   MPI_Count result_count, MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
RX_MPI_API(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
                                    MPI_Datatype origin_datatype, void *result_addr,
                                    MPI_Count result_count, MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                    MPI_Request *request))
RX_MPI_API(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                               MPI_Comm comm, MPI_Win *win))
RX_MPI_API(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                 void *baseptr, MPI_Win *win))
RX_MPI_API(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                                        MPI_Comm comm, void *baseptr, MPI_Win *win))
RX_MPI_API(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                                     void *baseptr))
/* end of the _c forms */

/* === Fortran 90 parameterized types (MPI-4.1 19.1.9) === */
enum { MPI_COMBINER_F90_REAL = 14, MPI_COMBINER_F90_COMPLEX, MPI_COMBINER_F90_INTEGER };
RX_MPI_API(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
RX_MPI_API(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
/* end of the Fortran 90 types */

/* === MPI-4.1 status accessors and the value-index pair type === */
RX_MPI_API(int, Status_get_source, (const MPI_Status *status, int *source))
RX_MPI_API(int, Status_set_source, (MPI_Status *status, int source))
RX_MPI_API(int, Status_get_tag, (const MPI_Status *status, int *tag))
RX_MPI_API(int, Status_set_tag, (MPI_Status *status, int tag))
RX_MPI_API(int, Status_get_error, (const MPI_Status *status, int *error))
RX_MPI_API(int, Status_set_error, (MPI_Status *status, int error))
RX_MPI_API(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type,
                                       MPI_Datatype *pair_type))
/* end of the MPI-4.1 status accessors */

#undef RX_MPI_API

#include "mpio.h" /* MPI-IO (MPI-4.1 chapter 14) */

#ifdef __cplusplus
}
#endif
#endif
