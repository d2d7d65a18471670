// Subnet-EVM's own continuous profiler (vm.go initContinuousProfiler): with a non-empty
// continuous-profiler-dir in the chain's config.json, CPU, memory and lock profiles are written
// there every continuous-profiler-frequency (default 15m), keeping continuous-profiler-max-files
// (default 5) rotations of each. A failure (another CPU profile running in the process, a
// directory that cannot be written) is logged as an error and ends the profiler, not the chain.
import { ContinuousProfiler } from '../../profiler/continuous.js';
import { durationMs, goDuration } from './vmConfigJson.js';
import type { Logger } from '../../logging/logger.js';

/** Starts the chain's profiler if its config asks for one; returns it (to shut down) or undefined. */
export function startChainProfiler(file: Record<string, unknown>, log: Logger): ContinuousProfiler | undefined {
  const dir = file['continuous-profiler-dir'];
  if (typeof dir !== 'string' || dir === '') return undefined;
  const freqMs = durationMs(file['continuous-profiler-frequency'] ?? '15m');
  const maxFiles = typeof file['continuous-profiler-max-files'] === 'number' ? (file['continuous-profiler-max-files'] as number) : 5;
  const profiler = new ContinuousProfiler(dir, freqMs, maxFiles);
  log.info('Dispatching continuous profiler', { dir, freq: goDuration(freqMs), maxFiles });
  profiler.dispatch((err) => log.error('continuous profiler failed', { err: err.message }));
  return profiler;
}
