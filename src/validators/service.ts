// The validators API (/ext/bc/<chain>/validators, service `validators`): see validators.md.
import { custom, type GorillaService } from '../rpc/gorilla.js';
import { parseNodeID } from '../ids/ids.js';
import { float32JSON, type ValidatorManager } from './manager.js';

const nodeIDs = custom<string[] | undefined>((v) => {
  if (v === null || v === undefined) return undefined;
  if (!Array.isArray(v)) throw new Error('not an array');
  for (const s of v) {
    if (typeof s !== 'string') throw new Error('not a string');
    parseNodeID(s);
  }
  return v as string[];
});

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

export function validatorsService(validators: ValidatorManager, subnetID: string): GorillaService {
  return {
    getCurrentValidators: {
      params: { nodeIDs },
      handler: ({ nodeIDs: wanted }) => {
        const filter = wanted && wanted.length ? new Set(wanted) : undefined;
        const out = [];
        for (const v of validators.current(subnetID)) {
          if (filter && !filter.has(v.nodeID)) continue;
          const { upMs, lastUpdated } = validators.uptimeOf(v);
          const bestPossible = lastUpdated - v.startMs;
          const uptime = bestPossible <= 0 ? 1 : Math.min(1, upMs / bestPossible);
          out.push({
            validationID: v.validationID,
            nodeID: v.nodeID,
            // uint64 as a bare JSON number either way; a number when exact keeps the encoding on
            // JSON.stringify's fast path (goJSON).
            weight: v.weight <= MAX_EXACT ? Number(v.weight) : v.weight,
            startTimestamp: v.startTime,
            isActive: v.isActive,
            isL1Validator: v.isL1Validator,
            isConnected: validators.isConnected(v),
            uptimePercentage: float32JSON(uptime * 100),
            uptimeSeconds: Math.floor(upMs / 1000),
          });
        }
        return { validators: out };
      },
    },
  };
}
