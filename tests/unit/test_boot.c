/* SPDX-License-Identifier: MIT
 * Unit tests of the bootstrap: the key-value table, the PMI-1 wire parser, the
 * singleton client, and the PMI-1 client against a scripted server in a child
 * process (error paths a real launcher never takes). */
#include "boot/boot.h"
#include "boot/kvs.h"
#include "boot/pmi1_wire.h"
#include "util/status.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
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

    /* PMI over TCP: needs PMI_ID (or PMI_RANK) and a server that answers */
    setenv("PMI_PORT", "127.0.0.1:1", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL);
    setenv("PMI_ID", "0", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_PEER); /* nothing listens on port 1 */
    unsetenv("PMI_ID");
    setenv("PMI_PORT", "no-port-given", 1);
    CHECK(rx_boot_init(&info) == RX_ERR_INVAL);
    unsetenv("PMI_PORT");
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

int main(void)
{
    test_kvs();
    test_wire();
    test_singleton();
    test_client();
    if (failures) {
        fprintf(stderr, "test_boot: %d checks failed\n", failures);
        return 1;
    }
    printf("test_boot: all checks passed\n");
    return 0;
}
