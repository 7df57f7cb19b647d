/* SPDX-License-Identifier: MIT
 * The list of algorithms (algo_list.h) and everything that reads it:
 * lookup by name, RDMX_COLL_<KIND> values, the automatic choice and the
 * names --info and rdmx-topo print. */
#include "parts.h"

#include <string.h>

const rx_sched_algo_t *const rx_sched_algos[] = {
#define RX_SCHED_ALGO(d) &d,
#include "algo_list.h"
#undef RX_SCHED_ALGO
};

const int rx_sched_nalgos = (int)(sizeof rx_sched_algos / sizeof rx_sched_algos[0]);

const rx_sched_algo_t *rx_sched_algo_find(int kind, const char *name)
{
    for (int i = 0; i < rx_sched_nalgos; i++)
        if (rx_sched_algos[i]->kind == kind && rx_sched_name_eq(name, rx_sched_algos[i]->name))
            return rx_sched_algos[i];
    return NULL;
}

int rx_sched_algo_id(const rx_sched_algo_t *al)
{
    for (int i = 0; i < rx_sched_nalgos; i++)
        if (rx_sched_algos[i] == al)
            return i + 1;
    return RX_ALGO_AUTO;
}

const rx_sched_algo_t *rx_sched_algo_of(int id)
{
    return id >= 1 && id <= rx_sched_nalgos ? rx_sched_algos[id - 1] : NULL;
}

int rx_sched_choice_parse(int kind, const char *s)
{
    if (!s || !*s || rx_sched_name_eq(s, "auto"))
        return RX_ALGO_AUTO;
    if (rx_sched_name_eq(s, "shm"))
        return RX_ALGO_SHM;
    const rx_sched_algo_t *al = rx_sched_algo_find(kind, s);
    return al ? rx_sched_algo_id(al) : -2;
}

int rx_sched_algo_fits(const rx_sched_args_t *a)
{
    return a->algo && a->algo->kind == a->kind && (!a->algo->fits || a->algo->fits(a));
}

const rx_sched_algo_t *rx_sched_auto(const rx_sched_args_t *a)
{
    const rx_sched_algo_t *best = NULL;
    int best_pref = 0;
    rx_sched_args_t t = *a;
    for (int i = 0; i < rx_sched_nalgos; i++) {
        const rx_sched_algo_t *al = rx_sched_algos[i];
        if (al->kind != a->kind || !al->prefer)
            continue;
        t.algo = al;
        if (!rx_sched_algo_fits(&t))
            continue;
        int pref = al->prefer(&t);
        if (!best || pref > best_pref) {
            best = al;
            best_pref = pref;
        }
    }
    return best;
}

const rx_sched_algo_t *rx_sched_choose(const rx_sched_args_t *a, int forced)
{
    rx_sched_args_t t = *a;
    t.algo = rx_sched_algo_of(forced);
    if (t.algo && rx_sched_algo_fits(&t))
        return t.algo;
    return rx_sched_auto(a);
}

void rx_sched_algo_names(int kind, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < rx_sched_nalgos && n < len; i++) {
        if (rx_sched_algos[i]->kind != kind)
            continue;
        int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", rx_sched_algos[i]->name);
        n += w > 0 ? (size_t)w : 0;
    }
}

void rx_sched_algos_print(FILE *out)
{
    int last = -1;
    for (int i = 0; i < rx_sched_nalgos; i++) {
        const rx_sched_algo_t *al = rx_sched_algos[i];
        if (al->kind != last)
            fprintf(out, "%s%s:\n", last < 0 ? "" : "\n", rx_coll_kind_name(al->kind));
        last = al->kind;
        fprintf(out, "  %-20s %s\n", al->name, al->help);
    }
}
