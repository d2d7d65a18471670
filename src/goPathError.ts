import { statSync } from 'node:fs';
import { dirname } from 'node:path';

// Go's *fs.PathError text for a Node fs error: `<op> <path>: <errno text>`, e.g.
// `open /x: no such file or directory`. AvalancheGo and geth report file errors this way, so every
// API that touches files (plugin dir, key directory, profiles, block files) words them alike.

/** Go's syscall.Errno texts (Linux) for the errors file operations return. */
const GO_ERRNO: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'file exists',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in system',
  ENXIO: 'no such device or address',
  ETXTBSY: 'text file busy',
  EBUSY: 'device or resource busy',
  EINVAL: 'invalid argument',
  EIO: 'input/output error',
};

/**
 * `op` names the Go call (open, stat, mkdir, …); a Node error from an open, read or stat system
 * call names its own, as Go's does. An errno without a Go text keeps Node's description.
 */
export function goPathError(op: string, path: string, e: unknown): string {
  const err = e as NodeJS.ErrnoException | undefined;
  const code = err?.code;
  const text = (code && GO_ERRNO[code]) ?? (err instanceof Error ? err.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '') : String(e));
  const call = err?.syscall === 'open' || err?.syscall === 'read' || err?.syscall === 'stat' ? err.syscall : op;
  return `${call} ${path}: ${text}`;
}

/**
 * os.MkdirAll's error: where the path or one of its parents is a file, Go names the first such
 * one it finds (`mkdir /a/file: not a directory`), where Node names the whole path.
 */
export function goMkdirAllError(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    // Go stats the path, then each parent in turn: the first that exists decides.
    for (let p = path; ; ) {
      let isDir: boolean | undefined;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        isDir = undefined;
      }
      if (isDir === false) return `mkdir ${p}: not a directory`;
      const up = dirname(p);
      if (isDir === true || up === p) break;
      p = up;
    }
  }
  return goPathError('mkdir', path, e);
}
