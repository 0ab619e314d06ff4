// The C source of the hidden-bytes reader: extended attributes and System V objects, which Node has no binding for.
//
// `hidden-read [-m SHMID SIZE]… [-q MSQID]…` reads NUL-terminated paths on stdin and prints one line per value found:
// "x <path> <name> <value>" for each extended attribute of each path (links not followed), "s <id> <bytes>" for each
// shared memory segment (attached read-only), "q <id> <bytes>" for each message queue (its messages copied in order
// with MSG_COPY, left in the queue), fields tab-separated and hex-encoded; "u <what>" names what it could not read.
export const HIDDEN_READ_SOURCE = String.raw`#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <sys/xattr.h>

static void hex(const unsigned char *p, size_t n) {
  static const char d[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) { putchar(d[p[i] >> 4]); putchar(d[p[i] & 15]); }
}

static void *grow(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (q == NULL) { perror("hidden-read"); exit(2); }
  return q;
}

static void xattrs(const char *path) {
  ssize_t n = llistxattr(path, NULL, 0);
  if (n <= 0) return;
  char *names = grow(NULL, (size_t)n);
  n = llistxattr(path, names, (size_t)n);
  for (char *name = names; n > 0 && name < names + n; name += strlen(name) + 1) {
    ssize_t v = lgetxattr(path, name, NULL, 0);
    if (v < 0) continue;
    unsigned char *value = grow(NULL, (size_t)v);
    v = lgetxattr(path, name, value, (size_t)v);
    if (v >= 0) {
      fputs("x\t", stdout); hex((const unsigned char *)path, strlen(path));
      putchar('\t'); hex((const unsigned char *)name, strlen(name));
      putchar('\t'); hex(value, (size_t)v); putchar('\n');
    }
    free(value);
  }
  free(names);
}

static void segment(int id, size_t size) {
  void *at = shmat(id, NULL, SHM_RDONLY);
  if (at == (void *)-1) { printf("u\tSystem V shared memory segment %d\n", id); return; }
  printf("s\t%d\t", id); hex(at, size); putchar('\n');
  shmdt(at);
}

static void queue(int id) {
  struct { long mtype; char mtext[65536]; } *m = grow(NULL, sizeof *m);
  long n = 0;
  int err = 0;
  printf("q\t%d\t", id);
  for (;;) {
    ssize_t r = msgrcv(id, m, sizeof m->mtext, n, MSG_COPY | IPC_NOWAIT);
    if (r < 0) { err = errno; break; }
    hex((const unsigned char *)m->mtext, (size_t)r);
    n++;
  }
  putchar('\n');
  if (n == 0 && err != ENOMSG && err != ENOENT) printf("u\tSystem V message queue %d\n", id);
  free(m);
}

int main(int argc, char **argv) {
  size_t cap = 1 << 16, len = 0, got;
  char *in = grow(NULL, cap);
  while ((got = fread(in + len, 1, cap - len, stdin)) > 0) {
    len += got;
    if (len == cap) in = grow(in, cap *= 2);
  }
  for (size_t at = 0; at < len;) {
    size_t end = at;
    while (end < len && in[end] != '\0') end++;
    if (end == len) break;
    xattrs(in + at);
    at = end + 1;
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-m") == 0 && i + 2 < argc) { segment(atoi(argv[i + 1]), strtoull(argv[i + 2], NULL, 10)); i += 2; }
    else if (strcmp(argv[i], "-q") == 0 && i + 1 < argc) queue(atoi(argv[++i]));
  }
  return fflush(stdout) == 0 ? 0 : 1;
}
`;
