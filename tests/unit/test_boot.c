/* SPDX-License-Identifier: MIT
 * Unit tests of the bootstrap: the key-value table, the PMI-1 wire parser, the
 * singleton client, the PMI-1 client against a scripted server in a child
 * process (error paths a real launcher never takes), and the PMI_PORT
 * hand-shake's retries against a scripted TCP server on the loopback. */
#include "boot/boot.h"
#include "boot/kvs.h"
#include "boot/pmi1_wire.h"
#include "util/config.h"
#include "util/status.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);              \
            failures++;                                                                           \
        }                                                                                         \
    } while (0)

static void test_kvs(void)
{
    rx_kvs_t *kvs;
    CHECK(rx_kvs_create(&kvs) == RX_OK);
    CHECK(rx_kvs_put(kvs, "a", "1") == RX_OK);
    CHECK(rx_kvs_get(kvs, "a") == NULL); /* staged only */
    CHECK(rx_kvs_put(kvs, "a", "2") == RX_OK);
    CHECK(rx_kvs_put(kvs, "b", "") == RX_OK);
    CHECK(rx_kvs_commit(kvs) == RX_OK);
    CHECK(rx_kvs_get(kvs, "a") && !strcmp(rx_kvs_get(kvs, "a"), "2")); /* the later put wins */
    CHECK(rx_kvs_get(kvs, "b") && !strcmp(rx_kvs_get(kvs, "b"), ""));
    CHECK(rx_kvs_count(kvs) == 2);

    char key[RX_KVS_KEY_MAX + 1], val[RX_KVS_VAL_MAX + 1];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = 0;
    CHECK(rx_kvs_put(kvs, key, "x") == RX_ERR_INVAL); /* 64 characters: one too many */
    key[RX_KVS_KEY_MAX - 1] = 0;
    CHECK(rx_kvs_put(kvs, key, "x") == RX_OK);
    memset(val, 'v', sizeof val - 1);
    val[sizeof val - 1] = 0;
    CHECK(rx_kvs_put(kvs, "big", val) == RX_ERR_INVAL);
    val[RX_KVS_VAL_MAX - 1] = 0;
    CHECK(rx_kvs_put(kvs, "big", val) == RX_OK);
    CHECK(rx_kvs_put(kvs, "", "x") == RX_ERR_INVAL);

    /* enough keys to grow the table several times */
    for (int i = 0; i < 5000; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "val%d", i * 3);
        CHECK(rx_kvs_put(kvs, k, v) == RX_OK);
    }
    CHECK(rx_kvs_commit(kvs) == RX_OK);
    CHECK(rx_kvs_count(kvs) == 5004);
    for (int i = 0; i < 5000; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "val%d", i * 3);
        const char *got = rx_kvs_get(kvs, k);
        CHECK(got && !strcmp(got, v));
    }
    CHECK(rx_kvs_get(kvs, "key5000") == NULL);
    CHECK(rx_kvs_get(kvs, key) && !strcmp(rx_kvs_get(kvs, key), "x"));
    CHECK(strlen(rx_kvs_get(kvs, "big")) == RX_KVS_VAL_MAX - 1);
    rx_kvs_destroy(kvs);
}

static void test_wire(void)
{
    char out[32];
    long v;
    const char *line = "cmd=get_result rc=-1 msg=key_x_not_found xkey=1 key=a=b value=";
    CHECK(rx_pmi1_field(line, "cmd", out, sizeof out) == RX_OK && !strcmp(out, "get_result"));
    CHECK(rx_pmi1_field_int(line, "rc", &v) == RX_OK && v == -1);
    CHECK(rx_pmi1_field(line, "key", out, sizeof out) == RX_OK && !strcmp(out, "a=b"));
    CHECK(rx_pmi1_field(line, "value", out, sizeof out) == RX_OK && !strcmp(out, ""));
    CHECK(rx_pmi1_field(line, "ke", out, sizeof out) == RX_ERR_NOTFOUND);
    CHECK(rx_pmi1_field(line, "msg", out, 4) == RX_ERR_TRUNCATE);
    CHECK(rx_pmi1_field_int(line, "msg", &v) == RX_ERR_INVAL);
    CHECK(rx_pmi1_field("cmd=x y=1\n z=2", "z", out, sizeof out) == RX_ERR_NOTFOUND);
    CHECK(rx_pmi1_token_ok("a=b!~") && rx_pmi1_token_ok(""));
    CHECK(!rx_pmi1_token_ok("a b") && !rx_pmi1_token_ok("a\n") && !rx_pmi1_token_ok("\x7f"));
}

static void test_singleton(void)
{
    unsetenv("PMI_FD");
    unsetenv("PMI_PORT");
    unsetenv("RDMX_JOBID");
    rx_boot_info_t info;
    char buf[64];
    unsigned char bin[500], got[500];
    CHECK(rx_boot_put("k", "v") == RX_ERR_INVAL); /* before init */
    CHECK(rx_boot_init(&info) == RX_OK);
    CHECK(info.singleton && info.rank == 0 && info.size == 1 && info.local_size == 1);
    CHECK(!strncmp(info.jobid, "rdmx-", 5));
    CHECK(rx_boot_put("k", "v1") == RX_OK);
    CHECK(rx_boot_get("k", buf, sizeof buf) == RX_ERR_NOTFOUND);
    CHECK(rx_boot_fence() == RX_OK);
    CHECK(rx_boot_get("k", buf, sizeof buf) == RX_OK && !strcmp(buf, "v1"));
    CHECK(rx_boot_get("k", buf, 2) == RX_ERR_TRUNCATE);
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(i * 7 + 3);
    CHECK(rx_boot_put_bin("b", bin, sizeof bin) == RX_OK);
    CHECK(rx_boot_put_bin("toolong", bin, 512) == RX_ERR_INVAL);
    CHECK(rx_boot_fence() == RX_OK);
    CHECK(rx_boot_get_bin("b", got, sizeof got) == RX_OK && !memcmp(bin, got, sizeof bin));
    CHECK(rx_boot_get_bin("b", got, 10) == RX_ERR_TRUNCATE);
    CHECK(rx_boot_get_bin("b", got, 501) == RX_ERR_INVAL);
    CHECK(rx_boot_get_bin("k", got, 1) == RX_ERR_INVAL); /* "v1" is not hex */
    CHECK(rx_boot_put("a key", "v") == RX_ERR_INVAL);
    CHECK(rx_boot_put("a=b", "v") == RX_ERR_INVAL);
    CHECK(rx_boot_put("k", "a\tb") == RX_ERR_INVAL);
    CHECK(rx_boot_finalize() == RX_OK);
    CHECK(rx_boot_finalize() == RX_ERR_INVAL);

    /* PMI over TCP: needs PMI_ID (or PMI_RANK) and a server that answers;
     * with RDMX_PMI_CONNECT_TIMEOUT=0 a refused connection is not retried */
    setenv("RDMX_PMI_CONNECT_TIMEOUT", "0", 1);
    rx_config_load();
    setenv("PMI_PORT", "127.0.0.1:1", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL);
    setenv("PMI_ID", "0", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_PEER); /* nothing listens on port 1 */
    unsetenv("PMI_ID");
    setenv("PMI_PORT", "no-port-given", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL);
    unsetenv("PMI_PORT");
    unsetenv("RDMX_PMI_CONNECT_TIMEOUT");
    rx_config_load();
}

/* The scripted server: answers the start-up requests like hydra, then
 * follows `script` — one reply per request, "CLOSE" to hang up. */
static void serve(int fd, const char *kvsname, const char *const *script)
{
    char buf[4096];
    size_t len = 0;
    int step = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0)
            _exit(0);
        len += (size_t)n;
        buf[len] = 0;
        char *nl;
        while ((nl = strchr(buf, '\n'))) {
            *nl = 0;
            char reply[512];
            if (!strncmp(buf, "cmd=init ", 9))
                snprintf(reply, sizeof reply, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
            else if (!strcmp(buf, "cmd=get_maxes"))
                snprintf(reply, sizeof reply, "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n");
            else if (!strcmp(buf, "cmd=get_appnum"))
                snprintf(reply, sizeof reply, "cmd=appnum appnum=2\n");
            else if (!strcmp(buf, "cmd=get_my_kvsname"))
                snprintf(reply, sizeof reply, "cmd=my_kvsname kvsname=%s\n", kvsname);
            else if (!script[step] || !strcmp(script[step], "CLOSE"))
                _exit(0);
            else
                snprintf(reply, sizeof reply, "%s\n", script[step++]);
            if (write(fd, reply, strlen(reply)) < 0)
                _exit(1);
            len -= (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, len + 1);
        }
    }
}

static pid_t start_server(const char *kvsname, const char *const *script)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        serve(sv[1], kvsname, script);
    }
    close(sv[1]);
    char fd[16];
    snprintf(fd, sizeof fd, "%d", sv[0]);
    setenv("PMI_FD", fd, 1);
    setenv("PMI_RANK", "1", 1);
    setenv("PMI_SIZE", "3", 1);
    setenv("MPI_LOCALNRANKS", "2", 1);
    setenv("MPI_LOCALRANKID", "0", 1);
    return pid;
}

static void test_client(void)
{
    rx_boot_info_t info;
    char buf[64];
    signal(SIGPIPE, SIG_IGN);

    static const char *const script1[] = {
        "cmd=put_result rc=0 msg=success",
        "cmd=barrier_out",
        "cmd=get_result rc=0 msg=success value=x=y",
        "cmd=get_result rc=-1 msg=key_nope_not_found",
        "cmd=put_result rc=-1 msg=refused",
        "cmd=put_result rc=0 msg=success", /* a reply to the wrong request */
        "CLOSE", NULL};
    unsetenv("RDMX_JOBID");
    pid_t pid = start_server("kvs_4242_0", script1);
    int fd = atoi(getenv("PMI_FD"));
    CHECK(rx_boot_init(&info) == RX_OK);
    CHECK(!info.singleton && info.rank == 1 && info.size == 3 && info.local_rank == 0 &&
          info.local_size == 2 && info.appnum == 2);
    CHECK(!strcmp(info.jobid, "kvs_4242_0")); /* the KVS name serves as job id */
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    CHECK(rx_boot_put("a", "b") == RX_OK);
    CHECK(rx_boot_fence() == RX_OK);
    CHECK(rx_boot_get("a", buf, sizeof buf) == RX_OK && !strcmp(buf, "x=y"));
    CHECK(rx_boot_get("nope", buf, sizeof buf) == RX_ERR_NOTFOUND);
    CHECK(rx_boot_put("c", "d") == RX_ERR_PEER);
    CHECK(rx_boot_fence() == RX_ERR_PEER);                 /* got put_result */
    CHECK(rx_boot_get("a", buf, sizeof buf) == RX_ERR_PEER); /* hung up */
    rx_boot_finalize();
    waitpid(pid, NULL, 0);

    /* a KVS name that cannot name a file becomes a hashed job id */
    static const char *const script2[] = {"cmd=finalize_ack", NULL};
    pid = start_server("kvs_1_0_1234567890_a-very-long-host-name.example/with-slash", script2);
    CHECK(rx_boot_init(&info) == RX_OK);
    CHECK(!strncmp(info.jobid, "rdmx-pmi-", 9) && strlen(info.jobid) == 25);
    CHECK(rx_boot_finalize() == RX_OK);
    waitpid(pid, NULL, 0);

    /* RDMX_JOBID, set by rdmx-run, wins over the KVS name */
    setenv("RDMX_JOBID", "rdmx-1-00112233", 1);
    pid = start_server("kvs_1", script2);
    CHECK(rx_boot_init(&info) == RX_OK && !strcmp(info.jobid, "rdmx-1-00112233"));
    CHECK(rx_boot_finalize() == RX_OK);
    waitpid(pid, NULL, 0);
    unsetenv("RDMX_JOBID");

    /* bad environments are refused before anything is sent */
    setenv("PMI_FD", "3x", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL);
    setenv("PMI_FD", "1000", 1);
    setenv("PMI_RANK", "3", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL); /* rank not below size */
    setenv("PMI_RANK", "0", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL); /* fd 1000 is not open */
    unsetenv("PMI_FD");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Read one line (the hand-shake) from fd into buf; 0 on success. */
static int read_line(int fd, char *buf, size_t len)
{
    size_t n = 0;
    while (n + 1 < len) {
        if (read(fd, buf + n, 1) != 1)
            return -1;
        if (buf[n] == '\n') {
            buf[n] = 0;
            return 0;
        }
        n++;
    }
    return -1;
}

/* A PMI_PORT server on the loopback that starts listening only after
 * listen_after seconds (connections are refused until then) and answers the
 * i-th hand-shake with answers[i]: a reply line, "CLOSE" (hang up without a
 * word) or "OK" (accept as hydra does: initack and set lines, after checking
 * the secret and rank, then serve `script`). NULL ends the list: the last
 * answer repeats. The count of connections is written to report_fd. */
static pid_t start_tcp_server(double listen_after, const char *const *answers,
                              const char *const *script, int *report_fd)
{
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1, rep[2];
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        getsockname(ls, (struct sockaddr *)&sa, &sl) < 0 || pipe(rep) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(rep[0]);
        struct timespec ts = {0, (long)(listen_after * 1e9)};
        nanosleep(&ts, NULL);
        listen(ls, 16);
        for (int i = 0, a = 0;; i++) {
            int fd = accept(ls, NULL, NULL);
            if (fd < 0)
                _exit(1);
            int count = i + 1;
            if (write(rep[1], &count, sizeof count) < 0)
                _exit(1);
            char line[256];
            if (read_line(fd, line, sizeof line)) {
                close(fd);
                continue;
            }
            const char *ans = answers[a];
            if (answers[a + 1])
                a++;
            if (!strcmp(ans, "OK")) {
                if (strcmp(line, "cmd=initack pmiid=2 secret=s3cr3t"))
                    _exit(2);
                static const char hello[] = "cmd=initack\ncmd=set size=3\ncmd=set rank=2\n"
                                            "cmd=set debug=0\n";
                if (write(fd, hello, sizeof hello - 1) < 0)
                    _exit(1);
                serve(fd, "kvs_tcp", script);
            }
            if (strcmp(ans, "CLOSE")) {
                char reply[128];
                snprintf(reply, sizeof reply, "%s\n", ans);
                if (write(fd, reply, strlen(reply)) < 0)
                    _exit(1);
            }
            close(fd);
        }
    }
    close(ls);
    close(rep[1]);
    *report_fd = rep[0];
    char port[32];
    snprintf(port, sizeof port, "127.0.0.1:%d", ntohs(sa.sin_port));
    setenv("PMI_PORT", port, 1);
    setenv("PMI_ID", "2", 1);
    setenv("RDMX_PMI_SECRET", "s3cr3t", 1);
    unsetenv("PMI_FD");
    unsetenv("PMI_RANK");
    unsetenv("PMI_SIZE");
    unsetenv("MPI_LOCALNRANKS");
    unsetenv("MPI_LOCALRANKID");
    return pid;
}

/* Connections the server saw, once it is gone. */
static int tcp_server_count(pid_t pid, int report_fd)
{
    int count = 0, c;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    while (read(report_fd, &c, sizeof c) == (ssize_t)sizeof c)
        count = c;
    close(report_fd);
    return count;
}

static void test_tcp_retry(void)
{
    rx_boot_info_t info;
    int rep;
    static const char *const fin[] = {"cmd=finalize_ack", NULL};

    /* refused until the server listens, then told "busy", then hung up on,
     * then accepted: the rank gets through */
    static const char *const a1[] = {"cmd=initack rc=1 msg=busy_retry", "CLOSE", "OK", NULL};
    pid_t pid = start_tcp_server(0.3, a1, fin, &rep);
    double t0 = now_s();
    CHECK(rx_boot_init(&info) == RX_OK);
    CHECK(now_s() - t0 >= 0.25); /* the server listened 0.3 s after its fork */
    CHECK(info.rank == 2 && info.size == 3 && !info.singleton);
    CHECK(rx_boot_finalize() == RX_OK);
    CHECK(tcp_server_count(pid, rep) == 3);

    /* a wrong secret is final: one connection, no retry */
    static const char *const a2[] = {"cmd=initack rc=-1 msg=wrong_secret", NULL};
    pid = start_tcp_server(0, a2, fin, &rep);
    t0 = now_s();
    CHECK(rx_boot_init(&info) == RX_ERR_PEER);
    CHECK(now_s() - t0 < 5);
    CHECK(tcp_server_count(pid, rep) == 1);

    /* busy for ever: give up after RDMX_PMI_CONNECT_TIMEOUT */
    setenv("RDMX_PMI_CONNECT_TIMEOUT", "1", 1);
    rx_config_load();
    static const char *const a3[] = {"cmd=initack rc=1 msg=busy_retry", NULL};
    pid = start_tcp_server(0, a3, fin, &rep);
    t0 = now_s();
    CHECK(rx_boot_init(&info) == RX_ERR_PEER);
    double t = now_s() - t0;
    CHECK(t >= 0.9 && t < 5);
    CHECK(tcp_server_count(pid, rep) >= 3);
    unsetenv("RDMX_PMI_CONNECT_TIMEOUT");
    rx_config_load();
    unsetenv("PMI_PORT");
    unsetenv("PMI_ID");
    unsetenv("RDMX_PMI_SECRET");
}

int main(void)
{
    test_kvs();
    test_wire();
    test_singleton();
    test_client();
    test_tcp_retry();
    if (failures) {
        fprintf(stderr, "test_boot: %d checks failed\n", failures);
        return 1;
    }
    printf("test_boot: all checks passed\n");
    return 0;
}
