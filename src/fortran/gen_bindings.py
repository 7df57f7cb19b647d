#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate rdmx's Fortran bindings from include/mpi.h.

Every PMPI_x declaration of mpi.h (and of mpio.h, which it includes), as the
C compiler ($CC, default cc) preprocesses it, is read; each C argument gets a
Fortran meaning from its C type and name (ARG_RULES below, then the per-call
table OVERRIDES). From that one description come:
  fort_gen.c   the Fortran-callable C functions: mpi_x_ / pmpi_x_ (mpif.h and
               use mpi, arguments by reference, hidden string lengths), their
               _f08_ aliases, and mpi_x_cdesc / pmpi_x_cdesc for calls with
               choice buffers (a CFI descriptor per buffer: use mpi, mpi_f08)
  mpif.h       constants, sentinels and function types for Fortran 77
  mpi.f90      module mpi: the same with explicit interfaces
  mpi_f08.f90  module mpi_f08: handle types, TYPE(MPI_Status), optional ierror
               (and MPI_Status_f2f08 / MPI_Status_f082f, written out here)
  fort_only.f90  the procedures of the Fortran-only calls (MPI_Sizeof's
               specifics, MPI_F_sync_reg)
The calls taking callbacks the C library calls by value, or arrays of
strings, have hand-written C bodies (fort_callbacks.c, fort_spawn.c; HAND_KINDS)
and generated Fortran interfaces. A call whose arguments cannot be expressed
is left out and named in the output of --list-skipped; the test
fortran.bindings_complete (--check) fails when one is left out for a reason
other than being C only, so that a new C function gets a binding.

usage: gen_bindings.py MPI_H OUTDIR | --list-skipped MPI_H | --check MPI_H
  --check fails when a call is left out for a reason other than being C only
"""
import os
import re
import subprocess
import sys

HANDLES = ['Comm', 'Group', 'Datatype', 'Op', 'Request', 'Errhandler', 'Info', 'Win', 'Message',
           'File', 'Session']
# C-only calls: the standard gives them no Fortran binding.
SKIPPED = {
    'Status_c2f': 'C only', 'Status_f2c': 'C only', 'Status_c2f08': 'C only',
    'Status_f082c': 'C only',
    # MPI-1, removed in MPI-3.0 (in mpi.h as MPICH has it): Fortran programs
    # pass their handler to MPI_COMM_CREATE_ERRHANDLER
    'Errhandler_create': 'C only',
}
# The status conversions the standard also gives Fortran: written out in
# mpi_f08 (status_conversions), the one interface of rdmx with TYPE(MPI_Status),
# not generated from their C forms: their arguments, (name, Fortran type).
STATUS_CONV = {'Status_f2f08': [('f_status', 'INTEGER'), ('f08_status', 'TYPE(MPI_Status)')],
               'Status_f082f': [('f08_status', 'TYPE(MPI_Status)'), ('f_status', 'INTEGER')]}
# Callback types a Fortran procedure can be passed as directly: the C library
# calls them with every argument by address, as Fortran expects.
DIRECT_PROCS = {'MPI_User_function', 'MPI_User_function_c', 'MPI_Comm_errhandler_function',
                'MPI_Win_errhandler_function', 'MPI_File_errhandler_function',
                'MPI_Session_errhandler_function'}
# Callback types the C library calls with arguments by value: the calls taking
# them have C bodies written by hand (fort_callbacks.c), which pass the C
# library a trampoline that calls the Fortran procedure. The Fortran
# interfaces are generated as for any call.
TRAMPOLINED = {'MPI_Comm_copy_attr_function', 'MPI_Comm_delete_attr_function',
               'MPI_Type_copy_attr_function', 'MPI_Type_delete_attr_function',
               'MPI_Win_copy_attr_function', 'MPI_Win_delete_attr_function',
               'MPI_Copy_function', 'MPI_Delete_function', 'MPI_Grequest_query_function',
               'MPI_Grequest_free_function', 'MPI_Grequest_cancel_function',
               'MPI_Datarep_conversion_function', 'MPI_Datarep_conversion_function_c',
               'MPI_Datarep_extent_function'}
# The Fortran form of every callback type (an abstract interface of mpi_f08):
# its arguments as (name, declaration), and whether it ends with ierror.
CALLBACK_ARGS = {
    'copy_attr': [('oldobj', 'H'), ('keyval', 'INTEGER'), ('extra_state', 'AINT'),
                  ('attribute_val_in', 'AINT'), ('attribute_val_out', 'AINT'),
                  ('flag', 'LOGICAL')],
    'delete_attr': [('obj', 'H'), ('keyval', 'INTEGER'), ('attribute_val', 'AINT'),
                    ('extra_state', 'AINT')],
    'errhandler': [('obj', 'H'), ('error_code', 'INTEGER')],
}
CALLBACKS = [  # (abstract interface, arguments, handle type, has ierror)
    ('MPI_User_function', [('invec', 'TYPE(C_PTR), VALUE'), ('inoutvec', 'TYPE(C_PTR), VALUE'),
                           ('len', 'INTEGER'), ('datatype', 'TYPE(MPI_Datatype)')], None, False),
    ('MPI_User_function_c', [('invec', 'TYPE(C_PTR), VALUE'), ('inoutvec', 'TYPE(C_PTR), VALUE'),
                             ('len', 'INTEGER(KIND=MPI_COUNT_KIND)'),
                             ('datatype', 'TYPE(MPI_Datatype)')], None, False),
] + [('MPI_%s_errhandler_function' % h, 'errhandler', h, False)
     for h in ('Comm', 'Win', 'File', 'Session')] + \
    [('MPI_%s_%s_attr_function' % (h, k), k + '_attr', h, True)
     for h in ('Comm', 'Type', 'Win') for k in ('copy', 'delete')] + [
    # MPI-1 (MPI_Keyval_create): the values are default INTEGERs
    ('MPI_Copy_function', [('oldcomm', 'TYPE(MPI_Comm)'), ('keyval', 'INTEGER'),
                           ('extra_state', 'INTEGER'), ('attribute_val_in', 'INTEGER'),
                           ('attribute_val_out', 'INTEGER'), ('flag', 'LOGICAL')], None, True),
    ('MPI_Delete_function', [('comm', 'TYPE(MPI_Comm)'), ('keyval', 'INTEGER'),
                             ('attribute_val', 'INTEGER'), ('extra_state', 'INTEGER')], None, True),
    ('MPI_Grequest_query_function', [('extra_state', 'AINT'), ('status', 'TYPE(MPI_Status)')],
     None, True),
    ('MPI_Grequest_free_function', [('extra_state', 'AINT')], None, True),
    ('MPI_Grequest_cancel_function', [('extra_state', 'AINT'), ('complete', 'LOGICAL')], None, True),
    ('MPI_Datarep_extent_function', [('datatype', 'TYPE(MPI_Datatype)'), ('extent', 'AINT'),
                                     ('extra_state', 'AINT')], None, True),
] + [('MPI_Datarep_conversion_function' + c,
      [('userbuf', 'TYPE(C_PTR), VALUE'), ('datatype', 'TYPE(MPI_Datatype)'),
       ('count', 'INTEGER' + k), ('filebuf', 'TYPE(C_PTR), VALUE'),
       ('position', 'INTEGER(KIND=MPI_OFFSET_KIND)'), ('extra_state', 'AINT')], None, True)
     for c, k in (('', ''), ('_c', '(KIND=MPI_COUNT_KIND)'))]
# The predefined callbacks, Fortran procedures of the library (fort_callbacks.c)
# with the interface of the given callback type (the type's ones are the
# communicator ones: every handle is an INTEGER).
PREDEFINED_PROCS = [(n, 'MPI_%s_%s_attr_function' % (h.capitalize(), k))
                    for h in ('COMM', 'TYPE', 'WIN')
                    for n, k in (('MPI_%s_NULL_COPY_FN' % h, 'copy'),
                                 ('MPI_%s_DUP_FN' % h, 'copy'),
                                 ('MPI_%s_NULL_DELETE_FN' % h, 'delete'))] + \
    [('MPI_NULL_COPY_FN', 'MPI_Copy_function'), ('MPI_DUP_FN', 'MPI_Copy_function'),
     ('MPI_NULL_DELETE_FN', 'MPI_Delete_function'),
     ('MPI_CONVERSION_FN_NULL', 'MPI_Datarep_conversion_function'),
     ('MPI_CONVERSION_FN_NULL_C', 'MPI_Datarep_conversion_function_c')]
LOGICAL_NAMES = {'flag', 'reorder', 'high', 'commute', 'weighted', 'periods', 'remain_dims'}
BUFFER_NAMES = {'buf', 'sendbuf', 'recvbuf', 'buffer', 'inbuf', 'outbuf', 'inoutbuf',
                'origin_addr', 'result_addr', 'compare_addr', 'location', 'base'}
WEIGHT_NAMES = {'sourceweights', 'destweights', 'weights'}
# Per-call exceptions: (call, argument) -> kind, or call -> {extra settings}.
OVERRIDES = {
    ('Init', 'argc'): 'drop:NULL', ('Init', 'argv'): 'drop:NULL',
    ('Init_thread', 'argc'): 'drop:NULL', ('Init_thread', 'argv'): 'drop:NULL',
    ('Info_create_env', 'argc'): 'drop:0', ('Info_create_env', 'argv'): 'drop:NULL',
    ('Status_set_elements', 'status'): 'status_inout',
    ('Status_set_elements_x', 'status'): 'status_inout',
    ('Status_set_cancelled', 'status'): 'status_inout',
    ('Status_set_cancelled', 'flag'): 'logical',
    ('Buffer_detach', 'buffer_addr'): 'addr_out',
    ('Comm_detach_buffer', 'buffer_addr'): 'addr_out',
    ('Session_detach_buffer', 'buffer_addr'): 'addr_out',
    ('Alloc_mem', 'baseptr'): 'addr_out', ('Win_allocate', 'baseptr'): 'addr_out',
    ('Win_allocate_shared', 'baseptr'): 'addr_out', ('Win_shared_query', 'baseptr'): 'addr_out',
    ('Attr_put', 'attribute_val'): 'attr_in_int', ('Attr_get', 'attribute_val'): 'attr_out_int',
    ('Keyval_create', 'extra_state'): 'int',  # MPI-1: a default INTEGER
    # a Fortran length leaves out the C terminator (and is at most the string's)
    ('Info_get_string', 'buflen'): 'strlen:value',
    ('Session_get_nth_pset', 'pset_len'): 'strlen:pset_name',
    # arrays of blank-padded strings: hand-written C bodies (fort_spawn.c)
    ('Comm_spawn', 'argv'): 'str_array', ('Comm_spawn_multiple', 'array_of_commands'): 'str_array',
    ('Comm_spawn_multiple', 'array_of_argv'): 'str_table',
}
# kinds whose calls have C bodies written by hand (fort_callbacks.c, fort_spawn.c)
HAND_KINDS = {'callback', 'str_array', 'str_table'}
# the number of statuses an array_of_statuses holds: (count argument, is it an outcount)
STATUS_COUNTS = {'Waitall': 'count', 'Testall': 'count', 'Waitsome': '*outcount',
                 'Testsome': '*outcount', 'Request_get_status_all': 'count',
                 'Request_get_status_some': '*outcount'}


class Arg:
    def __init__(self, ctype, name, ptr, array, const):
        self.ctype, self.name, self.ptr, self.array, self.const = ctype, name, ptr, array, const
        self.kind = None
        self.count = self.dtype = None  # a buffer's count and datatype arguments


class Func:
    def __init__(self, ret, name, args):
        self.ret, self.name, self.args = ret, name, args
        self.skip = None
        self.hand = False  # its C body is written by hand

    def fargs(self):
        return [a for a in self.args if not a.kind.startswith('drop')]

    def has_buffers(self):
        return any(a.kind.startswith('buf') for a in self.args)


def parse_header(text):
    """Every PMPI_x declaration of the preprocessed header (mpi.h and what it
    includes: mpio.h declares its calls through macros of its own)."""
    text = ' '.join(text.split())
    funcs = []
    for m in re.finditer(r'(?:^|[;}] *)((?:const )?\w+(?: \*)?) *PMPI_(\w+) *\(([^()]*)\) *;', text):
        params = m.group(3).strip()
        args = []
        if params != 'void':
            for p in params.split(','):
                p = p.strip()
                if p == '...':
                    continue
                array = '[' in p
                dims = re.findall(r'\[(\d*)\]', p)
                p = re.sub(r'\[\d*\]', '', p)
                const = bool(re.match(r'const\b', p))
                p = re.sub(r'\bconst\b', '', p)
                ptr = p.count('*')
                toks = p.replace('*', ' ').split()
                a = Arg(' '.join(toks[:-1]), toks[-1], ptr, array, const)
                a.inner = [d for d in dims if d]
                args.append(a)
        funcs.append(Func(m.group(1).replace(' *', '*'), m.group(2), args))
    return funcs


def classify(f):
    """Give every argument of f a kind, or set f.skip."""
    if f.name in SKIPPED or f.name in STATUS_CONV:
        f.skip = SKIPPED.get(f.name, 'written out in mpi_f08')
        return
    if f.name.endswith(('_c2f', '_f2c')) or f.name.startswith('T_'):  # MPI_T: C only
        f.skip = 'C only'
        return
    for a in f.args:
        t, n = a.ctype, a.name
        ref = a.ptr or a.array
        a.kind = OVERRIDES.get((re.sub(r'_c$', '', f.name), n))  # large-count forms too
        if a.kind:
            continue
        if t == 'void' and a.ptr == 1 and n in BUFFER_NAMES:
            a.kind = 'buf_in' if a.const else 'buf'
        elif t == 'void' and n == 'attribute_val':
            a.kind = 'attr_out' if 'get' in f.name.lower() else 'attr_in'
        elif t in ('MPI_' + h for h in HANDLES):
            a.kind = ('handle_array' if a.array else 'handle_ref') if ref else 'handle'
        elif t in ('int', 'MPI_Aint', 'MPI_Count', 'MPI_Offset') and a.ptr <= 1:
            base = 'logical' if n in LOGICAL_NAMES and t == 'int' else \
                {'int': 'int', 'MPI_Aint': 'aint', 'MPI_Count': 'count', 'MPI_Offset': 'offset'}[t]
            if n in WEIGHT_NAMES and a.const:
                a.kind = 'weights'
            elif a.array:
                a.kind = base + '_array'
            elif a.ptr:
                a.kind = base + '_ref'
            else:
                a.kind = base
        elif t == 'char' and a.ptr + a.array == 1:
            a.kind = 'str_in' if a.const else 'str_out'
        elif t == 'MPI_Status' and a.ptr == 1:
            a.kind = 'statuses' if n == 'array_of_statuses' else \
                ('status_in' if a.const else 'status')
        elif t in DIRECT_PROCS and a.ptr == 1:
            a.kind = 'proc'
        elif t in TRAMPOLINED and a.ptr == 1:
            a.kind = 'callback'
        elif t == 'void' and a.ptr == 1 and n == 'extra_state':
            a.kind = 'aint'  # an INTEGER(KIND=MPI_ADDRESS_KIND) the callbacks get
        else:
            f.skip = 'argument %s %s has no Fortran form' % (t + '*' * a.ptr, n)
            return
    if f.ret not in ('int', 'double', 'MPI_Aint'):
        f.skip = 'returns ' + f.ret
        return
    f.hand = any(a.kind in HAND_KINDS for a in f.args)
    names = {a.name: a for a in f.args}
    has_types = any(a.ctype == 'MPI_Datatype' for a in f.args)
    has_counts = any(a.kind in ('int', 'count') and 'count' in a.name for a in f.args)
    for a in f.args:
        if not a.kind.startswith('buf'):
            continue
        # a buffer's elements are given by a count and a datatype of its own
        # (sendbuf: sendcount, sendtype), or of the call (count, datatype)
        prefix = re.sub(r'(_addr|buf|buffer)$', '', a.name)
        a.count = next((c for c in (prefix + 'count', prefix + '_count', 'count')
                        if c in names and names[c].kind in ('int', 'count')), None)
        a.dtype = next((d for d in (prefix + 'type', prefix + '_datatype', 'datatype')
                        if d in names and names[d].kind == 'handle'), None)
        if a.count and a.dtype:
            a.mode = 'RX_F_DESCRIBED'
        elif has_types:
            a.mode = 'RX_F_CONTIG'  # counts in arrays, sizes in bytes: contiguous only
        else:
            a.mode = 'RX_F_ADDRESS'  # Get_address, Win_create: the first element's address
        if not has_counts and a.dtype:
            a.mode = 'RX_F_CONTIG'  # one element of datatype: Fetch_and_op
    # a count and datatype shared by two buffers (Reduce: sendbuf, recvbuf) cannot
    # be replaced by one derived datatype for each: they must be contiguous
    for a in f.args:
        if getattr(a, 'mode', None) == 'RX_F_DESCRIBED' and \
                sum(1 for b in f.args if b.dtype == a.dtype and b.count == a.count) > 1:
            a.mode = 'RX_F_SHARED'


# ---------------------------------------------------------------- C layer

STR_KINDS = {'str_in', 'str_out', 'str_array', 'str_table'}  # a hidden length each
CTYPE = {'int': 'MPI_Fint', 'logical': 'MPI_Fint', 'aint': 'MPI_Aint', 'count': 'MPI_Count',
         'offset': 'MPI_Offset'}


def c_param(f, a, cdesc):
    k = a.kind
    if k.startswith('buf') or (k in STR_KINDS and cdesc):
        return ('CFI_cdesc_t *' if cdesc else ('const void *' if k == 'buf_in' else 'void *')) + a.name
    if k in STR_KINDS:
        return ('const char *' if k == 'str_in' else 'char *') + a.name
    if k.startswith('status') or k == 'statuses':
        return 'MPI_Fint *' + a.name
    if k == 'proc':
        return 'void (*%s)(void)' % a.name
    if k == 'addr_out':
        return 'void *' + a.name
    if k in ('attr_in', 'attr_out'):
        return 'MPI_Aint *' + a.name
    if k in ('attr_in_int', 'attr_out_int', 'weights'):
        return 'MPI_Fint *' + a.name
    base = k.split('_')[0]
    return '%s *%s' % (CTYPE.get(base, 'MPI_Fint'), a.name)


def c_wrapper(f, prefix, cdesc):
    """One Fortran-callable C function: prefix is mpi or pmpi."""
    cname = ('MPI_' if prefix == 'mpi' else 'PMPI_') + f.name
    sym = prefix + '_' + f.name.lower() + ('_cdesc' if cdesc else '_')
    params = [c_param(f, a, cdesc) for a in f.fargs()]
    if f.ret == 'int':
        params.append('MPI_Fint *ierror')
    if not cdesc:
        params += ['size_t %s_len' % a.name for a in f.fargs() if a.kind in STR_KINDS]
    rtype = {'int': 'void', 'double': 'double', 'MPI_Aint': 'MPI_Aint'}[f.ret]
    pre, call, post, cleanup = [], [], [], []
    for a in f.args:
        k, n = a.kind, a.name
        if k.startswith('drop'):
            call.append(k.split(':')[1])
        elif k in ('int', 'logical', 'aint', 'count', 'offset', 'handle'):
            owner = [b for b in f.args if getattr(b, 'mode', '') == 'RX_F_DESCRIBED' and
                     n in (b.count, b.dtype)] if cdesc else []
            if owner:  # a non-contiguous buffer brings its own count and datatype
                call.append('b_%s.%s' % (owner[0].name, 'count' if n == owner[0].count else 'type'))
            else:
                call.append('*' + n)
        elif a.inner:  # int ranges[][3]
            call.append('(%s (*)%s)%s' % (a.ctype, ''.join('[%s]' % d for d in a.inner), n))
        elif k.endswith('_ref') or k.endswith('_array') or k in ('handle_array', 'addr_out'):
            call.append(n)
        elif k == 'weights':
            call.append('rx_f_weights(%s)' % n)
        elif k.startswith('buf'):
            if cdesc:
                cnt = '*' + a.count if a.mode == 'RX_F_DESCRIBED' else '0'
                dt = '*' + a.dtype if a.mode == 'RX_F_DESCRIBED' else 'MPI_DATATYPE_NULL'
                pre.append('rx_f_buf_t b_%s;' % n)
                pre.append('int rc_%s = rx_f_cdesc_buf(%s, %s, %s, %s, "MPI_%s", &b_%s);'
                           % (n, n, cnt, dt, a.mode, f.name, n))
                pre.append('if (rc_%s) { rc = rc_%s; goto out_%s; }' % (n, n, n))
                cleanup.insert(0, 'out_%s: rx_f_buf_done(&b_%s);' % (n, n))
                call.append('b_%s.addr' % n)
            else:
                call.append('rx_f_addr(%s)' % n)
        elif k.startswith('strlen:'):  # the length of a str_out argument, in and out
            s = k.split(':')[1]
            pre.append('int l0_%s = *%s > 0 ? (int)rx_f_min(*%s, %s_len) + 1 : 0, l_%s = l0_%s;'
                       % (n, n, n, s, n, n))
            post.append('if (rc == MPI_SUCCESS && l_%s != l0_%s) *%s = l_%s > 0 ? l_%s - 1 : 0;'
                        % ((n,) * 5))
            call.append('&l_' + n)
        elif k == 'str_in':
            pre.append('char s_%s[RX_F_STR_STACK];' % n)
            src = ('%s->base_addr, %s->elem_len' if cdesc else '%s, %s_len') % (n, n)
            pre.append('char *c_%s = rx_f_str_in(%s, s_%s);' % (n, src, n))
            pre.append('if (!c_%s) { rc = MPI_ERR_NO_MEM; goto out_%s; }' % (n, n))
            cleanup.insert(0, 'out_%s: rx_f_str_free(c_%s, s_%s);' % (n, n, n))
            call.append('c_' + n)
        elif k == 'str_out':
            ln = '%s->elem_len' % n if cdesc else n + '_len'
            pre.append('char s_%s[RX_F_STR_STACK];' % n)
            pre.append('char *c_%s = rx_f_str_out_buf(%s, s_%s);' % (n, ln, n))
            pre.append('if (!c_%s) { rc = MPI_ERR_NO_MEM; goto out_%s; }' % (n, n))
            dst = '%s->base_addr' % n if cdesc else n
            post.append('if (rc == MPI_SUCCESS) rx_f_str_out(c_%s, %s, %s);' % (n, dst, ln))
            cleanup.insert(0, 'out_%s: rx_f_str_free(c_%s, s_%s);' % (n, n, n))
            call.append('c_' + n)
        elif k in ('status', 'status_inout', 'status_in'):
            pre.append('MPI_Status c_%s;' % n)
            pre.append('MPI_Status *p_%s = rx_f_status_%s(%s, &c_%s);'
                       % (n, 'out' if k == 'status' else 'in', n, n))
            if k != 'status_in':
                post.append('rx_f_status_done(p_%s, %s);' % (n, n))
            call.append('p_' + n)
        elif k == 'statuses':
            cnt = STATUS_COUNTS[f.name]
            total = '*incount' if 'incount' in [x.name for x in f.args] else '*count'
            pre.append('MPI_Status s_%s[RX_F_STATUS_STACK];' % n)
            pre.append('MPI_Status *p_%s = rx_f_statuses(%s, %s, s_%s);' % (n, n, total, n))
            pre.append('if (!p_%s) { rc = MPI_ERR_NO_MEM; goto out_%s; }' % (n, n))
            post.append('rx_f_statuses_done(p_%s, %s, *%s, s_%s);' % (n, n, cnt.lstrip('*'), n))
            cleanup.insert(0, 'out_%s: rx_f_statuses_free(p_%s, %s, s_%s);' % (n, n, n, n))
            call.append('p_' + n)
        elif k == 'proc':
            call.append('(%s *)%s' % (a.ctype, n))
        elif k in ('attr_in', 'attr_in_int'):
            call.append('(void *)(intptr_t)*' + n)
        elif k in ('attr_out', 'attr_out_int'):
            pre.append('void *c_%s = NULL;' % n)
            call.append('&c_' + n)
            key = [x.name for x in f.args if 'keyval' in x.name][0]
            flag = [x.name for x in f.args if x.name == 'flag'][0]
            conv = '(MPI_Fint)' if k == 'attr_out_int' else ''
            post.append('if (rc == MPI_SUCCESS && *%s) *%s = %srx_f_attr_value(*%s, c_%s);'
                        % (flag, n, conv, key, n))
        else:
            raise SystemExit('gen_bindings: no C form for kind ' + k)
    out = ['%s %s(%s)' % (rtype, sym, ', '.join(params) or 'void'), '{']
    if f.ret != 'int':
        out.append('    return %s(%s);' % (cname, ', '.join(call)))
        return '\n'.join(out + ['}', ''])
    if pre:
        out.append('    int rc = MPI_SUCCESS;')
    out += ['    ' + line for line in pre]
    out.append('    %s%s(%s);' % ('rc = ' if pre else 'int rc = ', cname, ', '.join(call)))
    out += ['    ' + line for line in post]
    out += cleanup
    out.append('    if (ierror) *ierror = rc;')
    return '\n'.join(out + ['}', ''])


def gen_c(funcs):
    out = ['/* Generated by src/fortran/gen_bindings.py from include/mpi.h: do not edit. */',
           '#include "fort_support.h"', '']
    for f in funcs:
        if f.skip or f.hand:
            continue
        for prefix in ('mpi', 'pmpi'):
            out.append(c_wrapper(f, prefix, False))
            sym = prefix + '_' + f.name.lower()
            out.append('extern __typeof(%s_) %s_f08_ __attribute__((alias("%s_")));\n'
                       % (sym, sym, sym))
            if f.has_buffers():
                out.append(c_wrapper(f, prefix, True))
    return '\n'.join(out)


# ---------------------------------------------------------------- constants

def parse_constants(text):
    """(name, value, handle kind or None) for every integer constant of mpi.h."""
    consts = []
    body = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    for m in re.finditer(r'^#define\s+(MPI_\w+)\s+(.+?)\s*$', body, re.M):
        name, val = m.group(1), m.group(2)
        hm = re.match(r'\(\(MPI_(\w+)\)(0x[0-9a-fA-F]+)\)$', val)
        km = re.match(r'\(\(MPI_(Offset|Aint|Count)\)(-?\d+)\)$', val)
        if hm and hm.group(1) in HANDLES:
            consts.append((name, int(hm.group(2), 16), hm.group(1)))
        elif km:  # an integer of another kind: MPI_DISPLACEMENT_CURRENT
            consts.append((name, int(km.group(2)), 'kind:' + INT_KINDS[km.group(1)]))
        elif re.match(r'\(?-?\d+\)?$|0x[0-9a-fA-F]+$', val):
            consts.append((name, int(val.strip('()'), 0), None))
        elif re.match(r'MPI_\w+$', val):
            prev = [c for c in consts if c[0] == val]
            if prev:
                consts.append((name, prev[0][1], prev[0][2]))
    for m in re.finditer(r'enum\s*\{([^}]*)\}', body):
        nxt = 0
        for item in m.group(1).split(','):
            item = item.strip()
            if not item:
                continue
            if '=' in item:
                n, v = [s.strip() for s in item.split('=')]
                nxt = int(v, 0)
            else:
                n = item
            consts.append((n, nxt, None))
            nxt += 1
    skip = {'MPI_F_STATUS_SIZE', 'MPI_F_SOURCE', 'MPI_F_TAG', 'MPI_F_ERROR'}
    return [c for c in consts if c[0] not in skip]


STATUS_SIZE = 6
INT_KINDS = {'Offset': 'MPI_OFFSET_KIND', 'Aint': 'MPI_ADDRESS_KIND', 'Count': 'MPI_COUNT_KIND'}
KINDS = [('MPI_ADDRESS_KIND', 8), ('MPI_OFFSET_KIND', 8), ('MPI_COUNT_KIND', 8),
         ('MPI_INTEGER_KIND', 4), ('MPI_STATUS_SIZE', STATUS_SIZE),
         ('MPI_SOURCE', 1), ('MPI_TAG', 2), ('MPI_ERROR', 3)]
# sentinels: Fortran name, C object of mpif.h / use mpi (a common block), of mpi_f08, shape
SENTINELS = [('MPI_BOTTOM', 'rdmx_f_bottom', ''), ('MPI_IN_PLACE', 'rdmx_f_in_place', ''),
             ('MPI_STATUS_IGNORE', 'rdmx_f_status_ignore', '(MPI_STATUS_SIZE)'),
             ('MPI_STATUSES_IGNORE', 'rdmx_f_statuses_ignore', '(MPI_STATUS_SIZE,1)'),
             ('MPI_UNWEIGHTED', 'rdmx_f_unweighted', '(1)'),
             ('MPI_ERRCODES_IGNORE', 'rdmx_f_errcodes_ignore', '(1)'),
             ('MPI_ARGV_NULL', 'rdmx_f_argv_null', '(1)'),
             ('MPI_ARGVS_NULL', 'rdmx_f_argvs_null', '(1,1)'),
             ('MPI_WEIGHTS_EMPTY', 'rdmx_f_weights_empty', '(1)'),
             ('MPI_BUFFER_AUTOMATIC', 'rdmx_f_buffer_automatic', '')]


def f77_constants(consts, subarrays):
    """Declarations valid in fixed and free form (columns 7-72, no continuation).
    subarrays: whether array sections reach the library as they are (use mpi's
    descriptors), not as the compiler's copies (mpif.h's implicit interfaces)."""
    out = ['      LOGICAL MPI_SUBARRAYS_SUPPORTED',
           '      PARAMETER (MPI_SUBARRAYS_SUPPORTED=.%s.)' % ('TRUE' if subarrays else 'FALSE'),
           '      LOGICAL MPI_ASYNC_PROTECTS_NONBLOCKING',
           '      PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)']
    for name, val in KINDS:
        out += ['      INTEGER %s' % name, '      PARAMETER (%s=%d)' % (name, val)]
    for name, val, h in consts:
        t = 'INTEGER(KIND=%s)' % h[5:] if h and h.startswith('kind:') else 'INTEGER'
        out += ['      %s %s' % (t, name), '      PARAMETER (%s=%d)' % (name, val)]
    for name, obj, shape in SENTINELS:
        t = 'CHARACTER*1' if 'ARGV' in name else 'INTEGER'
        out += ['      %s %s%s' % (t, name, shape), '      COMMON /%s/ %s' % (obj, name)]
    out += ['      EXTERNAL %s' % name for name, _ in PREDEFINED_PROCS]
    return out


def f77_functions(funcs):
    out = []
    for f in funcs:
        if f.skip or f.ret == 'int':
            continue
        t = 'DOUBLE PRECISION' if f.ret == 'double' else 'INTEGER(KIND=MPI_ADDRESS_KIND)'
        for p in ('MPI_', 'PMPI_'):
            out += ['      %s %s%s' % (t, p, f.name.upper()), '      EXTERNAL %s%s' % (p, f.name.upper())]
    return out


def gen_mpif(consts, funcs):
    head = ['! Generated by src/fortran/gen_bindings.py from include/mpi.h: do not edit.',
            '! rdmx: Fortran 77 interface (include \'mpif.h\'), fixed or free form.']
    return '\n'.join(head + f77_constants(consts, False) + f77_functions(funcs) +
                     fortran_only_interface()) + '\n'


# ---------------------------------------------------------------- Fortran modules

def f_decl(f, a, style):
    """Declaration of one dummy argument; style is 'mpi' or 'f08'."""
    k, n = a.kind, a.name
    inout = 'INTENT(IN)' if (a.const or not (a.ptr or a.array) or n == 'extra_state') \
        else 'INTENT(INOUT)'
    h = 'TYPE(%s)' % ('MPI_' + a.ctype[4:]) if style == 'f08' else 'INTEGER'
    dims = '(%s*)' % ''.join(d + ',' for d in a.inner) if a.array else ''
    if k.startswith('buf'):
        asyn = ', ASYNCHRONOUS' if style == 'f08' and re.match(r'(I|R|Start|.*_init)', f.name) else ''
        return 'TYPE(*), DIMENSION(..)%s, %s :: %s' % (asyn, 'INTENT(IN)' if k == 'buf_in' else 'INTENT(INOUT)', n)
    if k.startswith('handle'):
        return '%s, %s :: %s%s' % (h, inout, n, dims)
    if k.startswith('logical'):
        return 'LOGICAL, %s :: %s%s' % (inout, n, dims)
    if k.startswith('int') or k == 'weights' or k.startswith('strlen'):
        return 'INTEGER, %s :: %s%s' % (inout, n, dims)
    if k.split('_')[0] in ('aint', 'count', 'offset'):
        kind = {'aint': 'MPI_ADDRESS_KIND', 'count': 'MPI_COUNT_KIND', 'offset': 'MPI_OFFSET_KIND'}
        return 'INTEGER(KIND=%s), %s :: %s%s' % (kind[k.split('_')[0]], inout, n, dims)
    if k in ('str_in', 'str_out'):
        return 'CHARACTER(LEN=*), %s :: %s' % ('INTENT(IN)' if k == 'str_in' else 'INTENT(OUT)', n)
    if k == 'str_array':  # blank-padded strings (argv: up to the first blank one)
        return 'CHARACTER(LEN=*), INTENT(IN) :: %s(*)' % n
    if k == 'str_table':  # array_of_argv(count, *): the arguments of each command by row
        return 'CHARACTER(LEN=*), INTENT(IN) :: %s(count, *)' % n
    if k in ('status', 'status_inout', 'status_in'):
        it = 'INTENT(IN)' if k == 'status_in' else 'INTENT(INOUT)'
        return ('TYPE(MPI_Status), %s :: %s' if style == 'f08' else
                'INTEGER, %s :: %s(MPI_STATUS_SIZE)') % (it, n)
    if k == 'statuses':
        return ('TYPE(MPI_Status), INTENT(INOUT) :: %s(*)' if style == 'f08' else
                'INTEGER, INTENT(INOUT) :: %s(MPI_STATUS_SIZE,*)') % n
    if k in ('proc', 'callback'):  # the Fortran interfaces have the C types' names
        return ('PROCEDURE(%s) :: %s' % (a.ctype, n)) if style == 'f08' else 'EXTERNAL :: %s' % n
    if k == 'addr_out':
        return ('TYPE(C_PTR), INTENT(OUT) :: %s' if style == 'f08' else
                'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(OUT) :: %s') % n
    if k == 'attr_in':
        return 'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(IN) :: %s' % n
    if k == 'attr_out':
        return 'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(OUT) :: %s' % n
    if k == 'attr_in_int':
        return 'INTEGER, INTENT(IN) :: %s' % n
    if k == 'attr_out_int':
        return 'INTEGER, INTENT(OUT) :: %s' % n
    raise SystemExit('gen_bindings: no Fortran form for kind ' + k)


def wrap(line, indent):
    """Free-form continuation at 100 columns."""
    out, cur = [], indent + line
    while len(cur) > 100:
        cut = cur.rfind(', ', 0, 96) + 2
        out.append(cur[:cut] + '&')
        cur = indent + '    ' + cur[cut:]
    return out + [cur]


def f_interface(f, style, prefix, specific, large=False):
    names = [a.name for a in f.fargs()]
    bind = ''
    if f.has_buffers():
        bind = ' BIND(C, name="%s_%s_cdesc")' % (prefix.lower(), f.name.lower())
    if f.ret == 'int':
        head = 'SUBROUTINE %s(%s)%s' % (specific, ', '.join(names + ['ierror']), bind)
    else:
        head = 'FUNCTION %s(%s) RESULT(r)%s' % (specific, ', '.join(names), bind)
    out = wrap(head, '    ')
    out.append('      IMPORT')
    out.append('      IMPLICIT NONE')
    for a in f.fargs():
        out += wrap(f_decl(f, a, style), '      ')
    if f.ret == 'int':
        out.append('      INTEGER, %sINTENT(OUT) :: ierror' % ('OPTIONAL, ' if style == 'f08' else ''))
        out.append('    END SUBROUTINE')
    else:
        out.append('      %s :: r' % ('DOUBLE PRECISION' if f.ret == 'double'
                                       else 'INTEGER(KIND=MPI_ADDRESS_KIND)'))
        out.append('    END FUNCTION')
    return out


SIZEOF_TYPES = [('INTEGER', k) for k in (1, 2, 4, 8, 16)] + [('REAL', k) for k in (4, 8, 10, 16)] + \
    [('COMPLEX', k) for k in (4, 8, 10, 16)] + [('LOGICAL', k) for k in (1, 2, 4, 8, 16)] + \
    [('CHARACTER', 1), ('CHARACTER', 4)]


def sizeof_decl(t, k):
    return 'CHARACTER(KIND=%d,LEN=*)' % k if t == 'CHARACTER' else '%s(KIND=%d)' % (t, k)


def fortran_only_interface():
    """MPI_Sizeof (and PMPI_Sizeof) for mpif.h and both modules: a generic over
    one external procedure per intrinsic type and kind (fort_only.f90), any
    rank; then MPI_F_sync_reg (and PMPI_F_sync_reg), one procedure for any
    buffer. Valid in fixed and free form."""
    out = ['      INTERFACE MPI_SIZEOF']
    for t, k in SIZEOF_TYPES:
        out += ['      SUBROUTINE RX_SIZEOF_%s%d(X, SIZE, IERROR)' % (t, k),
                '      %s, DIMENSION(..), INTENT(IN) :: X' % sizeof_decl(t, k),
                '      INTEGER, INTENT(OUT) :: SIZE',
                '      INTEGER, OPTIONAL, INTENT(OUT) :: IERROR',
                '      END SUBROUTINE']
    out += ['      END INTERFACE', '      INTERFACE PMPI_SIZEOF']
    out += ['      PROCEDURE RX_SIZEOF_%s%d' % tk for tk in SIZEOF_TYPES]
    out += ['      END INTERFACE', '      INTERFACE MPI_F_SYNC_REG',
            '      SUBROUTINE RX_F_SYNC_REG(BUF)',
            '      TYPE(*), DIMENSION(..), ASYNCHRONOUS :: BUF',
            '      END SUBROUTINE',
            '      END INTERFACE', '      INTERFACE PMPI_F_SYNC_REG',
            '      PROCEDURE RX_F_SYNC_REG']
    return out + ['      END INTERFACE']


def gen_fortran_only_impl():
    out = ['! Generated by src/fortran/gen_bindings.py: do not edit.',
           '! The Fortran-only calls: the specific procedures of MPI_Sizeof (the size in',
           '! bytes of one element) and MPI_F_sync_reg.']
    for t, k in SIZEOF_TYPES:
        out += ['SUBROUTINE RX_SIZEOF_%s%d(x, size, ierror)' % (t, k),
                '  IMPLICIT NONE',
                '  %s, DIMENSION(..), INTENT(IN) :: x' % sizeof_decl(t, k),
                '  INTEGER, INTENT(OUT) :: size',
                '  INTEGER, OPTIONAL, INTENT(OUT) :: ierror',
                '  size = STORAGE_SIZE(x) / 8',
                '  IF (PRESENT(ierror)) ierror = 0',
                'END SUBROUTINE']
    # MPI_F_sync_reg does nothing: that the compiler cannot see into the call
    # (another file) makes it assume buf is read and written there, so values
    # kept in registers are stored before the call and loaded after it
    out += ['SUBROUTINE RX_F_SYNC_REG(buf)', '  IMPLICIT NONE',
            '  TYPE(*), DIMENSION(..), ASYNCHRONOUS :: buf', 'END SUBROUTINE']
    return '\n'.join(out) + '\n'


def callback_interfaces():
    """The abstract interfaces of mpi_f08's callback types (CALLBACKS)."""
    out = ['  ABSTRACT INTERFACE']
    for name, args, h, ierror in CALLBACKS:
        if isinstance(args, str):
            args = CALLBACK_ARGS[args]
        obj = {'Type': 'datatype'}.get(h, h and h.lower())
        names = [n if n not in ('oldobj', 'obj') else ('old' if n == 'oldobj' else '') + str(obj)
                 for n, _ in args] + (['ierror'] if ierror else [])
        out += wrap('SUBROUTINE %s(%s)' % (name, ', '.join(names)), '    ')
        out += ['      IMPORT', '      IMPLICIT NONE']
        htype = 'TYPE(MPI_%s)' % {'Type': 'Datatype'}.get(h, h)
        for n, (_, t) in zip(names, args):
            t = {'H': htype, 'AINT': 'INTEGER(KIND=MPI_ADDRESS_KIND)'}.get(t, t)
            out.append('      %s :: %s' % (t, n))
        if ierror:
            out.append('      INTEGER :: ierror')
        out.append('    END SUBROUTINE')
    return out + ['  END INTERFACE']


def gen_mpi_module(consts, funcs):
    out = ['! Generated by src/fortran/gen_bindings.py from include/mpi.h: do not edit.',
           'MODULE mpi', '  IMPLICIT NONE']
    out += ['  ' + line.strip() for line in f77_constants(consts, True)]
    out += ['  ' + line.strip() for line in fortran_only_interface()]
    for f in funcs:
        if f.skip or f.name.endswith('_c'):
            continue
        out.append('  INTERFACE')
        for p in ('MPI', 'PMPI'):
            out += f_interface(f, 'mpi', p, '%s_%s' % (p, f.name))
        out.append('  END INTERFACE')
    out += ['END MODULE mpi', '']
    return '\n'.join(out)


def f08_signature(f):
    """What generic resolution sees of f: each argument's type, kind and rank."""
    sig = []
    for a in f.fargs():
        typ, name = [x.strip() for x in f_decl(f, a, 'f08').split('::')]
        typ = re.sub(r', *(INTENT\(\w+\)|ASYNCHRONOUS)', '', typ)
        typ = re.sub(r'PROCEDURE\(\w+\)', 'PROCEDURE', typ)  # interfaces do not tell apart
        sig.append((re.sub(r'MPI_(ADDRESS|COUNT|OFFSET)_KIND', '8', typ), name[len(a.name):]))
    return sig


def status_conversions():
    """MPI_Status_f2f08 and MPI_Status_f082f (and PMPI_) of mpi_f08: generics of
    one module procedure each, which calls the C function of its name (the
    argument checks, the ignore sentinels refused), and the interfaces of
    those C functions. As (declarations, module procedures)."""
    decls, procs = [], []
    for name, args in STATUS_CONV.items():
        names = ', '.join(n for n, _ in args)
        dummies = [(t, io, n) for (n, t), io in zip(args, ('IN', 'OUT'))]
        for p in ('MPI', 'PMPI'):
            c = 'rx_c_%s_%s' % (p.lower(), name.lower())
            decls += ['  INTERFACE %s_%s' % (p, name), '    MODULE PROCEDURE %s_%s_f08' % (p, name),
                      '  END INTERFACE', '  INTERFACE',
                      '    INTEGER(C_INT) FUNCTION %s(%s) BIND(C, name="%s_%s")' % (c, names, p, name),
                      '      IMPORT']
            decls += ['      %s, INTENT(%s) :: %s%s' % (t, io, n, '(*)' if t == 'INTEGER' else '')
                      for t, io, n in dummies]
            decls += ['    END FUNCTION', '  END INTERFACE']
            procs += ['  SUBROUTINE %s_%s_f08(%s, ierror)' % (p, name, names)]
            procs += ['    %s, INTENT(%s) :: %s%s' % (t, io, n, '(MPI_STATUS_SIZE)' if t == 'INTEGER'
                                                     else '') for t, io, n in dummies]
            procs += ['    INTEGER, OPTIONAL, INTENT(OUT) :: ierror', '    INTEGER :: rc',
                      '    rc = %s(%s)' % (c, names), '    IF (PRESENT(ierror)) ierror = rc',
                      '  END SUBROUTINE']
    return decls, procs


def gen_f08_module(consts, funcs):
    out = ['! Generated by src/fortran/gen_bindings.py from include/mpi.h: do not edit.',
           'MODULE mpi_f08', '  USE, INTRINSIC :: ISO_C_BINDING, ONLY: C_PTR, C_INT',
           '  IMPLICIT NONE', '  PRIVATE :: C_INT']
    for h in HANDLES:
        out += ['  TYPE, BIND(C) :: MPI_%s' % h, '    INTEGER(C_INT) :: MPI_VAL',
                '  END TYPE']
    out += ['  TYPE, BIND(C) :: MPI_Status',
            '    INTEGER(C_INT) :: MPI_SOURCE, MPI_TAG, MPI_ERROR',
            '    INTEGER(C_INT) :: rx_internal(%d)' % (STATUS_SIZE - 3), '  END TYPE']
    # buffers are descriptors, ASYNCHRONOUS on every nonblocking call's buffers
    out += ['  LOGICAL, PARAMETER :: MPI_SUBARRAYS_SUPPORTED = .TRUE.',
            '  LOGICAL, PARAMETER :: MPI_ASYNC_PROTECTS_NONBLOCKING = .TRUE.']
    for name, val in KINDS:
        if name not in ('MPI_SOURCE', 'MPI_TAG', 'MPI_ERROR'):
            out.append('  INTEGER, PARAMETER :: %s = %d' % (name, val))
    for name, val, h in consts:
        if h and h.startswith('kind:'):
            out.append('  INTEGER(KIND=%s), PARAMETER :: %s = %d' % (h[5:], name, val))
        elif h:
            out.append('  TYPE(MPI_%s), PARAMETER :: %s = MPI_%s(%d)' % (h, name, h, val))
        else:
            out.append('  INTEGER, PARAMETER :: %s = %d' % (name, val))
    # the f08 sentinels are C objects (src/fortran/fort_sentinel.c) whose addresses mark them
    for name, obj, shape in SENTINELS:
        t = 'TYPE(MPI_Status)' if 'STATUS' in name else \
            'CHARACTER(LEN=1)' if 'ARGV' in name else 'INTEGER(C_INT)'
        shape = {'(MPI_STATUS_SIZE)': '', '(MPI_STATUS_SIZE,1)': '(1)'}.get(shape, shape)
        out.append('  %s, BIND(C, name="%s_f08") :: %s%s' % (t, obj, name, shape))
    out += callback_interfaces()
    out += ['  PROCEDURE(%s) :: %s' % (iface, name) for name, iface in PREDEFINED_PROCS]
    out += ['  ' + line.strip() for line in fortran_only_interface()]
    eq = ['rx_%s_eq' % h.lower() for h in HANDLES]
    ne = ['rx_%s_ne' % h.lower() for h in HANDLES]
    for op, procs in (('==', eq), ('/=', ne)):
        out += ['  INTERFACE OPERATOR(%s)' % op] + ['    MODULE PROCEDURE ' + p for p in procs] + \
            ['  END INTERFACE']
    by_name = {f.name: f for f in funcs if not f.skip}
    for f in funcs:
        if f.skip:
            continue
        # a large-count form joins its call's generic unless the two cannot be told
        # apart (MPI_Aint and MPI_Count are both 8 bytes: MPI_Type_get_extent_c)
        base = by_name.get(f.name[:-2]) if f.name.endswith('_c') else None
        large = base is not None and f08_signature(base) != f08_signature(f)
        generic = f.name[:-2] if large else f.name
        for p in ('MPI', 'PMPI'):
            specific = '%s_%s_f08%s' % (p, generic, 'c' if large else '')
            out.append('  INTERFACE %s_%s' % (p, generic))
            out += f_interface(f, 'f08', p, specific)
            out.append('  END INTERFACE')
    decls, procs = status_conversions()
    out += decls + ['CONTAINS'] + procs
    for h in HANDLES:
        for op, fn in (('==', 'eq'), ('/=', 'ne')):
            out += ['  ELEMENTAL LOGICAL FUNCTION rx_%s_%s(a, b)' % (h.lower(), fn),
                    '    TYPE(MPI_%s), INTENT(IN) :: a, b' % h,
                    '    rx_%s_%s = a%%MPI_VAL %s b%%MPI_VAL' % (h.lower(), fn, op),
                    '  END FUNCTION']
    out += ['END MODULE mpi_f08', '']
    return '\n'.join(out)


def load(mpi_h):
    """The calls of mpi_h as the C compiler sees them, and the raw text of it
    and of the headers it includes from its own directory (for the #defines)."""
    cc = os.environ.get('CC', 'cc')
    pre = subprocess.run([cc, '-E', '-P', '-I', os.path.dirname(mpi_h) or '.', mpi_h],
                         check=True, capture_output=True, text=True).stdout
    funcs = parse_header(pre)
    for f in funcs:
        classify(f)
    with open(mpi_h) as fh:
        text = fh.read()
    for inc in re.findall(r'#include "(\w+\.h)"', text):
        with open(os.path.join(os.path.dirname(mpi_h), inc)) as fh:
            text += fh.read()
    return text, funcs


def main(argv):
    if len(argv) == 3 and argv[1] in ('--list-skipped', '--check'):
        funcs = load(argv[2])[1]
        left = [f for f in funcs if f.skip and f.name not in STATUS_CONV]
        unknown = [f for f in left if f.name not in SKIPPED and
                   not f.name.endswith(('_c2f', '_f2c')) and not f.name.startswith('T_')]
        for f in left if argv[1] == '--list-skipped' else unknown:
            print('%s: %s' % (f.name, f.skip))
        if argv[1] == '--check':
            print('%d calls bound, %d left out as C only, %d left out unexpectedly'
                  % (len(funcs) - len(left), len(left) - len(unknown), len(unknown)))
        return 1 if unknown and argv[1] == '--check' else 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    text, funcs = load(argv[1])
    consts = parse_constants(text)
    os.makedirs(argv[2], exist_ok=True)
    outputs = {'fort_gen.c': gen_c(funcs), 'mpif.h': gen_mpif(consts, funcs),
               'mpi.f90': gen_mpi_module(consts, funcs), 'mpi_f08.f90': gen_f08_module(consts, funcs),
               'fort_only.f90': gen_fortran_only_impl()}
    for name, content in outputs.items():
        path = os.path.join(argv[2], name)
        old = open(path).read() if os.path.exists(path) else None
        if old != content:  # unchanged outputs keep their time: nothing rebuilds
            with open(path, 'w') as fh:
                fh.write(content)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
