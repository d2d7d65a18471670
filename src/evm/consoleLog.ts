// Solidity's console.log on the dev chain: calls to the console address (Hardhat's console.sol,
// forge-std's console/console2, all one ABI) are decoded and written to the chain's log, as the
// Hardhat and Anvil nodes print them. Nothing else changes: the address stays an account without
// code (the call costs and returns what it would on Subnet-EVM, where nothing prints), so gas and
// results are those of the real node.
//
// Decoding and formatting are Hardhat's (hardhat-network's consoleLogger, checked against the
// Hardhat 2.29 / EDR node of bench/): the 375 `log(...)` selectors of today's console.sol (log(),
// one int256, uint256, string, bool, address, bytes or bytes1…32 argument, or two to four of
// uint256, string, bool, address); each argument as a string (decimal numbers, `true`/`false`,
// lower-case 0x addresses and bytes, UTF-8 text); then Node's util.format over them, with `%d` and
// `%i` read as `%s` (the numbers may not fit a double). Where Powder differs, on purpose: a call
// whose data does not decode (offsets or lengths past its end) prints nothing rather than a
// partial text; control characters are escaped (`\n`, `\u001b`), so a contract cannot forge or
// colour the log's lines; a line is cut at MAX_LINE characters, and a run keeps MAX_LINES lines.
//
// The hook: EVM._executeCall, the message runner of every CALL and STATICCALL frame (and of the
// top frame), checks the message's target against the console address — one byte comparison for
// any other frame — and hands a matching call's data to the EVM's sink, when a run installed one
// (`setConsole`). Payloads are decoded at once: a CALL's data is a view into the caller's
// memory, which the caller may overwrite later.
import { format } from 'node:util';
import { EVM } from '@ethereumjs/evm';
import { keccak256 } from './crypto.js';
import { hex0x } from '../hexOf.js';

/** 0x000000000000000000636F6e736F6c652e6c6f67 ("console.log" in ASCII). */
export const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67';
const CONSOLE_BYTES = Buffer.from(CONSOLE_ADDRESS.slice(2), 'hex');

/** Lines kept per run (a tx or a call); the rest are counted. */
export const MAX_LINES = 1000;
/** Characters kept per line. */
export const MAX_LINE = 8192;

/** What one run printed. */
export class ConsoleSink {
  readonly lines: string[] = [];
  /** Lines past MAX_LINES, not kept. */
  dropped = 0;

  add(data: Uint8Array): void {
    const line = consoleLine(data);
    if (line === undefined) return;
    if (this.lines.length < MAX_LINES) this.lines.push(line);
    else this.dropped++;
  }
}

type ArgType = 'uint256' | 'int256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`;

let signatures: Map<number, readonly ArgType[]> | undefined;

/** The selectors of console.sol's `log(...)` functions and their argument types (built on first use). */
export function consoleSignatures(): Map<number, readonly ArgType[]> {
  if (signatures) return signatures;
  const lists: ArgType[][] = [[]];
  const single: ArgType[] = ['int256', 'uint256', 'string', 'bool', 'address', 'bytes'];
  for (let n = 1; n <= 32; n++) single.push(`bytes${n}`);
  for (const t of single) lists.push([t]);
  const combo: ArgType[] = ['uint256', 'string', 'bool', 'address'];
  const extend = (prefix: ArgType[], left: number) => {
    for (const t of combo) {
      const next = [...prefix, t];
      if (left === 1) lists.push(next);
      else extend(next, left - 1);
    }
  };
  for (let n = 2; n <= 4; n++) extend([], n);
  signatures = new Map();
  for (const types of lists) {
    const h = keccak256(Buffer.from(`log(${types.join(',')})`));
    signatures.set(((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0, types);
  }
  return signatures;
}

/** The 32-byte word at `at` as a number, or undefined if it is past `data` or above 2^32. */
function smallWord(data: Uint8Array, at: number): number | undefined {
  if (at + 32 > data.length) return undefined;
  for (let i = at; i < at + 28; i++) if (data[i] !== 0) return undefined;
  return ((data[at + 28]! << 24) | (data[at + 29]! << 16) | (data[at + 30]! << 8) | data[at + 31]!) >>> 0;
}

/** ABI-decodes `args` (the data after the selector) as `types`, each as Hardhat writes it; undefined if it does not decode. */
export function decodeConsoleArgs(args: Uint8Array, types: readonly ArgType[]): string[] | undefined {
  const out: string[] = [];
  for (let i = 0; i < types.length; i++) {
    const at = i * 32;
    if (at + 32 > args.length) return undefined;
    const word = args.subarray(at, at + 32);
    const t = types[i]!;
    if (t === 'uint256') out.push(BigInt(hex0x(word)).toString(10));
    else if (t === 'int256') out.push(BigInt.asIntN(256, BigInt(hex0x(word))).toString(10));
    else if (t === 'bool') out.push(word[31] !== 0 ? 'true' : 'false');
    else if (t === 'address') out.push(hex0x(word.subarray(12)));
    else if (t === 'string' || t === 'bytes') {
      const offset = smallWord(args, at);
      const length = offset === undefined ? undefined : smallWord(args, offset);
      if (offset === undefined || length === undefined || offset + 32 + length > args.length) return undefined;
      const body = args.subarray(offset + 32, offset + 32 + length);
      out.push(t === 'string' ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') : hex0x(body));
    } else out.push(hex0x(word.subarray(0, Number(t.slice(5)))));
  }
  return out;
}

/** Control characters as JSON writes them (`\n`, `\u001b`): one log entry stays one line. */
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
function escapeControls(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The line a console.log call's data prints, or undefined when it is not one (unknown selector, data that does not decode). */
export function consoleLine(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
  const types = consoleSignatures().get(selector);
  if (types === undefined) return undefined;
  const args = decodeConsoleArgs(data.subarray(4), types);
  if (args === undefined) return undefined;
  // Hardhat: %d and %i after an even run of % (none escaped) become %s.
  if (args.length > 0) args[0] = args[0]!.replace(/((?<!%)(?:%%)*)(%[di])/g, '$1%s');
  let line = escapeControls(format(...args));
  if (line.length > MAX_LINE) line = `${line.slice(0, MAX_LINE)}… (${line.length - MAX_LINE} more characters)`;
  return line;
}

interface MessageLike {
  to?: { bytes: Uint8Array };
  data: Uint8Array;
}

interface EVMWithConsole {
  powderConsole?: ConsoleSink;
  _executeCall(message: MessageLike): Promise<unknown>;
}

const proto = EVM.prototype as unknown as EVMWithConsole;
const executeCall = proto._executeCall;
if (typeof executeCall === 'function' && !(executeCall as { powderConsole?: boolean }).powderConsole) {
  const hooked = function (this: EVMWithConsole, message: MessageLike): Promise<unknown> {
    const sink = this.powderConsole;
    if (sink !== undefined) {
      const to = message.to?.bytes;
      if (to !== undefined && to[19] === 0x67 && Buffer.compare(to, CONSOLE_BYTES) === 0) sink.add(message.data);
    }
    return executeCall.call(this, message);
  };
  (hooked as { powderConsole?: boolean }).powderConsole = true;
  proto._executeCall = hooked;
}

/** Makes `sink` receive the console.log calls of `evm`'s frames from now on (undefined: none). */
export function setConsole(evm: unknown, sink: ConsoleSink | undefined): void {
  (evm as EVMWithConsole).powderConsole = sink;
}

/** Writes what a run printed to `log`: one INFO entry per line, then how many were left out. */
export function logConsole(log: { info(msg: string, fields?: Record<string, unknown>): void }, sink: ConsoleSink, fields: Record<string, unknown>): void {
  for (const line of sink.lines) log.info(`console.log: ${line}`, fields);
  if (sink.dropped > 0) log.info(`console.log: ${sink.dropped} more lines not shown (${MAX_LINES} per run)`, fields);
}
