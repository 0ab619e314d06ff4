// The C source of the wall-clock shim ejc builds when libfaketime is not installed: FAKETIME=+Nh moves CLOCK_REALTIME.

/**
 * A preload library that adds the offset named by FAKETIME (libfaketime's relative form: `+25h`, `-90m`, `+2d`,
 * `+30s` or plain seconds) to every wall-clock read: clock_gettime on the realtime clocks, gettimeofday, time and
 * timespec_get. Monotonic and CPU clocks stay real, as FAKETIME_DONT_FAKE_MONOTONIC asks of libfaketime, so a
 * driver's timeouts never jump. Node (V8), CPython, the JVM and SQLite read the wall clock through these calls
 * (a statically linked Go binary reads the vDSO directly, out of reach of libfaketime too).
 */
export const CLOCK_SHIM_SOURCE = String.raw`#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <sys/time.h>

static long long offset_ns;
static int ready;
static int (*real_clock_gettime)(clockid_t, struct timespec *);

static void init(void) {
  if (ready) return;
  real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  const char *v = getenv("FAKETIME");
  if (v && (v[0] == '+' || v[0] == '-')) {
    char *end = 0;
    double n = strtod(v + 1, &end);
    double unit = 1;
    if (end && *end == 'm') unit = 60;
    else if (end && *end == 'h') unit = 3600;
    else if (end && *end == 'd') unit = 86400;
    offset_ns = (long long)(n * unit * 1e9) * (v[0] == '-' ? -1 : 1);
  }
  ready = 1;
}

static int wall(clockid_t c) {
  return c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE
#ifdef CLOCK_REALTIME_ALARM
    || c == CLOCK_REALTIME_ALARM
#endif
#ifdef CLOCK_TAI
    || c == CLOCK_TAI
#endif
    ;
}

int clock_gettime(clockid_t c, struct timespec *ts) {
  init();
  if (!real_clock_gettime) return -1;
  int r = real_clock_gettime(c, ts);
  if (r == 0 && ts && wall(c) && offset_ns != 0) {
    long long t = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ns;
    ts->tv_sec = t / 1000000000LL;
    ts->tv_nsec = t % 1000000000LL;
  }
  return r;
}

int gettimeofday(struct timeval *tv, void *tz) {
  struct timespec ts;
  (void)tz;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return -1;
  if (tv) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  return 0;
}

time_t time(time_t *out) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out) *out = ts.tv_sec;
  return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base) {
  if (base != TIME_UTC || clock_gettime(CLOCK_REALTIME, ts) != 0) return 0;
  return base;
}
`;
