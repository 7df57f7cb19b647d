/* SPDX-License-Identifier: MIT
 * Info objects: set / get / delete / dup / free, key and value limits, nthkey over
 * every key, MPI_INFO_ENV, and the MPI-4 calls MPI_Info_get_string (buflen in and
 * out) and MPI_Info_create_env where the implementation has them. Errors are
 * checked by class under MPI_ERRORS_RETURN. Checks of what the standard leaves to
 * the implementation (truncation by MPI_Info_get, the keys of MPI_INFO_ENV) are
 * made for rdmx only. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4
#define HAVE_MPI4_INFO 1
#endif

/* Open MPI 4.1 refuses keys of exactly MPI_MAX_INFO_KEY characters and values of
 * MPI_MAX_INFO_VAL (the standard allows them), and MPICH 4.0 returns one character less of such a key from
 * MPI_Info_get_nthkey; the longest key tried and compared is shorter there. */
#ifdef OPEN_MPI
#define LONGEST_KEY (MPI_MAX_INFO_KEY - 1)
#define LONGEST_VAL (MPI_MAX_INFO_VAL - 1)
#else
#define LONGEST_KEY MPI_MAX_INFO_KEY
#define LONGEST_VAL MPI_MAX_INFO_VAL
#endif
#ifdef RDMX
#define NTHKEY_CMP LONGEST_KEY
#else
#define NTHKEY_CMP (LONGEST_KEY - 1)
#endif

static int has_key(MPI_Info info, const char *key)
{
    int n = 0;
    RXT_MPI(MPI_Info_get_nkeys(info, &n));
    for (int i = 0; i < n; i++) {
        char k[MPI_MAX_INFO_KEY + 1];
        RXT_MPI(MPI_Info_get_nthkey(info, i, k));
        if (strcmp(k, key) == 0)
            return 1;
    }
    return 0;
}

static void check_value(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = -1, len = -1;
    RXT_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
    RXT_CHECK(flag == (want != NULL), "key %s: flag %d", key, flag);
    if (!want || !flag)
        return;
    RXT_CHECK(strcmp(v, want) == 0, "key %s: value '%s', expected '%s'", key, v, want);
    RXT_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    RXT_CHECK(flag && len == (int)strlen(want), "key %s: valuelen %d flag %d", key, len, flag);
}

static void test_basic(void)
{
    MPI_Info info, dup;
    RXT_MPI(MPI_Info_create(&info));
    int n = -1;
    RXT_MPI(MPI_Info_get_nkeys(info, &n));
    RXT_CHECK(n == 0, "new info has %d keys", n);
    char key[32], val[64];
    for (int i = 0; i < 20; i++) {
        snprintf(key, sizeof key, "key%d", i);
        snprintf(val, sizeof val, "value-%d-%d", i, rxt_rank);
        RXT_MPI(MPI_Info_set(info, key, val));
    }
    RXT_MPI(MPI_Info_set(info, "key7", "replaced"));
    RXT_MPI(MPI_Info_get_nkeys(info, &n));
    RXT_CHECK(n == 20, "20 keys set (one twice), nkeys %d", n);
    for (int i = 0; i < 20; i++) {
        snprintf(key, sizeof key, "key%d", i);
        snprintf(val, sizeof val, "value-%d-%d", i, rxt_rank);
        check_value(info, key, i == 7 ? "replaced" : val);
        RXT_CHECK(has_key(info, key), "nthkey never returns %s", key);
    }
    check_value(info, "absent", NULL);
    RXT_MPI(MPI_Info_dup(info, &dup));
    RXT_MPI(MPI_Info_delete(info, "key3"));
    RXT_EXPECT_CLASS(MPI_ERR_INFO_NOKEY, MPI_Info_delete(info, "key3"));
    RXT_MPI(MPI_Info_set(dup, "key4", "only in dup"));
    check_value(info, "key3", NULL);
    snprintf(val, sizeof val, "value-%d-%d", 4, rxt_rank);
    check_value(info, "key4", val);
    check_value(dup, "key4", "only in dup");
    snprintf(val, sizeof val, "value-%d-%d", 3, rxt_rank);
    check_value(dup, "key3", val);
    RXT_MPI(MPI_Info_get_nkeys(info, &n));
    RXT_CHECK(n == 19, "after delete nkeys %d", n);
    char k[MPI_MAX_INFO_KEY + 1];
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_INFO_KEY, MPI_Info_get_nthkey(info, 19, k));
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_INFO_KEY, MPI_Info_get_nthkey(info, -1, k));
    RXT_MPI(MPI_Info_free(&dup));
    RXT_CHECK(dup == MPI_INFO_NULL, "MPI_Info_free leaves a handle");
    RXT_MPI(MPI_Info_free(&info));
    RXT_CHECK(info == MPI_INFO_NULL, "MPI_Info_free leaves a handle");
}

/* Keys up to MPI_MAX_INFO_KEY and values up to MPI_MAX_INFO_VAL characters. */
static void test_limits(void)
{
    MPI_Info info;
    RXT_MPI(MPI_Info_create(&info));
    char *key = malloc(MPI_MAX_INFO_KEY + 2), *val = malloc(MPI_MAX_INFO_VAL + 2);
    char *got = malloc(MPI_MAX_INFO_VAL + 2);
    memset(key, 'k', MPI_MAX_INFO_KEY + 1);
    key[LONGEST_KEY] = 0;
    memset(val, 'v', MPI_MAX_INFO_VAL + 1);
    val[LONGEST_VAL] = 0;
    RXT_MPI(MPI_Info_set(info, key, val));
    int flag = 0;
    RXT_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, got, &flag));
    RXT_CHECK(flag && strcmp(got, val) == 0, "longest key and value do not come back");
    char nth[MPI_MAX_INFO_KEY + 1];
    RXT_MPI(MPI_Info_get_nthkey(info, 0, nth));
    RXT_CHECK(strncmp(nth, key, NTHKEY_CMP) == 0, "nthkey of the longest key differs");
    key[LONGEST_KEY] = 'k';
    key[MPI_MAX_INFO_KEY + 1] = 0;
    RXT_EXPECT_CLASS(MPI_ERR_INFO_KEY, MPI_Info_set(info, key, "x"));
    RXT_EXPECT_CLASS(MPI_ERR_INFO_KEY, MPI_Info_set(info, "", "x"));
    val[LONGEST_VAL] = 'v';
    val[MPI_MAX_INFO_VAL + 1] = 0;
    RXT_EXPECT_CLASS(MPI_ERR_INFO_VALUE, MPI_Info_set(info, "k", val));
#ifdef RDMX
    /* truncation: at most valuelen characters and a terminating zero */
    RXT_MPI(MPI_Info_set(info, "short", "abcdef"));
    memset(got, 'z', 16);
    RXT_MPI(MPI_Info_get(info, "short", 3, got, &flag));
    RXT_CHECK(flag && strcmp(got, "abc") == 0, "MPI_Info_get valuelen 3 gave '%s'", got);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Info_get(info, "short", -1, got, &flag));
#endif
    RXT_EXPECT_EITHER(MPI_ERR_INFO, MPI_ERR_ARG, MPI_Info_set(MPI_INFO_NULL, "k", "v"));
    MPI_Info null = MPI_INFO_NULL;
    RXT_EXPECT_EITHER(MPI_ERR_INFO, MPI_ERR_ARG, MPI_Info_free(&null));
    RXT_MPI(MPI_Info_free(&info));
    free(key);
    free(val);
    free(got);
}

#ifdef HAVE_MPI4_INFO
static void test_get_string(void)
{
    MPI_Info info;
    RXT_MPI(MPI_Info_create(&info));
    RXT_MPI(MPI_Info_set(info, "color", "ultramarine"));
    int flag = -1, buflen = 0;
    char buf[64];
    RXT_MPI(MPI_Info_get_string(info, "color", &buflen, buf, &flag));
    RXT_CHECK(flag == 1 && buflen == 12, "size query: flag %d buflen %d (expected 12)", flag,
              buflen);
    buflen = 5;
    memset(buf, 'z', sizeof buf);
    RXT_MPI(MPI_Info_get_string(info, "color", &buflen, buf, &flag));
    RXT_CHECK(flag == 1 && buflen == 12 && strcmp(buf, "ultr") == 0,
              "short buffer: flag %d buflen %d value '%.8s'", flag, buflen, buf);
    buflen = sizeof buf;
    RXT_MPI(MPI_Info_get_string(info, "color", &buflen, buf, &flag));
    RXT_CHECK(flag == 1 && buflen == 12 && strcmp(buf, "ultramarine") == 0,
              "full buffer: flag %d buflen %d value '%s'", flag, buflen, buf);
    buflen = sizeof buf;
    RXT_MPI(MPI_Info_get_string(info, "none", &buflen, buf, &flag));
    RXT_CHECK(flag == 0, "absent key: flag %d", flag);
    RXT_MPI(MPI_Info_free(&info));

    char *args[] = {"prog", "-x", "3", NULL};
    RXT_MPI(MPI_Info_create_env(3, args, &info));
    RXT_MPI(MPI_Info_get_nkeys(info, &flag));
#ifdef RDMX
    check_value(info, "command", "prog");
    check_value(info, "argv", "-x 3");
#endif
    RXT_MPI(MPI_Info_free(&info));
}
#endif

static void test_env(void)
{
    MPI_Info dup;
    int n = -1;
    RXT_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    RXT_CHECK(n >= 0, "MPI_INFO_ENV nkeys %d", n);
    RXT_MPI(MPI_Info_dup(MPI_INFO_ENV, &dup));
    int m = -1;
    RXT_MPI(MPI_Info_get_nkeys(dup, &m));
    RXT_CHECK(m == n, "dup of MPI_INFO_ENV has %d keys, it has %d", m, n);
    RXT_MPI(MPI_Info_free(&dup));
#ifdef RDMX
    char v[MPI_MAX_INFO_VAL + 1], want[32];
    int flag = 0;
    RXT_MPI(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, v, &flag));
    RXT_CHECK(flag && strstr(v, "info_objects"), "command '%s' flag %d", flag ? v : "", flag);
    snprintf(want, sizeof want, "%d", rxt_size);
    check_value(MPI_INFO_ENV, "maxprocs", want);
    check_value(MPI_INFO_ENV, "thread_level", "MPI_THREAD_SINGLE");
    RXT_MPI(MPI_Info_get(MPI_INFO_ENV, "wdir", MPI_MAX_INFO_VAL, v, &flag));
    RXT_CHECK(flag && v[0] == '/', "wdir '%s' flag %d", flag ? v : "", flag);
    RXT_MPI(MPI_Info_get(MPI_INFO_ENV, "host", MPI_MAX_INFO_VAL, v, &flag));
    RXT_CHECK(flag && v[0], "no host in MPI_INFO_ENV");
    RXT_MPI(MPI_Info_get(MPI_INFO_ENV, "arch", MPI_MAX_INFO_VAL, v, &flag));
    RXT_CHECK(flag && v[0], "no arch in MPI_INFO_ENV");
    RXT_EXPECT_CLASS(MPI_ERR_INFO, MPI_Info_set(MPI_INFO_ENV, "k", "v"));
    MPI_Info env = MPI_INFO_ENV;
    RXT_EXPECT_CLASS(MPI_ERR_INFO, MPI_Info_free(&env));
#endif
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "info_objects");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_basic();
    test_limits();
#ifdef HAVE_MPI4_INFO
    test_get_string();
#endif
    test_env();
    return rxt_finish();
}
