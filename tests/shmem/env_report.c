/* SPDX-License-Identifier: MIT
 * SHMEM_VERSION, SHMEM_INFO and SHMEM_DEBUG (OpenSHMEM 1.5, "Environment
 * Variables"): set before shmem_init, with standard output and error sent
 * to files; afterwards PE 0's output must hold the version (with the
 * header's major and minor numbers) and the text about the variables once,
 * every PE's error output its one debug line naming itself and every PE, and
 * no other PE's output the version or the text. Argument "old": the
 * deprecated SMA_ names instead. Argument "off": the variables set to "0",
 * and nothing is printed. */
#include "shtest.h"

#include <fcntl.h>

static char *slurp(const char *path)
{
    static char buf[8192];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return buf;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "new";
    int off = strcmp(mode, "off") == 0;
    const char *pre = strcmp(mode, "old") == 0 ? "SMA" : "SHMEM";
    char name[64];
    for (int i = 0; i < 3; i++) {
        static const char *v[] = {"VERSION", "INFO", "DEBUG"};
        snprintf(name, sizeof name, "%s_%s", pre, v[i]);
        setenv(name, off ? "0" : "1", 1);
    }
    char out[64], err[64];
    snprintf(out, sizeof out, "/tmp/rdmx-shenv-%d.out", (int)getpid());
    snprintf(err, sizeof err, "/tmp/rdmx-shenv-%d.err", (int)getpid());
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    int fo = open(out, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    int fe = open(err, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    dup2(fo, 1);
    dup2(fe, 2);
    sht_init();
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(fo);
    close(fe);
    char o[8192], e[8192];
    snprintf(o, sizeof o, "%s", slurp(out));
    snprintf(e, sizeof e, "%s", slurp(err));
    unlink(out);
    unlink(err);

    char version[64];
    snprintf(version, sizeof version, "OpenSHMEM %d.%d (%s)", SHMEM_MAJOR_VERSION,
             SHMEM_MINOR_VERSION, SHMEM_VENDOR_STRING);
    int want = !off && sht_me == 0;
    SHT_CHECK(count(o, version) == want, "version printed %d times (want %d): [%s]",
              count(o, version), want, o);
    SHT_CHECK(count(o, "SHMEM_SYMMETRIC_SIZE") == want, "variable text printed %d times: [%s]",
              count(o, "SHMEM_SYMMETRIC_SIZE"), o);
    char mine[64];
    snprintf(mine, sizeof mine, "shmem: PE %d of %d:", sht_me, sht_npes);
    SHT_CHECK(count(e, mine) == !off && count(e, "shmem: PE ") == !off,
              "debug output [%s]", e);
    if (!off) {
        for (int pe = 0; pe < sht_npes; pe++) {
            char p[32];
            snprintf(p, sizeof p, " %d mapped", pe);
            SHT_CHECK(strstr(e, p) != NULL, "debug line does not name PE %d: [%s]", pe, e);
        }
    }
    return sht_finish();
}
