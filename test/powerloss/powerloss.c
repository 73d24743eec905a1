/*
 * A power cut, simulated for the processes it is preloaded into (LD_PRELOAD): every write to a
 * file under $POWERLOSS_DIR first records what it overwrites (and the file's size), and an
 * fsync/fdatasync of that file forgets its records, since what is synced survives a power cut.
 * When $POWERLOSS_DIR/powercut appears, a watcher thread puts back, newest first, everything
 * written since the file's last sync, and the process ends at once (exit code 137, as SIGKILL):
 * the disk is left as a power cut would leave it when the drive kept only what was synced.
 * Built by test/powerloss/shim.ts; used by test/platform/power-loss.test.ts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef struct undo {
  char path[PATH_MAX];
  off_t offset;
  size_t len;
  char *old;      /* the bytes the write replaced (those that existed), len_old of them */
  size_t len_old;
  off_t old_size; /* the file's size before the write */
  struct undo *prev;
} undo;

static undo *last = NULL;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char dir[PATH_MAX];
static size_t dir_len = 0;
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_ftruncate)(int, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

static int watched(int fd, char *path) {
  if (!dir_len) return 0;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, PATH_MAX - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  return strncmp(path, dir, dir_len) == 0 && path[dir_len] == '/';
}

/* Record what [offset, offset+len) of fd holds now, before it is written over. */
static void remember(int fd, const char *path, off_t offset, size_t len) {
  struct stat st;
  if (fstat(fd, &st) != 0) return;
  undo *u = calloc(1, sizeof *u);
  strcpy(u->path, path);
  u->offset = offset;
  u->len = len;
  u->old_size = st.st_size;
  if (offset < st.st_size) {
    size_t have = (size_t)(st.st_size - offset);
    u->len_old = have < len ? have : len;
    u->old = malloc(u->len_old);
    if (pread(fd, u->old, u->len_old, offset) != (ssize_t)u->len_old) u->len_old = 0;
  }
  u->prev = last;
  last = u;
}

static void forget(const char *path) {
  undo **at = &last;
  while (*at) {
    undo *u = *at;
    if (strcmp(u->path, path) == 0) {
      *at = u->prev;
      free(u->old);
      free(u);
    } else {
      at = &u->prev;
    }
  }
}

static void cut(void) {
  pthread_mutex_lock(&lock); /* held to the end: no write runs again */
  for (undo *u = last; u; u = u->prev) {
    int fd = open(u->path, O_WRONLY);
    if (fd < 0) continue;
    if (u->len_old) real_pwrite(fd, u->old, u->len_old, u->offset);
    real_ftruncate(fd, u->old_size);
    close(fd);
  }
  _exit(137);
}

static void *watch(void *arg) {
  (void)arg;
  char trigger[PATH_MAX];
  snprintf(trigger, sizeof trigger, "%s/powercut", dir);
  for (;;) {
    if (access(trigger, F_OK) == 0) cut();
    usleep(1000);
  }
  return NULL;
}

__attribute__((constructor)) static void init(void) {
  real_pwrite = dlsym(RTLD_NEXT, "pwrite64");
  real_write = dlsym(RTLD_NEXT, "write");
  real_ftruncate = dlsym(RTLD_NEXT, "ftruncate64");
  real_fsync = dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  const char *d = getenv("POWERLOSS_DIR");
  if (!d || !realpath(d, dir)) return;
  dir_len = strlen(dir);
  pthread_t t;
  pthread_create(&t, NULL, watch, NULL);
  pthread_detach(t);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t offset) {
  char path[PATH_MAX];
  if (!watched(fd, path)) return real_pwrite(fd, buf, len, offset);
  pthread_mutex_lock(&lock);
  remember(fd, path, offset, len);
  ssize_t n = real_pwrite(fd, buf, len, offset);
  pthread_mutex_unlock(&lock);
  return n;
}
ssize_t pwrite(int fd, const void *buf, size_t len, off_t offset) { return pwrite64(fd, buf, len, offset); }

ssize_t write(int fd, const void *buf, size_t len) {
  char path[PATH_MAX];
  if (!watched(fd, path)) return real_write(fd, buf, len);
  pthread_mutex_lock(&lock);
  off_t at = lseek(fd, 0, SEEK_CUR);
  if (at >= 0) remember(fd, path, at, len);
  ssize_t n = real_write(fd, buf, len);
  pthread_mutex_unlock(&lock);
  return n;
}

int ftruncate64(int fd, off_t size) {
  char path[PATH_MAX];
  if (!watched(fd, path)) return real_ftruncate(fd, size);
  pthread_mutex_lock(&lock);
  struct stat st;
  /* What a shrink cuts off is remembered as a write over it; a growth as a write of nothing. */
  if (fstat(fd, &st) == 0) remember(fd, path, size, st.st_size > size ? (size_t)(st.st_size - size) : 0);
  int r = real_ftruncate(fd, size);
  pthread_mutex_unlock(&lock);
  return r;
}
int ftruncate(int fd, off_t size) { return ftruncate64(fd, size); }

static int synced(int fd, int (*real)(int)) {
  char path[PATH_MAX];
  int w = watched(fd, path);
  if (w) pthread_mutex_lock(&lock);
  int r = real(fd);
  if (w) {
    if (r == 0) forget(path);
    pthread_mutex_unlock(&lock);
  }
  return r;
}
int fsync(int fd) { return synced(fd, real_fsync); }
int fdatasync(int fd) { return synced(fd, real_fdatasync); }
