// The C source of a preload library ejc puts in front of libfaketime: sleeps on a real (monotonic) clock stay real.
//
// libfaketime (0.9.10, Debian's) rewrites the deadline of clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, …) by the
// fake offset even with FAKETIME_DONT_FAKE_MONOTONIC=1, so a deadline taken from the real monotonic clock turns negative
// and the call fails with EINVAL: CPython's time.sleep (which sleeps that way) raised "OSError: [Errno 22] Invalid
// argument" in every driver started on a moved clock, and a correct journal that waited for its lock so was failed.
// This library answers clock_nanosleep on every clock but the wall clocks with the kernel's own call; a sleep on a
// wall clock still goes to libfaketime, which moves its deadline with the wall clock it fakes.
export const SLEEP_FIX_SOURCE = String.raw`#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int (*next_clock_nanosleep)(clockid_t, int, const struct timespec *, struct timespec *);

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request, struct timespec *remain) {
  if (clock != CLOCK_REALTIME && clock != CLOCK_REALTIME_ALARM && clock != CLOCK_TAI) {
    /* clock_nanosleep answers an error number, not -1 and errno. */
    return syscall(SYS_clock_nanosleep, clock, flags, request, remain) == 0 ? 0 : errno;
  }
  if (next_clock_nanosleep == NULL) next_clock_nanosleep = dlsym(RTLD_NEXT, "clock_nanosleep");
  if (next_clock_nanosleep == NULL) return ENOSYS;
  return next_clock_nanosleep(clock, flags, request, remain);
}
`;
