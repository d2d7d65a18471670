// Building pprof Profiles (the protobuf of github.com/google/pprof, via `pprof-format`) from
// V8's call trees: deduplicated strings, functions and locations, one mapping for the process.
import { gzipAsync } from '../logging/gzip.js';
import { fileURLToPath } from 'node:url';
import { Function as PFunction, Location, Mapping, Profile, Sample, StringTable, ValueType, Line } from 'pprof-format';

/** A V8 protocol call frame (Runtime.CallFrame). */
export interface V8CallFrame {
  functionName: string;
  url: string;
  /** 0-based; -1 when unknown. */
  lineNumber: number;
  columnNumber: number;
}

/** The script's path for file: URLs, the URL otherwise, `(native)` for frames without one. */
export function frameFile(url: string): string {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return url;
    }
  }
  return url === '' ? '(native)' : url;
}

export class ProfileBuilder {
  readonly strings = new StringTable();
  private readonly functions: PFunction[] = [];
  private readonly functionIDs = new Map<string, number>();
  private readonly locations: Location[] = [];
  private readonly locationIDs = new Map<string, number>();
  private readonly samples: Sample[] = [];

  /** The function ID of a call frame (1-based; line numbers in pprof are 1-based). */
  function(frame: V8CallFrame): number {
    const name = frame.functionName || '(anonymous)';
    const file = frameFile(frame.url);
    const startLine = frame.lineNumber >= 0 ? frame.lineNumber + 1 : 0;
    const key = `${name}\0${file}\0${startLine}\0${frame.columnNumber}`;
    let id = this.functionIDs.get(key);
    if (id === undefined) {
      id = this.functions.length + 1;
      const n = this.strings.dedup(name);
      this.functions.push(new PFunction({ id, name: n, systemName: n, filename: this.strings.dedup(file), startLine }));
      this.functionIDs.set(key, id);
    }
    return id;
  }

  /** The location ID of (function, line). */
  location(functionID: number, line: number): number {
    const key = `${functionID}:${line}`;
    let id = this.locationIDs.get(key);
    if (id === undefined) {
      id = this.locations.length + 1;
      this.locations.push(new Location({ id, mappingId: 1, line: [new Line({ functionId: functionID, line })] }));
      this.locationIDs.set(key, id);
    }
    return id;
  }

  /** Adds a sample; `stack` is location IDs, leaf first. */
  sample(stack: number[], values: (number | bigint)[]): void {
    this.samples.push(new Sample({ locationId: stack, value: values }));
  }

  get sampleCount(): number {
    return this.samples.length;
  }

  build(o: {
    sampleTypes: [string, string][];
    periodType: [string, string];
    period: number;
    timeNanos: bigint;
    durationNanos?: bigint;
  }): Profile {
    const vt = ([type, unit]: [string, string]) => new ValueType({ type: this.strings.dedup(type), unit: this.strings.dedup(unit) });
    const mapping = new Mapping({
      id: 1,
      filename: this.strings.dedup('node'),
      hasFunctions: true,
      hasFilenames: true,
      hasLineNumbers: true,
    });
    return new Profile({
      sampleType: o.sampleTypes.map(vt),
      sample: this.samples,
      mapping: [mapping],
      location: this.locations,
      function: this.functions,
      stringTable: this.strings,
      periodType: vt(o.periodType),
      period: o.period,
      timeNanos: o.timeNanos,
      durationNanos: o.durationNanos ?? 0,
    });
  }
}

/** The gzip-compressed protobuf, as Go's pprof writers produce (compressed off the event loop). */
export async function encodeGzipped(p: Profile): Promise<Buffer> {
  return gzipAsync(await p.encodeAsync());
}

/** Wall-clock now in nanoseconds. */
export function nowNanos(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
