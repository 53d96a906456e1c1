/* LD_PRELOAD shim for bench/cost.py: the wall clock stands still, monotonic clocks run.
 *
 * CLOCK_REALTIME (and its _COARSE form) from clock_gettime, gettimeofday and time all answer one
 * instant: FROZEN_CLOCK_SECONDS from the environment, else 2026-01-01T00:00:00Z. Formatting a
 * message's PutDate/PutTime once per 1/100 s then costs the same in every run, so two runs of
 * the same work count the same instructions. Every other clock id goes to the C library.
 *
 * Built by bench/cost.py: gcc -O2 -shared -fPIC -o frozen_clock.so frozen_clock.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static time_t frozen_seconds(void) {
    static time_t seconds = -1;
    if (seconds < 0) {
        const char *text = getenv("FROZEN_CLOCK_SECONDS");
        seconds = text && *text ? (time_t)strtoll(text, NULL, 10) : (time_t)1767225600;
    }
    return seconds;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
        ts->tv_sec = frozen_seconds();
        ts->tv_nsec = 0;
        return 0;
    }
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id, ts);
}

int gettimeofday(struct timeval *tv, void *tz) {
    (void)tz;
    tv->tv_sec = frozen_seconds();  /* glibc declares tv non-null */
    tv->tv_usec = 0;
    return 0;
}

time_t time(time_t *out) {
    time_t now = frozen_seconds();
    if (out)
        *out = now;
    return now;
}
