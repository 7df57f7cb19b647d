/* SPDX-License-Identifier: MIT
 * Some libraries that libfabric's providers pull in (the PSM libraries)
 * install handlers for fatal signals when they are loaded: a crashing rank
 * then prints their backtrace and exits with status 1, so the launcher can no
 * longer tell a segmentation fault from an ordinary exit. Their constructors
 * run before ours and before main, so any such handler present now belongs
 * to a library; we remove the ones that live in those libraries and leave
 * every other handler (the program installs its own later, in main). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>

__attribute__((constructor)) static void rx_signals_reclaim(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        Dl_info info;
        if (sigaction(sigs[i], NULL, &sa) != 0 || sa.sa_handler == SIG_DFL ||
            sa.sa_handler == SIG_IGN)
            continue;
        void *fn = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
        if (!dladdr(fn, &info) || !info.dli_fname)
            continue;
        if (strstr(info.dli_fname, "libpsm") || strstr(info.dli_fname, "infinipath")) {
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            sigaction(sigs[i], &dfl, NULL);
        }
    }
}
