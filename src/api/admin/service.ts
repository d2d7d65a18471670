// The admin API (/ext/admin, service `admin`): see admin.md beside this file.
import type { Node } from '../../node/node.js';
import { parseID } from '../../ids/ids.js';
import { custom, optStr, sortedObject, str, type GorillaService } from '../../rpc/gorilla.js';
import { levelName, parseLevel, type Level } from '../../logging/levels.js';

const MAX_ALIAS_LENGTH = 512;

const optLevel = custom<Level | undefined>((v) => {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error('not a level');
  return parseLevel(v);
});

export function adminService(node: Node): GorillaService {
  const called = (method: string, fields?: Record<string, unknown>) =>
    node.log.debug('API called', { service: 'admin', method, ...fields });
  const levels = (names: string[]) =>
    ({
      loggerLevels: sortedObject(
        names.map((n) => {
          const l = node.logs.get(n);
          return [n, { logLevel: levelName(l.logLevel), displayLevel: levelName(l.displayLevel) }];
        }),
      ),
    });
  return {
    alias: {
      params: { endpoint: str, alias: str },
      handler: ({ endpoint, alias }) => {
        called('alias', { endpoint, alias });
        if (Buffer.byteLength(alias) > MAX_ALIAS_LENGTH) throw new Error('alias length is too long');
        node.router.addAliases(endpoint, alias);
        return {};
      },
    },
    aliasChain: {
      params: { chain: str, alias: str },
      handler: ({ chain, alias }) => {
        called('aliasChain', { chain, alias });
        if (Buffer.byteLength(alias) > MAX_ALIAS_LENGTH) throw new Error('alias length is too long');
        node.chains.aliasChain(chain, alias);
        return {};
      },
    },
    getChainAliases: {
      params: { chain: str },
      handler: ({ chain }) => {
        called('getChainAliases', { chain });
        parseID(chain);
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
        called('setLoggerLevel', { loggerName });
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
  };
}
