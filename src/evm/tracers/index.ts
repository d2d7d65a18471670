// Tracers for debug_traceTransaction / debug_traceCall / debug_traceBlock*: geth's default struct
// logger, its native callTracer, flatCallTracer, prestateTracer, muxTracer, noopTracer and
// 4byteTracer, driven by @ethereumjs/evm's events, and its JavaScript tracers (jsTracer.ts).
//
//   const tracer = await createTracer(traceConfig?.tracer, traceConfig);  // RpcError on bad input
//   tracer.attach(vm.evm, vm); tracer.txStart(tx.gasLimit, { blockHash, blockNumber, txIndex, txHash });
//   ... run the transaction (runTx on vm) ...
//   tracer.txEnd(receipt.gasUsed); tracer.detach();
//   return await tracer.result();  // before the state moves on (prestateTracer's diffMode reads it)
//   tracer.dispose?.();  // whenever the run ends without a result (a JavaScript tracer's engine)
import { RpcError, goKind as kind } from '../rpc/server.js';
import { CallTracer } from './callTracer.js';
import { FlatCallTracer } from './flatCallTracer.js';
import { MuxTracer } from './muxTracer.js';
import { PrestateTracer } from './prestateTracer.js';
import { JsTracer } from './jsTracer.js';
import { JS_TRACER_SOURCES } from './jsTracerSources.js';
import { StructLogger } from './structLogger.js';
import { listen, type Message, type TracedEVM, type Tracer } from './types.js';

export type { Tracer, TracedEVM, TracedVM, TraceContext } from './types.js';
export { gethErrorText, unpackRevert, revertMessage } from './errors.js';

/**
 * `name`: the TraceConfig's `tracer` (undefined or '' → struct logger). `config`: the whole
 * TraceConfig object as sent ({enableMemory, disableStack, …, tracer, tracerConfig}); a named
 * tracer reads its options from `tracerConfig`. Errors are -32000 with geth's texts.
 */
export function createTracer(name: string | undefined, config: unknown): Tracer | Promise<Tracer> {
  const cfg = (config !== null && typeof config === 'object' && !Array.isArray(config) ? config : {}) as Record<string, unknown>;
  if (name === undefined || name === '') {
    return new StructLogger({
      enableMemory: flag(cfg, 'enableMemory', 'Config'),
      disableStack: flag(cfg, 'disableStack', 'Config'),
      disableStorage: flag(cfg, 'disableStorage', 'Config'),
      enableReturnData: flag(cfg, 'enableReturnData', 'Config'),
      limit: intField(cfg, 'limit', 'Config'),
    });
  }
  return namedTracer(name, field(cfg, 'tracerConfig'));
}

/**
 * geth's tracers.DefaultDirectory.New(name, ctx, tracerConfig): a native tracer decodes its config
 * (json.Unmarshal into its config type: absent or null leaves the defaults), any other name goes
 * to the JavaScript tracer engine.
 */
function namedTracer(name: string, tc: unknown): Tracer | Promise<Tracer> {
  const decode = (goType: string): Record<string, unknown> => {
    if (tc === undefined || tc === null) return {};
    if (typeof tc !== 'object' || Array.isArray(tc)) throw new RpcError(-32000, `json: cannot unmarshal ${kind(tc)} into Go value of type ${goType}`);
    return tc as Record<string, unknown>;
  };
  switch (name) {
    case 'callTracer': {
      const o = decode('native.callTracerConfig');
      return new CallTracer({ onlyTopCall: flag(o, 'onlyTopCall', 'callTracerConfig'), withLog: flag(o, 'withLog', 'callTracerConfig') });
    }
    case 'flatCallTracer': {
      const o = decode('native.flatCallTracerConfig');
      return new FlatCallTracer({
        convertParityErrors: flag(o, 'convertParityErrors', 'flatCallTracerConfig'),
        includePrecompiles: flag(o, 'includePrecompiles', 'flatCallTracerConfig'),
      });
    }
    case 'prestateTracer':
      return new PrestateTracer({ diffMode: flag(decode('native.prestateTracerConfig'), 'diffMode', 'prestateTracerConfig') });
    case 'muxTracer':
      // A map of tracer name (exact: Go map keys) → that tracer's config.
      return muxOf(Object.entries(decode('map[string]json.RawMessage')).map(([n, c]) => [n, namedTracer(n, c)]));
  }
  switch (name) {
    // geth's newNoopTracer and newFourByteTracer take their config as `_ json.RawMessage`: any
    // JSON is accepted and ignored.
    case 'noopTracer':
      return new NoopTracer();
    case '4byteTracer':
      return new FourByteTracer();
  }
  // geth hands any other name to its JavaScript tracer engine (goja), which runs the bundled tracer
  // of that name or evaluates the text itself as `(code)` (jsTracer.ts). A bare name is answered
  // here with goja's own texts: a name its global scope defines is a value without the tracer's
  // methods, null and undefined make goja's ToObject panic (the RPC server's panic guard answers),
  // any other name is unknown.
  const bundled = Object.hasOwn(JS_TRACER_SOURCES, name) ? JS_TRACER_SOURCES[name] : undefined;
  if (bundled === undefined) {
    if (name === 'undefined' || name === 'null') throw new RpcError(-32603, 'method handler crashed');
    if (Object.hasOwn(GOJA_GLOBALS, name)) throw new RpcError(-32000, 'trace object must expose a function result()');
    if (/^[A-Za-z_$][\w$]*$/.test(name)) throw new RpcError(-32000, `ReferenceError: ${name} is not defined at <eval>:1:1(0)`);
  }
  // setup() gets the tracerConfig's JSON text ("{}" without one), as geth passes its raw bytes.
  return JsTracer.create(bundled ?? name, tc === undefined ? '{}' : JSON.stringify(tc));
}

/** A muxTracer of tracers some of which (JavaScript ones) are still being made. */
function muxOf(parts: [string, Tracer | Promise<Tracer>][]): Tracer | Promise<Tracer> {
  if (!parts.some(([, t]) => t instanceof Promise)) return new MuxTracer(parts as [string, Tracer][]);
  return Promise.allSettled(parts.map(([, t]) => t)).then((settled) => {
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed === undefined) return new MuxTracer(parts.map(([n], i) => [n, (settled[i] as PromiseFulfilledResult<Tracer>).value]));
    for (const s of settled) if (s.status === 'fulfilled') s.value.dispose?.();
    throw failed.reason;
  });
}

/** Makes the tracer a TraceConfig names and frees it: its errors, before any transaction runs. */
export async function validateTracer(name: string | undefined, config: unknown): Promise<void> {
  const t = await createTracer(name, config);
  t.dispose?.();
}

/**
 * Names a geth JS tracer's `(name)` resolves (from memory of goja and geth's eth/tracers/js; the
 * reference is silent): goja's ECMAScript globals, the global object's Object.prototype members,
 * and the helpers geth defines for tracers (bigInt, toHex, …).
 */
const GOJA_GLOBALS: Record<string, true> = Object.fromEntries(
  [
    'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'RegExp', 'Date', 'Math', 'JSON', 'Reflect', 'Proxy', 'Promise',
    'Map', 'Set', 'WeakMap', 'WeakSet', 'ArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
    'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'Error', 'TypeError', 'ReferenceError', 'SyntaxError', 'RangeError', 'EvalError',
    'URIError', 'GoError', 'eval', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'decodeURI', 'decodeURIComponent', 'encodeURI',
    'encodeURIComponent', 'escape', 'unescape', 'NaN', 'Infinity', 'globalThis',
    'constructor', '__proto__', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'toLocaleString', 'valueOf',
    'bigInt', 'toHex', 'toWord', 'toAddress', 'toContract', 'toContract2', 'isPrecompiled', 'slice',
  ].map((n) => [n, true]),
);

function field(o: Record<string, unknown>, name: string): unknown {
  const lower = name.toLowerCase();
  let v: unknown;
  for (const k in o) if (k.toLowerCase() === lower) v = o[k];
  return v;
}

function flag(o: Record<string, unknown>, name: string, struct: string): boolean {
  const v = field(o, name);
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new RpcError(-32000, `json: cannot unmarshal ${kind(v)} into Go struct field ${struct}.${name} of type bool`);
  return v;
}

function intField(o: Record<string, unknown>, name: string, struct: string): number {
  const v = field(o, name);
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number') throw new RpcError(-32000, `json: cannot unmarshal ${kind(v)} into Go struct field ${struct}.${name} of type int`);
  if (!Number.isInteger(v)) throw new RpcError(-32000, `json: cannot unmarshal number ${v} into Go struct field ${struct}.${name} of type int`);
  return v;
}

/** noopTracer: `{}`. */
class NoopTracer implements Tracer {
  attach(): void {}
  detach(): void {}
  txStart(): void {}
  txEnd(): void {}
  result(): unknown {
    return {};
  }
}

/** 4byteTracer: `{"0x<selector>-<calldata size - 4>": count}` for every call with ≥ 4 bytes of input. */
class FourByteTracer implements Tracer {
  private readonly ids = new Map<string, number>();
  private unlisten: (() => void) | undefined;
  private readonly onBefore = (m: Message) => {
    if (!m.to || m.data.length < 4) return;
    // precompiles are skipped by geth; their addresses are tiny
    const a = m.to.bytes;
    if (a.slice(0, 18).every((b) => b === 0) && (a[18] << 8 | a[19]) <= 0x100) return;
    const key = '0x' + Buffer.from(m.data.subarray(0, 4)).toString('hex') + '-' + (m.data.length - 4);
    this.ids.set(key, (this.ids.get(key) ?? 0) + 1);
  };
  attach(evm: TracedEVM): void {
    this.unlisten = listen(evm, { beforeMessage: this.onBefore });
  }
  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }
  txStart(): void {}
  txEnd(): void {}
  result(): unknown {
    return Object.fromEntries([...this.ids.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
