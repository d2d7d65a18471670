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
