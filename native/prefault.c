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
// Where a page is touched matters as much: a first write to a page the kernel has already made
// present still cost ~8.4 µs per 4 KiB page here, against ~0.04 µs in a transparent huge page
// (2 MiB) made present the same way (the hypervisor maps a huge page at once). So where it can, the
// start's memory is made present as huge pages.
//
// What, for the first WINDOW_MS after the process starts only (a thread of its own closes the
// window on time), and nothing after:
// - V8's heap pages (256 KiB each, which V8 places at random addresses, each its own mapping) are
//   handed out next to one another from an arena of ARENA_MB, 2 MiB aligned and marked
//   MADV_HUGEPAGE. When V8 makes a page of it writable, the whole 2 MiB block around it is made
//   writable and present at once, so the block is one huge page; the pages V8 asks for next come
//   from the same block. V8's page requests are recognised exactly (v8_piece) and nothing else is
//   served from the arena; when it is used up, or after the window, V8 maps its pages itself again.
// - every other mprotect() that makes 64 KiB-4 MiB writable is followed by
//   madvise(MADV_POPULATE_WRITE) of that range: the pages V8 is about to fill are made present at
//   once;
// - at load, malloc's heap is grown by HEAP_MB in blocks below bin/powder's mmap threshold, marked
//   MADV_HUGEPAGE, made present, and freed, with the trim threshold raised until the window ends so
//   that free() keeps those pages: Node's copy of the snapshot and the start's other allocations
//   reuse them.
// When the window closes the arena and the heap's range are marked MADV_NOHUGEPAGE, so that the
// kernel's khugepaged does not gather more of them into huge pages later (a heap made of huge pages
// for the node's whole life raised the bench's peak RSS; docs/performance.md, session 43).
// Nothing changes what memory holds (a populated page is the zero page a fault would have mapped),
// and an madvise that the kernel refuses (before Linux 5.14, or without transparent huge pages) is
// ignored: the pages are then made present as 4 KiB pages, or on first touch. LD_PRELOAD is removed
// from the environment at load, so no process the node starts inherits it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum {
  WINDOW_MS = 400,
  HEAP_MB = 8,
  BLOCK_MB = 4,
  TRIM_DURING_WINDOW = 64 << 20,
  GLIBC_TRIM_DEFAULT = 128 * 1024,
  HUGE = 2 << 20,         // a transparent huge page on x86-64
  ARENA_MB = 24,          // a start's V8 heap is ~10 MiB
  V8_PAGE = 256 << 10,    // V8's page size and alignment (kPageSize)
  V8_SLACK = V8_PAGE - 4096,  // what V8 maps beyond a page to cut an aligned one out of it
  V8_PIECE_MAX = 4 << 20, // a large-object page up to this size is served too
  PENDING = 16,           // pieces handed out whose trailing slack V8 has not yet unmapped
};

static int (*real_mprotect)(void *, size_t, int);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static int window_open;      // set at load; cleared once WINDOW_MS have passed
static int trim_raised;      // the trim threshold is raised until the window closes
static struct timespec loaded_at;
static uintptr_t heap_huge_from, heap_huge_to; // the part of malloc's heap marked MADV_HUGEPAGE

// The arena for V8's pages: [arena_from, arena_to), handed out from arena_next upwards.
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t arena_from, arena_to, arena_next;
static uint32_t arena_blocks_made; // a bit per HUGE block already made writable and present
_Static_assert((ARENA_MB << 20) / HUGE <= 32, "a bit per block in arena_blocks_made");
static uintptr_t pending_slack[PENDING];

static void close_window(void) {
  if (!__atomic_exchange_n(&window_open, 0, __ATOMIC_RELAXED)) return;
  // Raised only where the user set no trim threshold of their own (populate_heap): glibc's default.
  if (trim_raised) mallopt(M_TRIM_THRESHOLD, GLIBC_TRIM_DEFAULT);
  // The huge pages made stay; khugepaged makes no more here.
  if (heap_huge_to > heap_huge_from) madvise((void *)heap_huge_from, heap_huge_to - heap_huge_from, MADV_NOHUGEPAGE);
  if (arena_to > arena_from) madvise((void *)arena_from, arena_to - arena_from, MADV_NOHUGEPAGE);
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

/** Closes the window on time even if the process makes no more calls that come through here. */
static void *window_closer(void *unused) {
  (void)unused;
  struct timespec at = loaded_at;
  at.tv_sec += WINDOW_MS / 1000;
  at.tv_nsec += (long)(WINDOW_MS % 1000) * 1000000;
  if (at.tv_nsec >= 1000000000) at.tv_sec++, at.tv_nsec -= 1000000000;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {}
  close_window();
  return NULL;
}

static void resolve(void) {
  if (!real_mprotect) real_mprotect = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "mprotect");
  if (!real_mmap) real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap64");
  if (!real_munmap) real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
}

/** Reserves the arena: ARENA_MB, HUGE-aligned, inaccessible until V8 makes pages of it writable. */
static void make_arena(void) {
  size_t size = (size_t)ARENA_MB << 20;
  char *p = real_mmap(NULL, size + HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;
  uintptr_t from = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1), end = (uintptr_t)p + size + HUGE;
  if (from > (uintptr_t)p) real_munmap(p, from - (uintptr_t)p);
  if (end > from + size) real_munmap((void *)(from + size), end - (from + size));
  madvise((void *)from, size, MADV_HUGEPAGE);
  // V8 marks each of its pages MADV_DONTFORK (not copied into a forked child); marked so whole, the
  // arena stays one mapping instead of splitting at every page V8 marks.
  madvise((void *)from, size, MADV_DONTFORK);
  arena_from = arena_next = from;
  arena_to = from + size;
}

/** The size of the page V8 asks for with this mmap, or 0: V8 maps `size + V8_SLACK` bytes with no
 * access to cut a V8_PAGE-aligned page out of them, then unmaps what lies before and after it. */
static size_t v8_piece(size_t len, int prot, int flags, int fd) {
  if (prot != PROT_NONE || fd != -1 || flags != (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)) return 0;
  if (len <= V8_SLACK || len - V8_SLACK > V8_PIECE_MAX || (len - V8_SLACK) % 4096) return 0;
  return len - V8_SLACK;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  resolve();
  size_t piece = arena_to ? v8_piece(len, prot, flags, fd) : 0;
  if (piece && in_window()) {
    void *got = NULL;
    pthread_mutex_lock(&arena_lock);
    // An aligned address: V8 then unmaps only the slack after the piece, which the arena keeps.
    size_t step = (piece + V8_PAGE - 1) & ~(size_t)(V8_PAGE - 1);
    if (arena_next + len <= arena_to) {
      for (int i = 0; i < PENDING; i++) {
        if (pending_slack[i]) continue;
        got = (void *)arena_next;
        pending_slack[i] = arena_next + piece;
        arena_next += step;
        break;
      }
    }
    pthread_mutex_unlock(&arena_lock);
    if (got) return got; // already mapped: part of the arena's reservation, no access, zero
  }
  return real_mmap(addr, len, prot, flags, fd, off);
}

// Node.js built with 64-bit file offsets calls mmap64; glibc's mmap is the same function.
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) __attribute__((alias("mmap64")));

int munmap(void *addr, size_t len) {
  resolve();
  if (len == V8_SLACK && (uintptr_t)addr >= arena_from && (uintptr_t)addr < arena_to) {
    int slack = 0;
    pthread_mutex_lock(&arena_lock);
    for (int i = 0; i < PENDING; i++) {
      if (pending_slack[i] != (uintptr_t)addr) continue;
      pending_slack[i] = 0;
      slack = 1;
      break;
    }
    pthread_mutex_unlock(&arena_lock);
    if (slack) return 0; // the slack after a piece: the arena's next piece starts in it
  }
  return real_munmap(addr, len);
}

/** Makes each HUGE block of the arena that [addr, addr + len) touches writable and present, once. */
static void make_blocks(uintptr_t addr, size_t len) {
  pthread_mutex_lock(&arena_lock);
  for (uintptr_t block = addr & ~(uintptr_t)(HUGE - 1); block < addr + len && block < arena_to; block += HUGE) {
    uint32_t bit = 1u << ((block - arena_from) / HUGE);
    if (arena_blocks_made & bit) continue;
    arena_blocks_made |= bit;
    // Writable beyond the page V8 asked for: the rest of the block is the pages it asks for next.
    if (real_mprotect((void *)block, HUGE, PROT_READ | PROT_WRITE) == 0) madvise((void *)block, HUGE, MADV_POPULATE_WRITE);
  }
  pthread_mutex_unlock(&arena_lock);
}

// Calls from inside glibc (malloc's own heaps) do not come through here; V8's and Node's do.
int mprotect(void *addr, size_t len, int prot) {
  resolve();
  if (!real_mprotect) {
    errno = ENOSYS;
    return -1;
  }
  int r = real_mprotect(addr, len, prot);
  if (r == 0 && (prot & PROT_WRITE) && len >= (64 << 10) && len <= (4 << 20) && in_window()) {
    int saved = errno;
    if ((uintptr_t)addr >= arena_from && (uintptr_t)addr < arena_to) make_blocks((uintptr_t)addr, len);
    else madvise(addr, len, MADV_POPULATE_WRITE);
    errno = saved;
  }
  return r;
}

/** Grows malloc's heap by HEAP_MB, present (in huge pages where aligned), and leaves it free for what the start allocates. */
static void populate_heap(void) {
  // A block at or above the mmap threshold would be a mapping of its own, unmapped again by free().
  const char *threshold = getenv("MALLOC_MMAP_THRESHOLD_");
  if (!threshold || atol(threshold) < (long)BLOCK_MB << 20) return;
  const char *user_trim = getenv("MALLOC_TRIM_THRESHOLD_");
  if (user_trim && *user_trim) return; // the user's own setting stays as it is
  mallopt(M_TRIM_THRESHOLD, TRIM_DURING_WINDOW);
  trim_raised = 1;
  const size_t size = (size_t)BLOCK_MB << 20;
  char *blocks[HEAP_MB / BLOCK_MB];
  int n = 0;
  while (n < HEAP_MB / BLOCK_MB && (blocks[n] = malloc(size))) n++;
  if (n == 0) return;
  // The blocks lie one after the other at the heap's top: the huge pages may span them.
  uintptr_t lo = (uintptr_t)blocks[0], hi = (uintptr_t)blocks[0] + size;
  for (int i = 1; i < n; i++) {
    if ((uintptr_t)blocks[i] < lo) lo = (uintptr_t)blocks[i];
    if ((uintptr_t)blocks[i] + size > hi) hi = (uintptr_t)blocks[i] + size;
  }
  if (hi - lo <= (size_t)n * (size + 4096)) {
    uintptr_t from = (lo + HUGE - 1) & ~(uintptr_t)(HUGE - 1), to = hi & ~(uintptr_t)(HUGE - 1);
    if (to > from && madvise((void *)from, to - from, MADV_HUGEPAGE) == 0) heap_huge_from = from, heap_huge_to = to;
  }
  for (int i = 0; i < n; i++) {
    uintptr_t from = ((uintptr_t)blocks[i] + 4095) & ~(uintptr_t)4095, to = ((uintptr_t)blocks[i] + size) & ~(uintptr_t)4095;
    if (to > from) madvise((void *)from, to - from, MADV_POPULATE_WRITE);
  }
  while (n > 0) free(blocks[--n]);
}

__attribute__((constructor)) static void prefault_init(void) {
  // Only the node itself: bin/powder sets LD_PRELOAD for the exec of dist/powder-node.
  extern char *program_invocation_short_name;
  if (strcmp(program_invocation_short_name, "powder-node") != 0) return;
  unsetenv("LD_PRELOAD");
  resolve();
  if (!real_mprotect || !real_mmap || !real_munmap) return;
  clock_gettime(CLOCK_MONOTONIC, &loaded_at);
  window_open = 1;
  make_arena();
  populate_heap();
  pthread_attr_t attr;
  pthread_t closer;
  if (pthread_attr_init(&attr) == 0) {
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 << 10);
    pthread_create(&closer, &attr, window_closer, NULL);
    pthread_attr_destroy(&attr);
  }
}
