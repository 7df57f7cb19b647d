/* SPDX-License-Identifier: MIT
 * A rank that misbehaves on request, for the launcher's fault tests; it uses
 * only the bootstrap client (PMI init = "MPI_Init", PMI finalize =
 * "MPI_Finalize"). Arguments after those a mode reads are ignored: the tests
 * append a unique token there to find leftover processes with pgrep -f.
 *
 *   ready-sleep SECS [grandchild]  segment, "ready" line, sleep, finalize
 *   crash RANK                     RANK writes through NULL; the others ignore
 *                                  SIGTERM and sleep (SIGKILL must end them)
 *   exit-early RANK CODE           RANK exits CODE before finalize; others sleep
 *   abort RANK CODE                RANK aborts the job with CODE; others sleep
 *   exit-after RANK CODE           everyone finalizes; RANK then exits CODE
 *   exit-staggered                 rank r>0 exits r+2 after r*0.3 s
 *   skip-barrier RANK              RANK exits 0 without init; the others fence
 *   stdin                          rank 0 echoes stdin; the others expect EOF
 *   lines COUNT LEN                COUNT checkable lines of LEN bytes, split
 *                                  writes, stdout and stderr alternately
 *   verify-lines NRANKS COUNT LEN [tagged]  check such output read from stdin
 *   env VAR VAL [VAR VAL...]       exit 1 unless each VAR equals VAL */
#include "boot/boot.h"
#include "util/log.h"
#include "util/status.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static rx_boot_info_t info;

static void die(const char *what)
{
    fprintf(stderr, "fault_prog: %s\n", what);
    exit(1);
}

static void boot(void)
{
    if (rx_boot_init(&info) != RX_OK)
        die("rx_boot_init failed");
}

static void fence(void)
{
    if (rx_boot_fence() != RX_OK)
        die("rx_boot_fence failed");
}

static void finalize(void)
{
    if (rx_boot_finalize() != RX_OK)
        die("rx_boot_finalize failed");
}

/* A segment named as the runtime names its own, left mapped and linked: the
 * launcher (or its watchdog) must remove it whatever happens to this rank. */
static void make_segment(void)
{
    char name[128];
    snprintf(name, sizeof name, "/%s-test-%d", info.jobid, info.rank);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0 || ftruncate(fd, 4096) < 0)
        die("shm_open failed");
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        die("mmap failed");
    memset(p, 1, 4096);
    close(fd);
}

static void ready(void)
{
    printf("ready %d %s\n", info.rank, info.jobid);
    fflush(stdout);
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) < 0)
        ;
}

static void line_text(int rank, int idx, int len, char *out)
{
    int n = snprintf(out, (size_t)len + 1, "r%d i%d ", rank, idx);
    for (int j = n; j < len; j++)
        out[j] = (char)('a' + (rank * 31 + idx * 7 + j) % 26);
    out[len] = 0;
}

static int mode_lines(int count, int len)
{
    boot();
    char *buf = malloc((size_t)len + 2);
    if (!buf || len < 16)
        die("bad length");
    for (int i = 0; i < count; i++) {
        line_text(info.rank, i, len, buf);
        strcat(buf, "\n");
        int fd = i % 2 ? 2 : 1;
        /* two writes per line: the launcher must join them */
        size_t half = (size_t)len / 2;
        if (write(fd, buf, half) != (ssize_t)half ||
            write(fd, buf + half, (size_t)len + 1 - half) != (ssize_t)(len + 1 - half))
            die("write failed");
    }
    free(buf);
    finalize();
    return 0;
}

static int mode_verify(int nranks, int count, int len, int tagged)
{
    char *seen = calloc((size_t)nranks * count, 1), *want = malloc((size_t)len + 1);
    size_t cap = (size_t)len + 64;
    char *line = malloc(cap);
    int bad = 0, lines = 0;
    while (line && fgets(line, (int)cap, stdin)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        char *body = line;
        int r = -1, i = -1, tr = -2;
        if (tagged) {
            if (sscanf(line, "[%d] ", &tr) != 1 || !(body = strchr(line, ' '))) {
                fprintf(stderr, "verify: untagged line \"%.60s\"\n", line);
                bad++;
                continue;
            }
            body++;
        }
        if (sscanf(body, "r%d i%d ", &r, &i) != 2 || r < 0 || r >= nranks || i < 0 || i >= count ||
            (tagged && tr != r)) {
            fprintf(stderr, "verify: stray line \"%.60s\"\n", line);
            bad++;
            continue;
        }
        line_text(r, i, len, want);
        if (strcmp(body, want)) {
            fprintf(stderr, "verify: line r%d i%d damaged (%zu bytes)\n", r, i, strlen(body));
            bad++;
        }
        if (seen[(size_t)r * count + i]++)
            fprintf(stderr, "verify: line r%d i%d twice\n", r, i), bad++;
        lines++;
    }
    if (lines != nranks * count)
        fprintf(stderr, "verify: %d lines, expected %d\n", lines, nranks * count), bad++;
    printf("verify: %d lines, %d problems\n", lines, bad);
    free(seen);
    free(want);
    free(line);
    return bad ? 1 : 0;
}

static int mode_stdin(void)
{
    boot();
    char buf[4096];
    if (info.rank == 0) {
        size_t total = 0;
        while (fgets(buf, sizeof buf, stdin)) {
            total += strlen(buf);
            printf("got: %s", buf);
        }
        printf("stdin bytes %zu\n", total);
    } else {
        ssize_t n = read(0, buf, sizeof buf);
        printf("rank %d stdin %s\n", info.rank, n == 0 ? "eof" : "NOT EMPTY");
    }
    finalize();
    return 0;
}

int main(int argc, char **argv)
{
    rx_log_init();
    if (argc < 2)
        die("no mode");
    const char *mode = argv[1];
    int a = argc > 2 ? atoi(argv[2]) : 0, b = argc > 3 ? atoi(argv[3]) : 0;

    if (!strcmp(mode, "ready-sleep")) {
        boot();
        make_segment();
        if (argc > 3 && !strcmp(argv[3], "grandchild") && info.rank == 0) {
            /* a process the rank started: it must end with the job too */
            if (fork() == 0) {
                printf("grandchild %d\n", (int)getpid());
                fflush(stdout);
                sleep_s(a);
                _exit(0);
            }
        }
        fence();
        ready();
        sleep_s(a);
        finalize();
        return 0;
    }
    if (!strcmp(mode, "crash") || !strcmp(mode, "exit-early") || !strcmp(mode, "abort")) {
        boot();
        make_segment();
        fence();
        ready();
        if (info.rank != a) {
            if (!strcmp(mode, "crash"))
                signal(SIGTERM, SIG_IGN);
            sleep_s(30);
            finalize();
            return 0;
        }
        sleep_s(0.2);
        if (!strcmp(mode, "exit-early"))
            exit(b);
        if (!strcmp(mode, "abort"))
            rx_boot_abort(b, "test abort");
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        printf("crash-at %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
        fflush(stdout);
        /* a real segmentation fault, at an unmapped address that is not NULL
         * so that UndefinedBehaviorSanitizer lets it happen */
        volatile uintptr_t nowhere = 16;
        *(volatile int *)nowhere = 1;
        return 0;
    }
    if (!strcmp(mode, "exit-after")) {
        boot();
        fence();
        finalize();
        return info.rank == a ? b : 0;
    }
    if (!strcmp(mode, "exit-staggered")) {
        boot();
        fence();
        finalize();
        sleep_s(0.3 * info.rank);
        return info.rank ? info.rank + 2 : 0;
    }
    if (!strcmp(mode, "skip-barrier")) {
        if (atoi(getenv("PMI_RANK") ? getenv("PMI_RANK") : "0") == a)
            return 0;
        boot();
        fence();
        finalize();
        return 0;
    }
    if (!strcmp(mode, "stdin"))
        return mode_stdin();
    if (!strcmp(mode, "lines"))
        return mode_lines(a, b);
    if (!strcmp(mode, "verify-lines") && argc > 4)
        return mode_verify(a, b, atoi(argv[4]), argc > 5 && !strcmp(argv[5], "tagged"));
    if (!strcmp(mode, "env")) {
        int bad = 0;
        for (int i = 2; i + 1 < argc; i += 2) {
            const char *v = getenv(argv[i]);
            if (!v || strcmp(v, argv[i + 1])) {
                fprintf(stderr, "env: %s is \"%s\", expected \"%s\"\n", argv[i], v ? v : "(unset)",
                        argv[i + 1]);
                bad = 1;
            }
        }
        return bad;
    }
    die("unknown mode");
    return 1;
}
