/* SPDX-License-Identifier: MIT
 * SimGrid (S4U, C API) side of the rdmx-topo cross-check: pairwise all-to-all in phases, each
 * phase ended by a barrier, rank i sending to i+k and receiving from i-k in phase k, the same
 * workload as `rdmx-topo sim --pattern alltoall --sync phase`.
 * Usage: sg_alltoall PLATFORM.xml BYTES [SimGrid --cfg options] */
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

#include <stdio.h>
#include <stdlib.h>

static int nhosts;
static double bytes;
static sg_bar_t bar;
static sg_host_t *hosts;

static void rank_main(int argc, char **argv)
{
    int me = atoi(argv[1]);
    char name[32];
    snprintf(name, sizeof name, "mb%d", me);
    sg_mailbox_t mine = sg_mailbox_by_name(name);
    for (int k = 1; k < nhosts; k++) {
        char to[32];
        snprintf(to, sizeof to, "mb%d", (me + k) % nhosts);
        sg_comm_t s = sg_mailbox_put_async(sg_mailbox_by_name(to), &bytes, (uint64_t)bytes);
        void *data;
        sg_comm_t r = sg_mailbox_get_async(mine, &data);
        sg_comm_wait(s);
        sg_comm_wait(r);
        sg_barrier_wait(bar);
    }
    (void)argc;
}

int main(int argc, char **argv)
{
    simgrid_init(&argc, argv);
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLATFORM.xml BYTES\n", argv[0]);
        return 2;
    }
    simgrid_load_platform(argv[1]);
    bytes = atof(argv[2]);
    nhosts = (int)sg_host_count();
    hosts = sg_host_list();
    bar = sg_barrier_init((unsigned)nhosts);
    for (int i = 0; i < nhosts; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i);
        const char *av[] = {"rank", id};
        char buf[32], hn[32];
        snprintf(buf, sizeof buf, "rank%d", i);
        snprintf(hn, sizeof hn, "node-%d", i); /* rank i on host i, whatever order the host list has */
        sg_actor_create_(buf, sg_host_by_name(hn), rank_main, 2, av);
    }
    simgrid_run();
    printf("simulated time %.9g s\n", simgrid_get_clock());
    return 0;
}
