/* SPDX-License-Identifier: MIT
 * --bind-to core: rank i gets the i-th usable core modulo their number. A core
 * is usable when some of its hardware threads are in the launcher's own CPU
 * set (taskset, cgroup cpusets, a batch system's allocation); the rank is
 * bound to those threads of it. The default binding (only_if_fits) stays
 * silent when it cannot bind: the job then runs unbound. Cores no rank got
 * are passed to the ranks as RDMX_SPARE_CPUS; --offload-cores K keeps the
 * last K for that and confines the ranks to the others. */
#include "run.h"
#include "util/status.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdlib.h>
#include <string.h>

int rx_run_bind_plan(rx_run_job_t *job, int report, int only_if_fits)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t allowed = NULL, set = NULL;
    hwloc_bitmap_t *cores = NULL;
    int rc = RX_ERR_INVAL, ncores = 0;

    if (hwloc_topology_init(&topo) < 0 || hwloc_topology_load(topo) < 0) {
        if (!only_if_fits || job->opts->offload_cores > 0)
            rx_run_msg("--bind-to core: hwloc cannot read this machine's topology");
        return RX_ERR_INVAL;
    }
    allowed = hwloc_bitmap_alloc();
    set = hwloc_bitmap_alloc();
    int total = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    cores = calloc(total > 0 ? (size_t)total : 1, sizeof *cores);
    job->bind_sets = calloc((size_t)job->n, sizeof *job->bind_sets);
    if (!allowed || !set || !cores || !job->bind_sets) {
        rx_run_msg("out of memory");
        goto out;
    }
    if (hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) < 0)
        hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topo));
    hwloc_bitmap_and(allowed, allowed, hwloc_topology_get_allowed_cpuset(topo));

    for (int i = 0; i < total; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
        hwloc_bitmap_and(set, core->cpuset, allowed);
        if (hwloc_bitmap_iszero(set))
            continue;
        cores[ncores] = hwloc_bitmap_dup(set);
        if (!cores[ncores])
            goto out;
        ncores++;
    }
    if (ncores == 0) {
        if (!only_if_fits)
            rx_run_msg("--bind-to core: no core is available to this process");
        goto out;
    }
    /* --offload-cores K: the last K usable cores are kept for the ranks'
     * offload threads, the ranks run on the others */
    int keep = job->opts->offload_cores, nrank = ncores - keep;
    if (keep > 0 && nrank < 1) {
        rx_run_msg("--offload-cores %d: only %d usable core%s; the ranks need at least one", keep,
                   ncores, ncores == 1 ? "" : "s");
        goto out;
    }
    int per_core = job->opts->bind_core != 0 && (job->n <= nrank || !only_if_fits);
    if (!per_core && keep == 0) {
        /* oversubscribed (only_if_fits): unbound, so the kernel balances them */
        rc = RX_OK;
        free(job->bind_sets);
        job->bind_sets = NULL;
        goto out;
    }
    hwloc_bitmap_zero(set);
    for (int i = 0; i < nrank; i++)
        hwloc_bitmap_or(set, set, cores[i]);
    for (int r = 0; r < job->n; r++) {
        /* one core each, or (more ranks than cores, or --bind-to none) all the ranks' cores */
        hwloc_bitmap_t c = per_core ? cores[r % nrank] : set;
        hwloc_cpuset_to_glibc_sched_affinity(topo, c, &job->bind_sets[r], sizeof job->bind_sets[r]);
        if (report) {
            char cpus[256];
            hwloc_bitmap_list_snprintf(cpus, sizeof cpus, c);
            if (per_core)
                rx_run_msg("rank %d bound to core %d of %d (cpus %s)", r, r % nrank, ncores, cpus);
            else
                rx_run_msg("rank %d confined to cpus %s", r, cpus);
        }
    }
    /* the CPUs the ranks share: more ranks than these is oversubscribed */
    hwloc_bitmap_zero(set);
    int used = per_core && job->n < nrank ? job->n : nrank;
    for (int i = 0; i < used; i++)
        hwloc_bitmap_or(set, set, cores[i]);
    job->rank_cpus = hwloc_bitmap_weight(set);
    /* cores left over: where offload threads may run (RDMX_COLL_OFFLOAD=auto) */
    job->spare_cpus[0] = 0;
    int first_spare = keep > 0 ? nrank : job->n;
    if (first_spare < ncores) {
        hwloc_bitmap_zero(set);
        for (int i = first_spare; i < ncores; i++)
            hwloc_bitmap_or(set, set, cores[i]);
        if (hwloc_bitmap_list_snprintf(job->spare_cpus, sizeof job->spare_cpus, set) >=
            (int)sizeof job->spare_cpus)
            job->spare_cpus[0] = 0;
        if (report && keep > 0)
            rx_run_msg("cpus %s kept for offload threads", job->spare_cpus);
    }
    rc = RX_OK;
out:
    for (int i = 0; i < ncores; i++)
        hwloc_bitmap_free(cores[i]);
    free(cores);
    hwloc_bitmap_free(allowed);
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    if (rc != RX_OK) {
        free(job->bind_sets);
        job->bind_sets = NULL;
    }
    return rc;
}
