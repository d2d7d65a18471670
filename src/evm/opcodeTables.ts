// One opcode table per Common, shared by every EVM made on it. @ethereumjs/evm's constructor
// builds its instance's table (`getActiveOpcodes` → `getOpcodesForHF`: every opcode's info, handler
// and gas handler; ~140 µs here, 7 % of an eth_sendTransaction's CPU, docs/performance.md session
// 21), and Powder makes an EVM for each gas estimate's state, trace, access-list run and call
// session. The table depends only on the Common's hardfork and EIPs (Powder gives no custom
// opcodes), and nothing mutates it: opcodeHooks.ts hooks a copy of the entries it changes. A
// shared table also shares its jump analyses (vmTuning.ts caches them per table). Each table is
// given geth's own failures where the package's differ (gethHalts.ts: memory past 64 bits,
// RETURNDATACOPY out of bounds, an entry of its own for each undefined opcode).
import type { Common } from '@ethereumjs/common';
import { EVM } from '@ethereumjs/evm';
import { applyGethHalts, type OpEntryLike } from './gethHalts.js';

interface OpcodeData {
  opcodes: unknown;
  dynamicGasHandlers: unknown;
  handlers: unknown;
  opcodeMap: unknown;
}

interface EVMTables extends OpcodeData {
  common: Common;
  _customOpcodes?: unknown;
  _opcodes: unknown;
  _dynamicGasHandlers: unknown;
  _handlers: unknown;
  _opcodeMap: unknown;
  getActiveOpcodes(): unknown;
}

const tables = new WeakMap<Common, Map<string, OpcodeData>>();

/** The package's own getActiveOpcodes (tests compare its tables with the shared ones). */
export const originalGetActiveOpcodes = (EVM.prototype as unknown as EVMTables).getActiveOpcodes;

function install(proto: EVMTables): void {
  const original = proto.getActiveOpcodes;
  const build = (evm: EVMTables): unknown => {
    const opcodes = original.call(evm);
    applyGethHalts(evm._opcodeMap as (OpEntryLike | undefined)[], evm._dynamicGasHandlers as Map<number, unknown>, evm._handlers as Map<number, unknown>);
    return opcodes;
  };
  proto.getActiveOpcodes = function (this: EVMTables) {
    if (this._customOpcodes !== undefined) return build(this);
    const key = `${this.common.hardfork()} ${this.common.eips().join(',')}`;
    let perCommon = tables.get(this.common);
    if (!perCommon) tables.set(this.common, (perCommon = new Map()));
    const d = perCommon.get(key);
    if (!d) {
      const opcodes = build(this);
      perCommon.set(key, { opcodes: this._opcodes, dynamicGasHandlers: this._dynamicGasHandlers, handlers: this._handlers, opcodeMap: this._opcodeMap });
      return opcodes;
    }
    this._opcodes = d.opcodes;
    this._dynamicGasHandlers = d.dynamicGasHandlers;
    this._handlers = d.handlers;
    this._opcodeMap = d.opcodeMap;
    return d.opcodes;
  };
}

if (typeof originalGetActiveOpcodes === 'function') install(EVM.prototype as unknown as EVMTables);
