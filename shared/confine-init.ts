// The confinement wrapper as one small C program: what unshare, a shell, mount and setpriv did in four execs, at one.
import { nativeBinary } from './native-build.js';

/**
 * The compiled wrapper, or null where it cannot be had (no cc, a read-only install, a failed build): confinement then
 * keeps the util-linux chain, which does the same (shared/native-build.ts). `EJC_CONFINE_INIT=sh` keeps the util-linux
 * chain (how the tests show both).
 */
export function confineInitBinary(): string | null {
  if (built !== undefined) return built;
  built = process.env['EJC_CONFINE_INIT'] === 'sh' ? null : nativeBinary('confine-init', CONFINE_INIT_SOURCE);
  return built;
}
let built: string | null | undefined;

/**
 * `confine-init DRIVER ARGS…`: new PID and mount namespaces (mounts private, as unshare --mount makes them); the
 * parent waits for the namespace's init and ends as it ended (a signal re-raised, as unshare does); the init dies
 * with the parent (--kill-child's PR_SET_PDEATHSIG), makes the next pid in its namespace follow its own global one
 * (two drivers side by side must not both be pid 1), mounts the namespace's /proc, drops CAP_SYS_ADMIN from its
 * bounding set (setpriv's --bounding-set=-sys_admin) and execs the same shell the util-linux chain ends in, so
 * what a driver reads of its init (/proc/1/cmdline, /proc/1/exe) is a plain /bin/sh either way.
 */
/**
 * The end of the init shell both confinements exec: it starts the driver with the protocol's pipe as its stdin (an
 * asynchronous list's stdin would be /dev/null, so the pipe is handed over through fd 3) and passes on its exit status
 * (137 when it was SIGKILLed). One string for both, so the wrapper and the util-linux chain cannot drift apart.
 */
export const INIT_HANDOFF = 'exec 3<&0 && { "$@" <&3 3<&- & } && exec 3<&- && wait $! 2>/dev/null';

// JSON's string literal is C's for this ASCII text: the C source (and so the wrapper's hashed name) holds the same bytes.
export const CONFINE_INIT_SOURCE = String.raw`#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#define INIT ${JSON.stringify(INIT_HANDOFF)}

int main(int argc, char **argv) {
  if (argc < 2) return 125;
  if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0) return 125;
  if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 125;
  pid_t init = fork();
  if (init < 0) return 125;
  if (init > 0) {
    int st;
    while (waitpid(init, &st, 0) < 0)
      if (errno != EINTR) return 125;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    signal(WTERMSIG(st), SIG_DFL);
    kill(getpid(), WTERMSIG(st));
    return 128 + WTERMSIG(st);
  }
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) _exit(125);
  char stat[64] = {0};
  int fd = open("/proc/self/stat", O_RDONLY);
  if (fd < 0 || read(fd, stat, sizeof stat - 1) <= 0) _exit(125);
  close(fd);
  char *space = strchr(stat, ' ');
  if (space == NULL) _exit(125);
  *space = 0;
  fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
  if (fd < 0 || write(fd, stat, strlen(stat)) < 0) _exit(125);
  close(fd);
  if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) _exit(125);
  if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) != 0) _exit(125);
  char **args = calloc(argc + 4, sizeof *args);
  if (args == NULL) _exit(125);
  args[0] = "/bin/sh";
  args[1] = "-c";
  args[2] = INIT;
  args[3] = "sh";
  for (int i = 1; i < argc; i++) args[i + 3] = argv[i];
  execv("/bin/sh", args);
  _exit(125);
}
`;
