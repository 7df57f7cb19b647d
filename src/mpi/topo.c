/* SPDX-License-Identifier: MIT
 * Process topologies: Dims_create, Cartesian communicators, distributed
 * graphs, Topo_test. A topology is an rx_topo_t hung on the communicator
 * (src/coll/neighbor.h); the neighbourhood collectives read its lists.
 * Reordering (reorder = 1 of MPI_Cart_create and MPI_Graph_create, and
 * MPI_Cart_map / MPI_Graph_map): when the ranks sit on more than one node,
 * positions are dealt node by node so that neighbours share a node
 * (topo_map.h), kept only where that cuts fewer edges between nodes than
 * the ranks' own order. Distributed graphs do the same with the graph
 * every rank's lists make (rx_dist_reorder). */
#include "mpi_impl.h"
#include "coll/neighbor.h"
#include "info_impl.h"
#include "topo_map.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)MPI_GRAPH == RX_TOPO_GRAPH && (int)MPI_CART == RX_TOPO_CART &&
                   (int)MPI_DIST_GRAPH == RX_TOPO_DIST_GRAPH,
               "the topology kinds below the binding are the MPI constants");

#define RX_MAXDIMS 64

/* Whether the first n ranks of c sit on one node. */
static int rx_topo_one_node(const rx_comm_t *c, int n)
{
    for (int i = 1; i < n; i++)
        if (rx_rt.node_of[c->group->world[i]] != rx_rt.node_of[c->group->world[0]])
            return 0;
    return 1;
}

int rx_topo_map_rank(const rx_comm_t *c, int n, int ndims, const int *dims, const int *periods,
                     const int *index, const int *edges, int *rank)
{
    *rank = c->rank < n ? c->rank : -1;
    if (*rank < 0 || rx_topo_one_node(c, n))
        return 0;
    /* each node named by its lowest rank here: the same at every rank,
     * whatever node indices a process holds for peers of another job */
    int top = 0;
    for (int i = 0; i < n; i++)
        top = rx_rt.node_of[c->group->world[i]] > top ? rx_rt.node_of[c->group->world[i]] : top;
    int *node = malloc(sizeof(int) * (2 * (size_t)n + (size_t)top + 1)), *newrank = node + n;
    if (!node)
        return RX_ERR_NOMEM;
    int *first = newrank + n;
    for (int v = 0; v <= top; v++)
        first[v] = -1;
    for (int i = 0; i < n; i++) {
        int *f = &first[rx_rt.node_of[c->group->world[i]]];
        node[i] = *f < 0 ? (*f = i) : *f;
    }
    int rc = index ? rx_map_graph(n, node, index, edges, newrank)
                   : rx_map_cart(n, node, ndims, dims, periods, newrank);
    if (rc >= 0)
        *rank = newrank[c->rank];
    free(node);
    return rc;
}

static rx_topo_t *rx_topo_of(rx_comm_t *c, int kind)
{
    return c->topo_kind == kind ? c->topo : NULL;
}

#define RX_GET_CART(t, c, fn)                                                           \
    rx_topo_t *t = rx_topo_of(c, MPI_CART);                                             \
    if (!t)                                                                             \
        return rx_mpi_err(c, MPI_ERR_TOPOLOGY, fn, "communicator has no Cartesian topology")

/* Dims_create: the split of n into k non-increasing factors with the
 * smallest spread (max - min), ties to the smallest sum, then to the larger
 * leading factors: the choice MPICH makes, so grids match between the two.
 * The search walks the divisors of n only. The leading factor is tried from
 * the smallest possible (n^(1/k)) up; once a split is known, every other
 * factor of a branch must lie within its spread of the leading one, which
 * cuts all but a few branches. With at least as many dimensions as n has
 * prime factors (with multiplicity) no search is needed: the primes
 * themselves, largest first, then ones, have the smallest possible maximum
 * and, as a + b <= a b for factors of 2 and more, the smallest sum. No
 * 31-bit number has more than 1,600 divisors; the search takes
 * microseconds. */
typedef struct rx_dims {
    const int *div, *primes; /* divisors ascending; distinct primes of n */
    int ndiv, nprimes, k, found;
    long long best_spread, best_sum;
    int cur[RX_MAXDIMS], best[RX_MAXDIMS];
} rx_dims_t;

/* Largest x with x^r <= m (up = 0) or smallest x with x^r >= m (up = 1). */
static int rx_iroot(long long m, int r, int up)
{
    int lo = 1, hi = m < 46341 ? (int)m : 46341;
    if (r == 1)
        return (int)m;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        long long p = 1;
        for (int i = 0; i < r && p <= m; i++)
            p *= mid;
        if (p <= m)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (up) {
        long long p = 1;
        for (int i = 0; i < r && p < m; i++)
            p *= lo;
        if (p < m)
            lo++;
    }
    return lo;
}

static int rx_dims_lex_greater(const int *a, const int *b, int k)
{
    for (int i = 0; i < k; i++)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 0;
}

static void rx_dims_offer(rx_dims_t *s, long long sum)
{
    long long spread = s->cur[0] - s->cur[s->k - 1];
    int better = !s->found || spread < s->best_spread ||
                 (spread == s->best_spread && sum < s->best_sum);
    if (!better && spread == s->best_spread && sum == s->best_sum)
        better = rx_dims_lex_greater(s->cur, s->best, s->k);
    if (better) {
        s->found = 1;
        s->best_spread = spread;
        s->best_sum = sum;
        memcpy(s->best, s->cur, sizeof(int) * (size_t)s->k);
    }
}

/* The smallest sum of r factors with product m: its prime factors each
 * alone (a + b <= a b), ones for the rest. Fewer factors only add. */
static long long rx_dims_min_sum(const rx_dims_t *s, int m, int r)
{
    long long sum = 0;
    int count = 0;
    for (int i = 0; i < s->nprimes && m > 1; i++)
        while (m % s->primes[i] == 0) {
            m /= s->primes[i];
            sum += s->primes[i];
            count++;
        }
    return sum + (count < r ? r - count : 0);
}

/* Factors depth.. of the split: r of them with product m, each <= maxf. */
static void rx_dims_search(rx_dims_t *s, int m, int r, int maxf, int depth, long long sum)
{
    if (r == 1) {
        if (m <= maxf && (depth == 0 || !s->found || s->cur[0] - m <= s->best_spread)) {
            s->cur[depth] = m;
            rx_dims_offer(s, sum + m);
        }
        return;
    }
    int lo = rx_iroot(m, r, 1); /* the largest of r factors of m is at least this */
    if (depth == 0) {
        for (int i = 0; i < s->ndiv; i++) {
            int d = s->div[i];
            if (d < lo)
                continue;
            if (s->found && d - rx_iroot(m / d, r - 1, 0) > s->best_spread)
                break; /* larger leading factors only spread wider */
            s->cur[0] = d;
            rx_dims_search(s, m / d, r - 1, d, 1, d);
        }
        return;
    }
    /* every factor left must stay within the best spread of the leading one */
    long long floor_f = s->found ? s->cur[0] - s->best_spread : 1;
    if (floor_f < 1)
        floor_f = 1;
    for (int i = s->ndiv - 1; i >= 0 && s->div[i] >= lo; i--) {
        int d = s->div[i];
        if (d > maxf || d > m || m % d)
            continue;
        if (d < floor_f)
            break;
        long long p = 1; /* the rest must be reachable with factors >= floor_f */
        for (int j = 1; j < r && p <= m / d; j++)
            p *= floor_f;
        if (p > m / d)
            continue;
        /* a branch that can at best tie the spread is decided by the sum */
        int rest_min = rx_iroot(m / d, r - 1, 0);
        if (s->found && s->cur[0] - (rest_min < d ? rest_min : d) >= s->best_spread &&
            sum + d + rx_dims_min_sum(s, m / d, r - 1) > s->best_sum)
            continue;
        s->cur[depth] = d;
        rx_dims_search(s, m / d, r - 1, d, depth + 1, sum + d);
    }
}

/* Splits n (>= 1) into k (1..RX_MAXDIMS) factors into out. */
static void rx_dims_split(int n, int k, int *out)
{
    int primes[32], omega = 0; /* a 31-bit number has at most 30 prime factors */
    for (int m = n, p = 2; m > 1; p++) {
        if ((long long)p * p > m) {
            primes[omega++] = m;
            break;
        }
        while (m % p == 0) {
            m /= p;
            primes[omega++] = p;
        }
    }
    for (int i = 0; i < k; i++)
        out[i] = i < omega ? primes[omega - 1 - i] : 1;
    if (k >= omega)
        return;
    int div[1600], distinct[32], nd = 0;
    for (int i = 0; i < omega; i++)
        if (!nd || distinct[nd - 1] != primes[i])
            distinct[nd++] = primes[i];
    rx_dims_t s = {.div = div, .primes = distinct, .nprimes = nd, .k = k};
    int nlow = 0;
    for (int f = 1; (long long)f * f <= n; f++)
        if (n % f == 0)
            div[nlow++] = f;
    s.ndiv = nlow;
    for (int i = nlow - 1; i >= 0; i--)
        if (n / div[i] != div[i])
            div[s.ndiv++] = n / div[i];
    rx_dims_search(&s, n, k, n, 0, 0);
    memcpy(out, s.best, sizeof(int) * (size_t)k);
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    const char *fn = "MPI_Dims_create";
    RX_CHECK_INIT(fn);
    if (nnodes < 1)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "nnodes %d is not positive", nnodes);
    if (ndims < 0 || ndims > RX_MAXDIMS)
        return rx_mpi_err(NULL, MPI_ERR_DIMS, fn, "ndims %d outside 0..%d", ndims, RX_MAXDIMS);
    if (ndims > 0 && !dims)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "dims is NULL");
    long long fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return rx_mpi_err(NULL, MPI_ERR_DIMS, fn, "dims[%d] = %d is negative", i, dims[i]);
        if (dims[i] > 0)
            fixed = fixed * dims[i] > nnodes ? (long long)nnodes + 1 : fixed * dims[i];
        else
            free_dims++;
    }
    if (nnodes % fixed)
        return rx_mpi_err(NULL, MPI_ERR_DIMS, fn, "%d nodes cannot be divided by the product "
                          "of the set dimensions", nnodes);
    if (!free_dims) {
        if (fixed != nnodes)
            return rx_mpi_err(NULL, MPI_ERR_DIMS, fn, "the dimensions give %lld nodes, not %d",
                              fixed, nnodes);
        return MPI_SUCCESS;
    }
    int best[RX_MAXDIMS];
    rx_dims_split((int)(nnodes / fixed), free_dims, best);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = best[j++];
    return MPI_SUCCESS;
}
RX_ALIAS(Dims_create)

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    const char *fn = "MPI_Cart_create";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm_old, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    if (!comm_cart)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "comm_cart is NULL");
    if (ndims < 0 || ndims > RX_MAXDIMS)
        return rx_mpi_err(c, MPI_ERR_DIMS, fn, "ndims %d outside 0..%d", ndims, RX_MAXDIMS);
    if (ndims > 0 && (!dims || !periods))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "dims or periods is NULL");
    long long n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return rx_mpi_err(c, MPI_ERR_DIMS, fn, "dims[%d] = %d is not positive", i, dims[i]);
        n *= dims[i];
        if (n > c->size)
            break;
    }
    if (n > c->size)
        return rx_mpi_err(c, MPI_ERR_DIMS, fn, "the grid has more than the %d ranks of the "
                          "communicator", c->size);
    int key = c->rank;
    if (reorder && rx_topo_map_rank(c, (int)n, ndims, dims, periods, NULL, NULL, &key) < 0)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    int rc = PMPI_Comm_split(comm_old, c->rank < n ? 0 : MPI_UNDEFINED, key, comm_cart);
    if (rc != MPI_SUCCESS || *comm_cart == MPI_COMM_NULL)
        return rc;
    rx_comm_t *nc = rx_comm_get(*comm_cart);
    rx_topo_t *t = rx_topo_new(MPI_CART, ndims, 2 * ndims, 2 * ndims);
    if (!t) {
        PMPI_Comm_free(comm_cart);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    for (int i = 0; i < ndims; i++) {
        t->dims[i] = dims[i];
        t->periods[i] = periods[i] != 0;
    }
    rx_cart_neighbors(t, nc->rank);
    nc->topo = t;
    nc->topo_kind = MPI_CART;
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_create)

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    RX_CHECK_INIT("MPI_Cartdim_get");
    RX_GET_COMM(c, comm, "MPI_Cartdim_get");
    RX_GET_CART(t, c, "MPI_Cartdim_get");
    if (!ndims)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
    *ndims = t->ndims;
    return MPI_SUCCESS;
}
RX_ALIAS(Cartdim_get)

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    const char *fn = "MPI_Cart_get";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_CART(t, c, fn);
    int n = maxdims < t->ndims ? maxdims : t->ndims;
    if (n > 0 && (!dims || !periods || !coords))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL array argument");
    for (int i = 0; i < n; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = t->coords[i];
    }
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_get)

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    const char *fn = "MPI_Cart_rank";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_CART(t, c, fn);
    if (!rank || (t->ndims > 0 && !coords))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL argument");
    int r = rx_cart_rank(t, coords);
    if (r < 0)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "coordinates outside a non-periodic dimension");
    *rank = r;
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_rank)

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    const char *fn = "MPI_Cart_coords";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_CART(t, c, fn);
    if (rank < 0 || rank >= c->size)
        return rx_mpi_err(c, MPI_ERR_RANK, fn, "invalid rank %d", rank);
    if (maxdims < t->ndims)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "maxdims %d < %d dimensions", maxdims, t->ndims);
    if (t->ndims > 0 && !coords)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "coords is NULL");
    rx_cart_coords(t, rank, coords);
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_coords)

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    const char *fn = "MPI_Cart_shift";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_CART(t, c, fn);
    if (direction < 0 || direction >= t->ndims)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "direction %d outside 0..%d", direction,
                          t->ndims - 1);
    if (!rank_source || !rank_dest)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL argument");
    int x[RX_MAXDIMS];
    memcpy(x, t->coords, sizeof(int) * (size_t)t->ndims);
    x[direction] = t->coords[direction] + disp;
    int r = rx_cart_rank(t, x);
    *rank_dest = r < 0 ? MPI_PROC_NULL : r;
    x[direction] = t->coords[direction] - disp;
    r = rx_cart_rank(t, x);
    *rank_source = r < 0 ? MPI_PROC_NULL : r;
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_shift)

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    const char *fn = "MPI_Cart_sub";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_CART(t, c, fn);
    if (!newcomm || (t->ndims > 0 && !remain_dims))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL argument");
    /* ranks agreeing on the dropped coordinates form one sub-grid */
    int color = 0, key = 0, nd = 0;
    int dims[RX_MAXDIMS], periods[RX_MAXDIMS];
    for (int d = 0; d < t->ndims; d++) {
        if (remain_dims[d]) {
            key = key * t->dims[d] + t->coords[d];
            dims[nd] = t->dims[d];
            periods[nd++] = t->periods[d];
        } else {
            color = color * t->dims[d] + t->coords[d];
        }
    }
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_comm_t *nc = rx_comm_get(*newcomm);
    rx_topo_t *s = rx_topo_new(MPI_CART, nd, 2 * nd, 2 * nd);
    if (!s) {
        PMPI_Comm_free(newcomm);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    memcpy(s->dims, dims, sizeof(int) * (size_t)nd);
    memcpy(s->periods, periods, sizeof(int) * (size_t)nd);
    rx_cart_neighbors(s, nc->rank);
    nc->topo = s;
    nc->topo_kind = MPI_CART;
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_sub)

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    RX_CHECK_INIT("MPI_Topo_test");
    RX_GET_COMM(c, comm, "MPI_Topo_test");
    if (!status)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
    *status = c->topo_kind ? c->topo_kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
RX_ALIAS(Topo_test)

static int rx_check_ranks(rx_comm_t *c, int n, const int *r, const char *what, const char *fn)
{
    if (n > 0 && !r)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "%s is NULL", what);
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= c->size)
            return rx_mpi_err(c, MPI_ERR_RANK, fn, "%s[%d] = %d is not a rank", what, i, r[i]);
    return MPI_SUCCESS;
}

static int rx_weights_given(const int *w) { return w != MPI_UNWEIGHTED; }

/* reorder = 1 of the distributed graphs. *comm (a duplicate of comm_old)
 * and *t (this rank's lists, in its ranks) as made without reordering.
 * Where the ranks sit on more than one node, every rank gathers every
 * rank's lists ([indeg, outdeg, in, inw, out, outw]), maps the graph of the
 * out-lists onto the nodes (topo_map.h) and, when that pays, *comm becomes
 * its split by the new ranks and *t the lists of the vertex the caller now
 * is (vertex numbers are ranks of the new communicator). */
static int rx_dist_reorder(MPI_Comm *comm, rx_topo_t **t, const char *fn)
{
    rx_comm_t *c = rx_comm_get(*comm);
    int p = c->size, me = c->rank, mine = 2 + 2 * ((*t)->indeg + (*t)->outdeg);
    if (rx_topo_one_node(c, p))
        return MPI_SUCCESS;
    int *len = calloc((size_t)p, sizeof(int)), *disp = calloc((size_t)p, sizeof(int));
    int *index = calloc((size_t)p, sizeof(int)), *buf = malloc(sizeof(int) * (size_t)mine);
    int *all = NULL, *edges = NULL;
    int rc = len && disp && index && buf
                 ? PMPI_Allgather(&mine, 1, MPI_INT, len, 1, MPI_INT, *comm)
                 : MPI_ERR_NO_MEM;
    long long total = 0;
    for (int r = 0; rc == MPI_SUCCESS && r < p; total += len[r++])
        disp[r] = (int)total;
    if (rc == MPI_SUCCESS && (total > INT_MAX || !(all = malloc(sizeof(int) * (size_t)total)) ||
                              !(edges = malloc(sizeof(int) * (size_t)total))))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        const rx_topo_t *m = *t;
        buf[0] = m->indeg;
        buf[1] = m->outdeg;
        memcpy(buf + 2, m->in, sizeof(int) * (size_t)m->indeg);
        memcpy(buf + 2 + m->indeg, m->inw, sizeof(int) * (size_t)m->indeg);
        memcpy(buf + 2 + 2 * m->indeg, m->out, sizeof(int) * (size_t)m->outdeg);
        memcpy(buf + 2 + 2 * m->indeg + m->outdeg, m->outw, sizeof(int) * (size_t)m->outdeg);
        rc = PMPI_Allgatherv(buf, mine, MPI_INT, all, len, disp, MPI_INT, *comm);
    }
    int k = me, moved = 0, ne = 0;
    for (int r = 0; rc == MPI_SUCCESS && r < p; r++) {
        const int *v = all + disp[r];
        memcpy(edges + ne, v + 2 + 2 * v[0], sizeof(int) * (size_t)v[1]);
        index[r] = ne += v[1];
    }
    if (rc == MPI_SUCCESS &&
        (moved = rx_topo_map_rank(c, p, 0, NULL, NULL, index, edges, &k)) < 0)
        rc = MPI_ERR_NO_MEM;
    MPI_Comm nc = MPI_COMM_NULL;
    rx_topo_t *nt = NULL;
    const int *v = NULL;
    if (rc == MPI_SUCCESS && moved && (rc = PMPI_Comm_split(*comm, 0, k, &nc)) == MPI_SUCCESS) {
        v = all + disp[rx_comm_get(nc)->rank]; /* the lists of the rank taken: k */
        if (!(nt = rx_topo_new(MPI_DIST_GRAPH, 0, v[0], v[1]))) {
            PMPI_Comm_free(&nc);
            rc = MPI_ERR_NO_MEM;
        }
    }
    if (nt) {
        memcpy(nt->in, v + 2, sizeof(int) * (size_t)v[0]);
        memcpy(nt->inw, v + 2 + v[0], sizeof(int) * (size_t)v[0]);
        memcpy(nt->out, v + 2 + 2 * v[0], sizeof(int) * (size_t)v[1]);
        memcpy(nt->outw, v + 2 + 2 * v[0] + v[1], sizeof(int) * (size_t)v[1]);
        nt->weighted = (*t)->weighted;
        free(*t);
        *t = nt;
        PMPI_Comm_free(comm);
        *comm = nc;
    }
    free(len);
    free(disp);
    free(index);
    free(buf);
    free(all);
    free(edges);
    return rc == MPI_ERR_NO_MEM ? rx_mpi_err(c, rc, fn, "out of memory") : rc;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int *sourceweights, int outdegree,
                                    const int destinations[], const int *destweights,
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    const char *fn = "MPI_Dist_graph_create_adjacent";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm_old, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    rx_info_t *hints; /* checked, not interpreted: no keys apply */
    if (rx_info_arg(c, info, &hints, fn) != MPI_SUCCESS)
        return MPI_ERR_INFO;
    if (!comm_dist_graph)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "comm_dist_graph is NULL");
    if (indegree < 0 || outdegree < 0)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "negative degree");
    int rc = rx_check_ranks(c, indegree, sources, "sources", fn);
    if (rc == MPI_SUCCESS)
        rc = rx_check_ranks(c, outdegree, destinations, "destinations", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int weighted = rx_weights_given(sourceweights) && rx_weights_given(destweights);
    rx_topo_t *t = rx_topo_new(MPI_DIST_GRAPH, 0, indegree, outdegree);
    if (!t)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < indegree; i++) {
        t->in[i] = sources[i];
        t->inw[i] = weighted && sourceweights != MPI_WEIGHTS_EMPTY ? sourceweights[i] : 1;
    }
    for (int i = 0; i < outdegree; i++) {
        t->out[i] = destinations[i];
        t->outw[i] = weighted && destweights != MPI_WEIGHTS_EMPTY ? destweights[i] : 1;
    }
    t->weighted = weighted;
    if ((rc = PMPI_Comm_dup(comm_old, comm_dist_graph)) != MPI_SUCCESS) {
        free(t);
        return rc;
    }
    if (reorder && (rc = rx_dist_reorder(comm_dist_graph, &t, fn)) != MPI_SUCCESS) {
        free(t);
        PMPI_Comm_free(comm_dist_graph);
        return rc;
    }
    rx_comm_t *nc = rx_comm_get(*comm_dist_graph);
    free(nc->topo); /* a topology the duplicate inherited */
    nc->topo = t;
    nc->topo_kind = MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}
RX_ALIAS(Dist_graph_create_adjacent)

/* Every edge goes to both of its ends as (src, dst, weight); each rank then
 * reads its in- and out-lists off the messages in rank order. */
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int *weights, MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
    const char *fn = "MPI_Dist_graph_create";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm_old, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    rx_info_t *hints;
    if (rx_info_arg(c, info, &hints, fn) != MPI_SUCCESS)
        return MPI_ERR_INFO;
    if (!comm_dist_graph || n < 0 || (n > 0 && (!sources || !degrees)))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "invalid argument (n %d)", n);
    int rc = rx_check_ranks(c, n, sources, "sources", fn), nedge = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        if (degrees[i] < 0)
            rc = rx_mpi_err(c, MPI_ERR_ARG, fn, "degrees[%d] is negative", i);
        nedge += degrees[i];
    }
    if (rc == MPI_SUCCESS)
        rc = rx_check_ranks(c, nedge, destinations, "destinations", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int weighted = rx_weights_given(weights);
    if ((rc = PMPI_Comm_dup(comm_old, comm_dist_graph)) != MPI_SUCCESS)
        return rc;
    rx_comm_t *nc = rx_comm_get(*comm_dist_graph);
    int p = nc->size;
    int *cnt = calloc((size_t)p * 2, sizeof(int)), *rcnt = cnt + p;
    int *fill = calloc((size_t)p, sizeof(int));
    int *sbuf = malloc(sizeof(int) * 3 * (size_t)(2 * nedge + 1));
    int *sdisp = malloc(sizeof(int) * ((size_t)p + 1));
    rx_nbr_xfer_t *x = malloc(sizeof *x * 2 * (size_t)p);
    int *rbuf = NULL;
    rc = cnt && fill && sbuf && sdisp && x ? RX_OK : RX_ERR_NOMEM;
    for (int i = 0, e = 0; rc == RX_OK && i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            cnt[sources[i]]++;
            if (destinations[e] != sources[i])
                cnt[destinations[e]]++;
        }
    if (rc == RX_OK) {
        sdisp[0] = 0;
        for (int r = 0; r < p; r++)
            sdisp[r + 1] = sdisp[r] + cnt[r];
        for (int i = 0, e = 0; i < n; i++)
            for (int k = 0; k < degrees[i]; k++, e++) {
                int trip[3] = {sources[i], destinations[e], weighted && weights != MPI_WEIGHTS_EMPTY
                                                                ? weights[e] : 1};
                int ends[2] = {sources[i], destinations[e]};
                for (int j = 0; j < (ends[0] == ends[1] ? 1 : 2); j++) {
                    int r = ends[j];
                    memcpy(sbuf + 3 * (sdisp[r] + fill[r]++), trip, sizeof trip);
                }
            }
        /* edge counts, then the edges */
        const rx_dtype_t *dint = rx_dtype_get(MPI_INT);
        int tag = rx_coll_tag(nc);
        for (int r = 0; r < p; r++) {
            x[2 * r] = (rx_nbr_xfer_t){0, r, tag, &rcnt[r], 1, dint};
            x[2 * r + 1] = (rx_nbr_xfer_t){1, r, tag, &cnt[r], 1, dint};
        }
        rc = rx_nbr_run(nc, x, 2 * p, NULL);
    }
    int total = 0;
    for (int r = 0; rc == RX_OK && r < p; r++)
        total += rcnt[r];
    if (rc == RX_OK && !(rbuf = malloc(sizeof(int) * 3 * (size_t)(total + 1))))
        rc = RX_ERR_NOMEM;
    if (rc == RX_OK) {
        const rx_dtype_t *dint = rx_dtype_get(MPI_INT);
        int tag = rx_coll_tag(nc);
        for (int r = 0, off = 0; r < p; r++) {
            x[2 * r] = (rx_nbr_xfer_t){0, r, tag, rbuf + 3 * off, 3 * (size_t)rcnt[r], dint};
            x[2 * r + 1] = (rx_nbr_xfer_t){1, r, tag, sbuf + 3 * sdisp[r], 3 * (size_t)cnt[r],
                                           dint};
            off += rcnt[r];
        }
        rc = rx_nbr_run(nc, x, 2 * p, NULL);
    }
    rx_topo_t *t = NULL;
    if (rc == RX_OK) {
        int indeg = 0, outdeg = 0;
        for (int i = 0; i < total; i++) {
            indeg += rbuf[3 * i + 1] == nc->rank;
            outdeg += rbuf[3 * i] == nc->rank;
        }
        if (!(t = rx_topo_new(MPI_DIST_GRAPH, 0, indeg, outdeg)))
            rc = RX_ERR_NOMEM;
        for (int i = 0, a = 0, b = 0; t && i < total; i++) {
            if (rbuf[3 * i + 1] == nc->rank) {
                t->in[a] = rbuf[3 * i];
                t->inw[a++] = rbuf[3 * i + 2];
            }
            if (rbuf[3 * i] == nc->rank) {
                t->out[b] = rbuf[3 * i + 1];
                t->outw[b++] = rbuf[3 * i + 2];
            }
        }
    }
    free(cnt);
    free(fill);
    free(sbuf);
    free(sdisp);
    free(x);
    free(rbuf);
    if (rc != RX_OK) {
        PMPI_Comm_free(comm_dist_graph);
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    t->weighted = weighted;
    if (reorder && (rc = rx_dist_reorder(comm_dist_graph, &t, fn)) != MPI_SUCCESS) {
        free(t);
        PMPI_Comm_free(comm_dist_graph);
        return rc;
    }
    nc = rx_comm_get(*comm_dist_graph);
    free(nc->topo);
    nc->topo = t;
    nc->topo_kind = MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}
RX_ALIAS(Dist_graph_create)

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    const char *fn = "MPI_Dist_graph_neighbors_count";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_topo_t *t = rx_topo_of(c, MPI_DIST_GRAPH);
    if (!t)
        return rx_mpi_err(c, MPI_ERR_TOPOLOGY, fn, "communicator has no distributed graph");
    if (!indegree || !outdegree || !weighted)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL argument");
    *indegree = t->indeg;
    *outdegree = t->outdeg;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}
RX_ALIAS(Dist_graph_neighbors_count)

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int *sourceweights,
                              int maxoutdegree, int destinations[], int *destweights)
{
    const char *fn = "MPI_Dist_graph_neighbors";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_topo_t *t = rx_topo_of(c, MPI_DIST_GRAPH);
    if (!t)
        return rx_mpi_err(c, MPI_ERR_TOPOLOGY, fn, "communicator has no distributed graph");
    if (maxindegree < t->indeg || maxoutdegree < t->outdeg)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "arrays too small for %d sources, %d destinations",
                          t->indeg, t->outdeg);
    if ((t->indeg && !sources) || (t->outdeg && !destinations))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL array argument");
    for (int i = 0; i < t->indeg; i++) {
        sources[i] = t->in[i];
        if (t->weighted && rx_weights_given(sourceweights) && sourceweights)
            sourceweights[i] = t->inw[i];
    }
    for (int i = 0; i < t->outdeg; i++) {
        destinations[i] = t->out[i];
        if (t->weighted && rx_weights_given(destweights) && destweights)
            destweights[i] = t->outw[i];
    }
    return MPI_SUCCESS;
}
RX_ALIAS(Dist_graph_neighbors)
