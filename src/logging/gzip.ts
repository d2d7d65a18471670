// gzip off the event loop, for rotated logs and pprof files. node:zlib loads with the first use
// rather than at every start of the node.
import { promisify } from 'node:util';
import { dynamicImport } from '../dynamicImport.js';

let gzipFn: ((data: Uint8Array) => Promise<Buffer>) | undefined;

export async function gzipAsync(data: Uint8Array): Promise<Buffer> {
  gzipFn ??= promisify((await dynamicImport<typeof import('node:zlib')>('node:zlib')).gzip);
  return gzipFn(data);
}
