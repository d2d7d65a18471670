// The admin API (/ext/admin, service `admin`): see admin.md beside this file.
// Reference: avalanchego-node.md §2 (api/admin/service.go), §5 (logging), §6 (profiler).
import type { Node } from '../../node/node.js';
import { custom, optStr, sortedObject, str, type GorillaService } from '../../rpc/gorilla.js';
import { parseIDArg } from '../../rpc/idArgs.js';
import { Levels, levelName, parseLevel, type Level } from '../../logging/levels.js';
import { Mutex } from '../../profiler/locks.js';
import { Profiler } from '../../profiler/profiler.js';
import { writeStacktrace } from '../../profiler/stacktrace.js';
import { nodeConfigView } from './config.js';
import { decodeHexNC, encodeHexNC } from './hex.js';

const MAX_ALIAS_LENGTH = 512;

/** rpcdb error codes of admin.dbGet. */
const DB_ERROR = { none: 0, closed: 1, notFound: 2 } as const;

/** logging.Level's UnmarshalJSON: a JSON string, any case; anything else fails param decoding. */
const optLevel = custom<Level | undefined>((v) => {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error('not a level');
  return parseLevel(v);
});

function checkAliasLength(alias: string): void {
  if (Buffer.byteLength(alias, 'utf8') > MAX_ALIAS_LENGTH) throw new Error('alias length is too long');
}

export function adminService(node: Node): GorillaService {
  // The real admin service serialises its profiler, stacktrace and loadVMs work under one lock;
  // so does this one, and its waits show in lock.profile.
  const lock = new Mutex('admin');
  const profiler = new Profiler(node.config.profileDir);
  profiler.startHeapSampling();
  node.onStop(() => profiler.close());

  const called = (method: string, fields?: Record<string, unknown>) => {
    if (node.log.enabled(Levels.Debug)) node.log.debug('API called', { service: 'admin', method, ...fields });
  };
  const levels = (names: string[]) => ({
    loggerLevels: sortedObject(
      names.map((n) => {
        const l = node.logs.get(n);
        return [n, { logLevel: levelName(l.logLevel), displayLevel: levelName(l.displayLevel) }];
      }),
    ),
  });
  const noArgs = (method: string, work: () => Promise<void> | void) => ({
    handler: async () => {
      called(method);
      await lock.runExclusive(work);
      return {};
    },
  });

  return {
    alias: {
      params: { endpoint: str, alias: str },
      handler: ({ endpoint, alias }) => {
        called('alias', { endpoint, alias });
        checkAliasLength(alias);
        node.router.addAliases(endpoint, alias);
        return {};
      },
    },
    aliasChain: {
      params: { chain: str, alias: str },
      handler: ({ chain, alias }) => {
        called('aliasChain', { chain, alias });
        checkAliasLength(alias);
        node.chains.aliasChain(chain, alias);
        return {};
      },
    },
    getChainAliases: {
      params: { chain: str },
      handler: ({ chain }) => {
        called('getChainAliases', { chain });
        parseIDArg(chain);
        return { aliases: node.chains.aliaser.aliases(chain) ?? null };
      },
    },
    getLoggerLevel: {
      params: { loggerName: str },
      handler: ({ loggerName }) => {
        called('getLoggerLevel', { loggerName });
        return levels(loggerName ? [node.logs.get(loggerName).name] : node.logs.names());
      },
    },
    setLoggerLevel: {
      params: { loggerName: optStr, logLevel: optLevel, displayLevel: optLevel },
      handler: ({ loggerName, logLevel, displayLevel }) => {
        called('setLoggerLevel', {
          loggerName,
          logLevel: logLevel === undefined ? undefined : levelName(logLevel),
          displayLevel: displayLevel === undefined ? undefined : levelName(displayLevel),
        });
        if (logLevel === undefined && displayLevel === undefined) {
          throw new Error('need to specify either displayLevel or logLevel');
        }
        const names = loggerName ? [node.logs.get(loggerName).name] : node.logs.names();
        for (const n of names) {
          const l = node.logs.get(n);
          if (logLevel !== undefined) l.logLevel = logLevel;
          if (displayLevel !== undefined) l.displayLevel = displayLevel;
        }
        return levels(names);
      },
    },
    startCPUProfiler: noArgs('startCPUProfiler', () => profiler.startCPUProfiler()),
    stopCPUProfiler: noArgs('stopCPUProfiler', () => profiler.stopCPUProfiler()),
    memoryProfile: noArgs('memoryProfile', () => profiler.memoryProfile()),
    lockProfile: noArgs('lockProfile', () => profiler.lockProfile()),
    stacktrace: noArgs('stacktrace', () => void writeStacktrace()),
    getConfig: {
      handler: () => {
        called('getConfig');
        return nodeConfigView(node);
      },
    },
    loadVMs: {
      handler: async () => {
        called('loadVMs');
        const { newVMs, failedVMs } = await lock.runExclusive(() => node.vms.reload());
        const reply: Record<string, unknown> = {
          newVMs: sortedObject(newVMs.map((id) => [id, node.vms.aliaser.relevantAliases(id)])),
        };
        if (failedVMs.size > 0) reply.failedVMs = sortedObject(failedVMs);
        return reply;
      },
    },
    dbGet: {
      params: { key: str },
      handler: ({ key }) => {
        called('dbGet', { key });
        const k = decodeHexNC(key);
        if (node.db.closed) return { value: '', errorCode: DB_ERROR.closed };
        let value: Uint8Array | undefined;
        try {
          value = node.db.store('node').get(k);
        } catch {
          // LMDB refuses keys it can never hold (empty, or over its key size): not found.
          return { value: '', errorCode: node.db.closed ? DB_ERROR.closed : DB_ERROR.notFound };
        }
        if (value === undefined) return { value: '', errorCode: DB_ERROR.notFound };
        return { value: encodeHexNC(value), errorCode: DB_ERROR.none };
      },
    },
  };
}
