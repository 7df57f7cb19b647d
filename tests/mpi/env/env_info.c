/* SPDX-License-Identifier: MIT
 * Environment inquiries: MPI_Get_version (also before MPI_Init, where the standard
 * allows it), MPI_Get_library_version, MPI_Get_processor_name, MPI_Wtime, MPI_Wtick;
 * MPI_Info_create_env (MPI-4) made before MPI_Init holds the same keys and values as
 * one made after it (what MPI_Init would give: maxprocs, thread_level, ...). */
#include "rxtest.h"

static void check_versions(const char *when)
{
    int v = -1, sv = -1;
    RXT_MPI(MPI_Get_version(&v, &sv));
    RXT_CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION,
              "%s: MPI_Get_version gave %d.%d, mpi.h says %d.%d", when, v, sv, MPI_VERSION,
              MPI_SUBVERSION);
    RXT_CHECK(v >= 3 && sv >= 0 && sv <= 2, "%s: implausible MPI version %d.%d", when, v, sv);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 8];
    int len = -1;
    memset(lib, 'x', sizeof lib);
    RXT_MPI(MPI_Get_library_version(lib, &len));
    RXT_CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING,
              "%s: library version length %d out of (0, %d)", when, len,
              MPI_MAX_LIBRARY_VERSION_STRING);
    if (len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING)
        RXT_CHECK(lib[len] == '\0' && (int)strlen(lib) == len,
                  "%s: library version not NUL-terminated at its length %d", when, len);
}

static void check_processor_name(void)
{
    char name[MPI_MAX_PROCESSOR_NAME + 8], again[MPI_MAX_PROCESSOR_NAME + 8];
    int len = -1, len2 = -1;
    memset(name, 'x', sizeof name);
    RXT_MPI(MPI_Get_processor_name(name, &len));
    RXT_CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME, "processor name length %d", len);
    if (len <= 0 || len >= MPI_MAX_PROCESSOR_NAME)
        return;
    RXT_CHECK(name[len] == '\0' && (int)strlen(name) == len,
              "processor name not NUL-terminated at its length %d", len);
    RXT_MPI(MPI_Get_processor_name(again, &len2));
    RXT_CHECK(len2 == len && strcmp(name, again) == 0, "processor name changed: '%s' then '%s'",
              name, again);
}

static void check_clock(void)
{
    double tick = MPI_Wtick();
    RXT_CHECK(tick > 0.0 && tick < 1.0, "MPI_Wtick gave %g", tick);

    /* Wtime never goes backwards and its steps are no finer than Wtick says. */
    double prev = MPI_Wtime(), min_step = 1e9;
    for (int i = 0; i < 100000; i++) {
        double t = MPI_Wtime();
        RXT_CHECK(t >= prev, "MPI_Wtime went backwards: %.9f after %.9f", t, prev);
        if (t > prev && t - prev < min_step)
            min_step = t - prev;
        prev = t;
    }
    if (min_step < 1e9)
        RXT_CHECK(min_step >= tick * 0.999, "MPI_Wtime stepped by %g, below MPI_Wtick %g",
                  min_step, tick);

    /* Wtime measures seconds: a 100 ms sleep reads as about 0.1. */
    double t0 = MPI_Wtime();
    rxt_sleep_ms(100);
    double dt = MPI_Wtime() - t0;
    RXT_CHECK(dt >= 0.099 && dt < 5.0, "100 ms sleep measured as %.6f s by MPI_Wtime", dt);
}

#if MPI_VERSION >= 4 || defined(RDMX)
static const char *const env_keys[] = {"command", "argv", "maxprocs", "soft", "host",
                                       "arch", "wdir", "file", "thread_level"};
#define NENV (sizeof env_keys / sizeof env_keys[0])
static char env_before[NENV][MPI_MAX_INFO_VAL + 1];
static int env_flag_before[NENV];

static void env_read(int argc, char **argv, char vals[][MPI_MAX_INFO_VAL + 1], int *flags)
{
    MPI_Info info;
    RXT_MPI(MPI_Info_create_env(argc, argv, &info));
    for (size_t k = 0; k < NENV; k++) {
        int len = MPI_MAX_INFO_VAL + 1;
        RXT_MPI(MPI_Info_get_string(info, env_keys[k], &len, vals[k], &flags[k]));
    }
    RXT_MPI(MPI_Info_free(&info));
}

static void check_env_same(int argc, char **argv)
{
    static char after[NENV][MPI_MAX_INFO_VAL + 1];
    int flag[NENV];
    env_read(argc, argv, after, flag);
    for (size_t k = 0; k < NENV; k++)
        RXT_CHECK(flag[k] == env_flag_before[k] && (!flag[k] || !strcmp(after[k], env_before[k])),
                  "MPI_Info_create_env key %s: '%s' (flag %d) before MPI_Init, '%s' (flag %d) "
                  "after", env_keys[k], env_flag_before[k] ? env_before[k] : "",
                  env_flag_before[k], flag[k] ? after[k] : "", flag[k]);
}
#endif

int main(int argc, char **argv)
{
    rxt_arm_watchdog();
    check_versions("before MPI_Init");
#if MPI_VERSION >= 4 || defined(RDMX)
    env_read(argc, argv, env_before, env_flag_before);
#endif
    rxt_init(&argc, &argv, "env_info");
    check_versions("after MPI_Init");
#if MPI_VERSION >= 4 || defined(RDMX)
    check_env_same(argc, argv);
#endif
    check_processor_name();
    check_clock();
    return rxt_finish();
}
