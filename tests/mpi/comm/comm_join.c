/* SPDX-License-Identifier: MIT
 * MPI_Comm_join over TCP sockets on the loopback: between the parents'
 * rank 0 and a spawned child (processes of two jobs), and, with 2 or more
 * ranks, between ranks 0 and 1 of the parents' own job. On each joined
 * intercommunicator (one process per side): its sizes, a message each way
 * (8 bytes and 1 MiB), an allreduce, MPI_Comm_disconnect; the socket stays
 * open and usable for the caller afterwards. */
#include "rxtest.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static int listen_any(int *port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 4) < 0 ||
        getsockname(s, (struct sockaddr *)&a, &len) < 0)
        RXT_FATAL("cannot listen on the loopback");
    *port = ntohs(a.sin_port);
    return s;
}

static int connect_to(int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0)
        RXT_FATAL("cannot connect to port %d", port);
    return s;
}

/* Both ends alike; first says which end sends first. */
static void over_joined(int fd, int first, int id)
{
    MPI_Comm j;
    RXT_MPI(MPI_Comm_join(fd, &j));
    int flag = 0, ls = -1, rs = -1;
    MPI_Comm_test_inter(j, &flag);
    MPI_Comm_size(j, &ls);
    MPI_Comm_remote_size(j, &rs);
    RXT_CHECK(flag && ls == 1 && rs == 1, "join %d: inter %d, sizes %d, %d", id, flag, ls, rs);
    long v = first ? 11 : 22, got = -1;
    size_t n = 1 << 17;
    double *big = malloc(n * sizeof *big), *in = malloc(n * sizeof *in);
    for (size_t i = 0; i < n; i++)
        big[i] = (double)i * (first ? 0.5 : 2.0);
    if (first) {
        RXT_MPI(MPI_Send(&v, 1, MPI_LONG, 0, 1, j));
        RXT_MPI(MPI_Recv(&got, 1, MPI_LONG, 0, 1, j, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Send(big, (int)n, MPI_DOUBLE, 0, 2, j));
        RXT_MPI(MPI_Recv(in, (int)n, MPI_DOUBLE, 0, 2, j, MPI_STATUS_IGNORE));
    } else {
        RXT_MPI(MPI_Recv(&got, 1, MPI_LONG, 0, 1, j, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Send(&v, 1, MPI_LONG, 0, 1, j));
        RXT_MPI(MPI_Recv(in, (int)n, MPI_DOUBLE, 0, 2, j, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Send(big, (int)n, MPI_DOUBLE, 0, 2, j));
    }
    RXT_CHECK(got == (first ? 22 : 11), "join %d: got %ld", id, got);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += in[i] != (double)i * (first ? 2.0 : 0.5);
    RXT_CHECK(bad == 0, "join %d: %d wrong doubles", id, bad);
    free(big);
    free(in);
    int one = first ? 1 : 2, sum = -1;
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, j));
    RXT_CHECK(sum == (first ? 2 : 1), "join %d: allreduce %d", id, sum);
    RXT_MPI(MPI_Comm_disconnect(&j));
    /* the socket is still the caller's */
    char c = 'k', d = 0;
    RXT_CHECK(send(fd, &c, 1, 0) == 1 && recv(fd, &d, 1, MSG_WAITALL) == 1 && d == 'k',
              "join %d: the socket after MPI_Comm_join", id);
    close(fd);
}

int main(int argc, char **argv)
{
    MPI_Comm parent = rxt_init_spawned(&argc, &argv, "comm_join");
    if (parent != MPI_COMM_NULL) {
        int port = 0;
        RXT_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE));
        over_joined(connect_to(port), 0, 1);
        RXT_MPI(MPI_Send(&rxt_errs, 1, MPI_INT, 0, 0, parent));
        RXT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    MPI_Comm inter;
    RXT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                           MPI_ERRCODES_IGNORE));
    if (rxt_rank == 0) {
        int port, l = listen_any(&port), cerrs = -1;
        RXT_MPI(MPI_Send(&port, 1, MPI_INT, 0, 0, inter));
        int fd = accept(l, NULL, NULL);
        close(l);
        over_joined(fd, 1, 1);
        RXT_MPI(MPI_Recv(&cerrs, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE));
        RXT_CHECK(cerrs == 0, "the child found %d errors", cerrs);
    }
    if (rxt_size >= 2 && rxt_rank < 2) { /* two ranks of one job */
        int port = 0;
        if (rxt_rank == 0) {
            int l = listen_any(&port);
            RXT_MPI(MPI_Send(&port, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
            int fd = accept(l, NULL, NULL);
            close(l);
            over_joined(fd, 1, 2);
        } else {
            RXT_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            over_joined(connect_to(port), 0, 2);
        }
    }
    RXT_MPI(MPI_Comm_disconnect(&inter));
    return rxt_finish();
}
