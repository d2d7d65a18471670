// The opcode each running frame executes, known without a `step` listener. ethereumjs builds an
// event for every step when one listens (copies of the stack and memory included), so the call
// tracer — which needs only the CALL-family opcode that opened each frame and a frame's last
// opcode — ran a loop ~12× slower than the call itself. With the interpreter loop of
// interpreterSteps.ts installed, an EVM keeps the run states of its running frames while a tracer
// tracks them: the opcode a step listener last heard at that depth, with its own byte (a step
// event names an undefined opcode by INVALID's entry).
import { originalInterpreterSteps } from '../vmTuning.js';

export interface OpRef {
  name: string;
  code: number;
}

interface FramesEVM {
  powderFrames?: { opCode: number }[];
  _opcodeMap?: Record<number, { opcodeInfo: { fullName: string; code: number } } | undefined>;
}

/** Starts keeping `evm`'s running frames; false when the interpreter loop cannot (a step listener must do). */
export function trackFrames(evm: object): boolean {
  if (originalInterpreterSteps === undefined) return false;
  (evm as FramesEVM).powderFrames ??= [];
  return true;
}

export function untrackFrames(evm: object): void {
  delete (evm as FramesEVM).powderFrames;
}

/** The opcode the innermost running frame executes (at a child's beforeMessage: the one that opened it). */
export function currentOp(evm: object): OpRef | undefined {
  const frames = (evm as FramesEVM).powderFrames;
  const top = frames?.[frames.length - 1];
  return top && opRef(evm, top.opCode);
}

/** A finished frame's last opcode, from its result's run state (undefined for a frame that ran no code). */
export function lastOpOf(evm: object, runState: unknown): OpRef | undefined {
  const code = (runState as { opCode?: number } | undefined)?.opCode;
  return code === undefined ? undefined : opRef(evm, code);
}

/**
 * An opcode's name and byte. Powder's tables give an undefined opcode INVALID's entry with its own
 * byte (src/evm/gethHalts.ts); a table without that maps it to INVALID's, 0xfe, and the running
 * frame's byte is the one geth's error names (`invalid opcode: opcode 0xc not defined`).
 */
function opRef(evm: object, code: number): OpRef | undefined {
  const info = (evm as FramesEVM)._opcodeMap?.[code]?.opcodeInfo;
  if (info === undefined) return undefined;
  return { name: info.code === code ? info.fullName : 'UNDEFINED', code };
}
