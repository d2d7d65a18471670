// The lock profile in the format the real node writes: Go's legacy text mutex profile
// (runtime/pprof, debug=1), built from the contention records of the node's Mutexes.
//
//   --- mutex:
//   cycles/second=1000000000
//   sampling period=1
//   <cycles> <count> @ <addr> <addr> ...
//   #	<addr>	<function>+<offset>	<file>:<line>
//   ...
//   (blank line)
//
// JavaScript has no program counters or CPU cycles, so: a cycle is one nanosecond of waiting
// (hence cycles/second=1e9), every contention is recorded (sampling period 1), and each distinct
// frame gets a stable made-up address: its function's entry plus the frame's column as offset.
// The top frame names the lock: `Mutex(<name>).acquire`.
import { fileURLToPath } from 'node:url';
import type { ContentionRecord } from './locks.js';

export interface StackFrame {
  function: string;
  file: string;
  line: number;
  column: number;
}

/** Parses V8 `Error().stack` text into frames (the `Error` header line is skipped). */
export function parseStack(stack: string): StackFrame[] {
  const out: StackFrame[] = [];
  for (const raw of stack.split('\n')) {
    const m = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(raw);
    if (!m) continue;
    let file = m[2];
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        /* keep the URL */
      }
    }
    out.push({ function: m[1] ?? '(anonymous)', file, line: Number(m[3]), column: Number(m[4]) });
  }
  return out;
}

const hex = (n: number) => '0x' + n.toString(16);

export function formatLockProfile(records: ContentionRecord[]): string {
  const entries = new Map<string, number>();
  let nextEntry = 0x400000;
  const entryOf = (f: StackFrame) => {
    const key = `${f.function}\0${f.file}`;
    let e = entries.get(key);
    if (e === undefined) {
      e = nextEntry;
      nextEntry += 0x10000;
      entries.set(key, e);
    }
    return e;
  };
  // Heaviest first, as Go sorts by cycles.
  const sorted = [...records].sort((a, b) => (a.totalNs === b.totalNs ? 0 : a.totalNs > b.totalNs ? -1 : 1));
  let s = `--- mutex:\ncycles/second=1000000000\nsampling period=1\n`;
  for (const r of sorted) {
    const frames = parseStack(r.stack);
    // Addresses come from the code location, so one call site has one address whatever the lock.
    const pcs = frames.map((f) => entryOf(f) + f.column);
    if (frames.length && /(^|\.)acquire$/.test(frames[0].function)) frames[0] = { ...frames[0], function: `Mutex(${r.lock}).acquire` };
    s += `${r.totalNs} ${r.count} @${pcs.map((pc) => ' ' + hex(pc)).join('')}\n`;
    frames.forEach((f, i) => {
      s += `#\t${hex(pcs[i])}\t${f.function}+${hex(f.column)}\t${f.file}:${f.line}\n`;
    });
    s += '\n';
  }
  return s;
}
