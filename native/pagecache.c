// dist/pagecache: `pagecache <file> [<from>-<to> ...]` puts the given byte ranges of a file (2 MiB
// aligned) into the page cache as 2 MiB folios, and prints how many KiB of them a mapping of the file
// maps with huge-page entries (FilePmdMapped). With no range it only maps the whole file, reads it,
// and prints that. scripts/prefault.mjs runs it at the build on the hot parts of dist/powder-node's
// code.
//
// Why: every process that maps a file whose page cache holds 2 MiB folios at 2 MiB-aligned offsets
// maps them with one huge-page entry each, instead of one 4 KiB entry a page (Linux 6.x filesystems
// with large folios, ext4 among them; the executable's segments are mapped at addresses congruent to
// their offsets modulo 2 MiB). On this project's VM a first touch of a file page cost ~1.8 µs, of a
// page in such a folio ~0.08 µs (docs/performance.md, session 48). The kernel makes such folios when
// it reads the file for a mapping marked MADV_HUGEPAGE, so the ranges are dropped from the cache
// first (after fdatasync: dirty pages are not dropped) and read back so. Where the kernel cannot, the
// ranges are read back in small folios and nothing changes.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

enum { HUGE = 2 << 20 };

/** FilePmdMapped (KiB) summed over the mappings in [from, to) (madvise splits one into several), from /proc/self/smaps. */
static long pmd_mapped_kib(uintptr_t from, uintptr_t to) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  char line[512];
  int in = 0;
  long kib = 0, n;
  while (fgets(line, sizeof line, f)) {
    uintptr_t start, end;
    if (sscanf(line, "%lx-%lx ", &start, &end) == 2) { // a mapping's first line; its fields follow
      in = start >= from && start < to;
      continue;
    }
    if (in && sscanf(line, "FilePmdMapped: %ld kB", &n) == 1) kib += n;
  }
  fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: pagecache <file> [<from>-<to> ...]\n");
    return 2;
  }
  int fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < HUGE) {
    perror(argv[1]);
    return 1;
  }
  size_t size = (size_t)st.st_size;
  // An address 2 MiB aligned, as file offset 0 is: then aligned offsets are aligned addresses.
  char *reserved = mmap(NULL, size + HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) return 1;
  char *at = (char *)(((uintptr_t)reserved + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
  char *map = mmap(at, size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
  if (map == MAP_FAILED) return 1;
  if (argc > 2) fdatasync(fd);
  for (int i = 2; i < argc; i++) {
    unsigned long from, to;
    if (sscanf(argv[i], "%lu-%lu", &from, &to) != 2 || from % HUGE || to <= from) {
      fprintf(stderr, "pagecache: bad range %s\n", argv[i]);
      return 2;
    }
    if (to > size) to = size;
    if (to <= from) continue; // beyond the end of the file
    posix_fadvise(fd, (off_t)from, (off_t)(to - from), POSIX_FADV_DONTNEED);
    madvise(map + from, to - from, MADV_HUGEPAGE);
    madvise(map + from, to - from, MADV_POPULATE_READ);
  }
  if (argc == 2) madvise(map, size, MADV_POPULATE_READ);
  printf("%ld\n", pmd_mapped_kib((uintptr_t)map, (uintptr_t)map + size));
  return 0;
}
