// The world watch's C source: fanotify marks on every file system the world scan covers, each change reported as a line.
//
// `world-watch MOUNT…` marks each mount's whole file system (FAN_MARK_FILESYSTEM: every mount and bind of it, whoever
// writes), prints "ready", then one line per change: "<epoch ms> <f|d> <path>", the path of the entry as its directory
// resolves now (open_by_handle_at, readlink) with newlines and backslashes escaped, `d` for a directory made or moved
// into place (its contents were written before, under another name). A file is reported when it is made, moved or
// linked into place, has its attributes changed, or is closed after writing. A queue overflow prints "<ms> overflow",
// a change whose directory it cannot resolve (but for one that is gone) "<ms> lost <why>"; a mount it cannot mark
// prints "error …" and ends. Its own report is not reported. It dies with the harness process
// that started it (PR_SET_PDEATHSIG).
export const WORLD_WATCH_SOURCE = String.raw`#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

/* A file's writes are reported once, when the last reference to its open file goes (close, munmap, exit): a trial's
   processes are all gone before its scan. Not each write: every helper reads every change on the machine. */
#define MASK (FAN_CLOSE_WRITE | FAN_ATTRIB | FAN_CREATE | FAN_MOVED_TO | FAN_ONDIR)

struct fs { fsid_t fsid; int fd; };
static struct fs *fss;
static int nfs;

static int mount_fd_of(const fsid_t *id) {
  for (int i = 0; i < nfs; i++) if (memcmp(&fss[i].fsid, id, sizeof *id) == 0) return fss[i].fd;
  return -1;
}

static void put_escaped(const char *s) {
  for (; *s; s++) {
    if (*s == '\n') fputs("\\n", stdout);
    else if (*s == '\\') fputs("\\\\", stdout);
    else putchar(*s);
  }
}

int main(int argc, char **argv) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 1;
  int fan = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_DFID_NAME | FAN_UNLIMITED_QUEUE | FAN_CLOEXEC, O_RDONLY | O_LARGEFILE);
  if (fan < 0) { printf("error fanotify_init %s\n", strerror(errno)); return 2; }
  fss = calloc(argc, sizeof *fss);
  for (int i = 1; i < argc; i++) {
    int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct statfs st;
    if (fd < 0 || fstatfs(fd, &st) != 0) { printf("error open "); put_escaped(argv[i]); printf(" %s\n", strerror(errno)); return 2; }
    if (fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, MASK, AT_FDCWD, argv[i]) != 0) { printf("error mark "); put_escaped(argv[i]); printf(" %s\n", strerror(errno)); return 2; }
    if (mount_fd_of(&st.f_fsid) >= 0) { close(fd); continue; }
    fss[nfs].fsid = st.f_fsid;
    fss[nfs++].fd = fd;
  }
  pid_t self = getpid();
  printf("ready\n");
  fflush(stdout);
  static char buf[65536] __attribute__((aligned(8)));
  char link[64], dir[PATH_MAX + 1], last[PATH_MAX + NAME_MAX + 4] = "";
  for (;;) {
    ssize_t n = read(fan, buf, sizeof buf);
    if (n < 0) { if (errno == EINTR) continue; printf("error read %s\n", strerror(errno)); return 2; }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long long ms = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
    for (struct fanotify_event_metadata *md = (void *)buf; FAN_EVENT_OK(md, n); md = FAN_EVENT_NEXT(md, n)) {
      if (md->mask & FAN_Q_OVERFLOW) { printf("%lld overflow\n", ms); continue; }
      if (md->pid == self) continue; /* its own report */
      struct fanotify_event_info_fid *fid = (void *)(md + 1);
      if ((char *)fid >= (char *)md + md->event_len || fid->hdr.info_type != FAN_EVENT_INFO_TYPE_DFID_NAME) continue;
      struct file_handle *h = (struct file_handle *)fid->handle;
      const char *name = (const char *)h->f_handle + h->handle_bytes;
      int mfd = mount_fd_of((const fsid_t *)&fid->fsid);
      if (mfd < 0) continue;
      int dfd = open_by_handle_at(mfd, h, O_PATH | O_CLOEXEC);
      if (dfd < 0 && errno == ESTALE) continue; /* its directory is gone, and with it the entry */
      if (dfd < 0) { printf("%lld lost %s\n", ms, strerror(errno)); continue; }
      snprintf(link, sizeof link, "/proc/self/fd/%d", dfd);
      ssize_t len = readlink(link, dir, PATH_MAX);
      close(dfd);
      if (len <= 0) continue;
      dir[len] = 0;
      char kind = (md->mask & FAN_ONDIR) && (md->mask & (FAN_MOVED_TO | FAN_CREATE)) ? 'd' : 'f';
      char path[PATH_MAX + NAME_MAX + 4];
      if (strcmp(name, ".") == 0) snprintf(path, sizeof path, "%c%s", kind, dir);
      else snprintf(path, sizeof path, "%c%s%s%s", kind, dir, strcmp(dir, "/") == 0 ? "" : "/", name);
      if (strcmp(path, last) == 0) continue; /* a write in many syscalls: one report per batch */
      strcpy(last, path);
      printf("%lld %c ", ms, kind);
      put_escaped(path + 1);
      putchar('\n');
    }
    last[0] = 0;
    fflush(stdout);
  }
}
`;
