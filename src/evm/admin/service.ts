// The chain's admin API (Subnet-EVM plugin/evm/admin.go) at /ext/bc/<chain>/admin, served when the
// VM config has "admin-api-enabled": true. See admin.md.
import { resolve } from 'node:path';
import { str, type GorillaService } from '../../rpc/gorilla.js';
import { Mutex } from '../../profiler/locks.js';
import { Profiler } from '../../profiler/profiler.js';
import type { Logger } from '../../logging/logger.js';
import { gethLevel } from './vmLogger.js';

export interface ChainAdminOptions {
  /** The VM config's `admin-api-dir`. */
  adminApiDir: string;
  /** The chain's primary alias (the profile directory is named after it). */
  primaryAlias: string;
  /** The chain's logger; setLogLevel sets its source level. */
  log: Logger;
  /** getVMConfig's `config`. */
  vmConfig: () => Record<string, unknown>;
}

/** `<admin-api-dir>_subnet_evm_performance_<alias>`, relative to the working directory as in Go. */
export function chainProfileDir(adminApiDir: string, primaryAlias: string): string {
  return resolve(`${adminApiDir}_subnet_evm_performance_${primaryAlias}`);
}

export function chainAdminService(o: ChainAdminOptions): { service: GorillaService; close(): Promise<void> } {
  const profiler = new Profiler(chainProfileDir(o.adminApiDir, o.primaryAlias));
  profiler.startHeapSampling();
  const lock = new Mutex('chain admin');
  const locked = (what: string, f: () => Promise<unknown> | unknown) => ({
    handler: () => {
      o.log.info(`Admin: ${what} called`);
      return lock.runExclusive(async () => {
        await f();
        return {};
      });
    },
  });
  const service: GorillaService = {
    startCPUProfiler: locked('StartCPUProfiler', () => profiler.startCPUProfiler()),
    stopCPUProfiler: locked('StopCPUProfiler', () => profiler.stopCPUProfiler()),
    memoryProfile: locked('MemoryProfile', () => profiler.memoryProfile()),
    lockProfile: locked('LockProfile', () => profiler.lockProfile()),
    setLogLevel: {
      params: { level: str },
      handler: ({ level }) => {
        o.log.info('EVM: SetLogLevel called', { logLevel: level });
        return lock.runExclusive(() => {
          try {
            o.log.sourceLevel = gethLevel(level);
          } catch (e) {
            // Subnet-EVM wraps with "%w " — the trailing space is the real node's.
            throw new Error(`failed to parse log level: ${(e as Error).message} `);
          }
          return {};
        });
      },
    },
    getVMConfig: {
      handler: () => {
        o.log.info('EVM: GetVMConfig called');
        return { config: o.vmConfig() };
      },
    },
  };
  return { service, close: () => profiler.close() };
}
