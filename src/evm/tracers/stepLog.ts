// What the loggers of every step (structLogger.ts, api/jsonLogger.ts) share: how one becomes the
// EVM's step log, which the interpreter loop (interpreterSteps.ts) hands each step of the running
// frame where ethereumjs would emit its `step` event, and the text of a stack word or gas amount.
import { originalInterpreterSteps } from '../vmTuning.js';
import type { StepLog } from '../interpreterSteps.js';

interface LoggingEVM {
  powderStepLog?: StepLog;
  common?: { isActivatedEIP(eip: number): boolean };
  _optsCached?: { profiler?: { enabled?: boolean } };
}

/** Whether the interpreter loop can hand `evm`'s steps to a step log (else: `step` events). */
function canLogSteps(evm: LoggingEVM): boolean {
  const common = evm.common;
  if (originalInterpreterSteps === undefined || common === undefined || evm._optsCached?.profiler?.enabled === true) return false;
  // The EIPs run() leaves to the package's own loop (EOF, code chunks, block access lists).
  return ![3540, 6800, 7864, 7928].some((eip) => common.isActivatedEIP(eip));
}

/**
 * Makes `log` the step log of `evm`: true when the interpreter loop hands it the steps from now on,
 * false when it must listen to `step` events instead (the loop cannot log this EVM's frames, or
 * the EVM keeps another log already: it keeps one).
 */
export function keepStepLog(evm: object, log: StepLog): boolean {
  const e = evm as LoggingEVM;
  if (!canLogSteps(e) || e.powderStepLog !== undefined) return false;
  e.powderStepLog = log;
  return true;
}

/** Stops handing `log` the steps of `evm` (which keepStepLog made it the step log of). */
export function dropStepLog(evm: object, log: StepLog): void {
  const e = evm as LoggingEVM;
  // Set back, not deleted: a delete would turn the EVM object into a slower dictionary-mode one.
  if (e.powderStepLog === log) e.powderStepLog = undefined;
}

/** A stack word's or gas amount's text (0x, no leading zeros); the small ones (most of a loop's) from a table. */
const SMALL_HEX = Array.from({ length: 256 }, (_, i) => '0x' + i.toString(16));
export const quantityHex = (v: bigint): string => (v < 256n ? SMALL_HEX[Number(v)] : '0x' + v.toString(16));
