// dist/prefault.so: bin/powder preloads it (LD_PRELOAD) into dist/powder-node, the single executable
// with the start-up snapshot inside, to make the memory a start writes present in bulk instead of
// one page fault at a time.
//
// Why: on the virtual machines Powder is measured on (docs/benchmarks.md), a page fault costs ~13-18
// µs, nearly all of it the trap itself: writing one byte to each page of a fresh 40 MiB mapping took
// 18.2 µs per page, the same pages made present by one madvise(MADV_POPULATE_WRITE) 1.5 µs per page.
// A start takes ~5,300 faults before its first answer, most of them V8 writing the restored heap
// into pages it has just made writable and Node copying the snapshot into malloc's heap
// (docs/performance.md, session 47).
//
// What, for the first WINDOW_MS after the process starts only, and nothing after:
// - every mprotect() that makes 64 KiB-4 MiB writable (V8 commits its heap pages so) is followed by
//   madvise(MADV_POPULATE_WRITE) of that range: the pages V8 is about to fill are made present at
//   once;
// - at load, malloc's heap is grown by HEAP_MB in blocks below bin/powder's mmap threshold, made
//   present, and freed, with the trim threshold raised until the window ends so that free() keeps
//   those pages: Node's copy of the snapshot and the start's other allocations reuse them.
// Nothing changes what memory holds (a populated page is the zero page a fault would have mapped),
// and an madvise that the kernel refuses (before Linux 5.14) is ignored. LD_PRELOAD is removed
// from the environment at load, so no process the node starts inherits it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { WINDOW_MS = 400, HEAP_MB = 12, BLOCK_MB = 6, TRIM_DURING_WINDOW = 64 << 20, GLIBC_TRIM_DEFAULT = 128 * 1024 };

static int (*real_mprotect)(void *, size_t, int);
static int window_open;      // set at load; cleared once WINDOW_MS have passed
static int trim_raised;      // the trim threshold is raised until the window closes
static struct timespec loaded_at;

static void close_window(void) {
  if (!__atomic_exchange_n(&window_open, 0, __ATOMIC_RELAXED)) return;
  // Raised only where the user set no trim threshold of their own (populate_heap): glibc's default.
  if (trim_raised) mallopt(M_TRIM_THRESHOLD, GLIBC_TRIM_DEFAULT);
}

static int in_window(void) {
  if (!__atomic_load_n(&window_open, __ATOMIC_RELAXED)) return 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long ms = (now.tv_sec - loaded_at.tv_sec) * 1000 + (now.tv_nsec - loaded_at.tv_nsec) / 1000000;
  if (ms <= WINDOW_MS) return 1;
  close_window();
  return 0;
}

// Calls from inside glibc (malloc's own heaps) do not come through here; V8's and Node's do.
int mprotect(void *addr, size_t len, int prot) {
  if (!real_mprotect) real_mprotect = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "mprotect");
  if (!real_mprotect) {
    errno = ENOSYS;
    return -1;
  }
  int r = real_mprotect(addr, len, prot);
  if (r == 0 && (prot & PROT_WRITE) && len >= (64 << 10) && len <= (4 << 20) && in_window()) {
    int saved = errno;
    madvise(addr, len, MADV_POPULATE_WRITE);
    errno = saved;
  }
  return r;
}

/** Grows malloc's heap by HEAP_MB, present, and leaves it free for what the start allocates. */
static void populate_heap(void) {
  // A block at or above the mmap threshold would be a mapping of its own, unmapped again by free().
  const char *threshold = getenv("MALLOC_MMAP_THRESHOLD_");
  if (!threshold || atol(threshold) < (long)BLOCK_MB << 20) return;
  const char *user_trim = getenv("MALLOC_TRIM_THRESHOLD_");
  if (user_trim && *user_trim) return; // the user's own setting stays as it is
  mallopt(M_TRIM_THRESHOLD, TRIM_DURING_WINDOW);
  trim_raised = 1;
  char *blocks[HEAP_MB / BLOCK_MB];
  int n = 0;
  for (; n < HEAP_MB / BLOCK_MB; n++) {
    size_t size = (size_t)BLOCK_MB << 20;
    char *p = malloc(size);
    if (!p) break;
    blocks[n] = p;
    uintptr_t from = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, to = ((uintptr_t)p + size) & ~(uintptr_t)4095;
    if (to > from) madvise((void *)from, to - from, MADV_POPULATE_WRITE);
  }
  while (n > 0) free(blocks[--n]);
}

__attribute__((constructor)) static void prefault_init(void) {
  // Only the node itself: bin/powder sets LD_PRELOAD for the exec of dist/powder-node.
  extern char *program_invocation_short_name;
  if (strcmp(program_invocation_short_name, "powder-node") != 0) return;
  unsetenv("LD_PRELOAD");
  clock_gettime(CLOCK_MONOTONIC, &loaded_at);
  window_open = 1;
  populate_heap();
}
