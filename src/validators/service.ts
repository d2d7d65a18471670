// The validators API (/ext/bc/<chain>/validators, service `validators`): see validators.md.
import { GoJSONText, custom, goJSON, type GorillaService } from '../rpc/gorilla.js';
import { nodeIDToString } from '../ids/ids.js';
import { checkNodeIDArg } from '../rpc/idArgs.js';
import { float32JSON, type Validator, type ValidatorManager } from './manager.js';

/** ids.NodeID's zero value: what a JSON null element of a []ids.NodeID decodes to. */
const EMPTY_NODE_ID = nodeIDToString(new Uint8Array(20));

const nodeIDs = custom<string[] | undefined>((v) => {
  if (v === null || v === undefined) return undefined;
  if (!Array.isArray(v)) throw new Error('not an array');
  return v.map((s) => {
    if (s === null) return EMPTY_NODE_ID;
    if (typeof s !== 'string') throw new Error('not a string');
    checkNodeIDArg(s);
    return s;
  });
});

/**
 * The fields of a validator's entry that never change, encoded once: `{"validationID":…,…,
 * "isL1Validator":…` without the closing brace (a Validator object is replaced, never changed).
 * Only the connection and the uptime are encoded per answer.
 */
const staticParts = new WeakMap<Validator, string>();

function staticPart(v: Validator): string {
  let s = staticParts.get(v);
  if (s === undefined) {
    const head = goJSON({ validationID: v.validationID, nodeID: v.nodeID });
    const tail = goJSON({ startTimestamp: v.startTime, isActive: v.isActive, isL1Validator: v.isL1Validator });
    // weight: uint64 as a bare JSON number, as Go writes it (exact past 2^53 too).
    s = `${head.slice(0, -1)},"weight":${v.weight},${tail.slice(1, -1)}`;
    staticParts.set(v, s);
  }
  return s;
}

export function validatorsService(validators: ValidatorManager, subnetID: string): GorillaService {
  return {
    getCurrentValidators: {
      params: { nodeIDs },
      handler: ({ nodeIDs: wanted }) => {
        const filter = wanted && wanted.length ? new Set(wanted) : undefined;
        let out = '';
        for (const v of validators.current(subnetID)) {
          if (filter && !filter.has(v.nodeID)) continue;
          const { upMs, lastUpdated } = validators.uptimeOf(v);
          const bestPossible = lastUpdated - v.startMs;
          const uptime = bestPossible <= 0 ? 1 : Math.min(1, upMs / bestPossible);
          // JSON.stringify's number form, as the encoding of the whole object gave before.
          const pct = JSON.stringify(float32JSON(uptime * 100));
          out += `${out ? ',' : ''}${staticPart(v)},"isConnected":${validators.isConnected(v)},"uptimePercentage":${pct},"uptimeSeconds":${Math.floor(upMs / 1000)}}`;
        }
        return new GoJSONText(`{"validators":[${out}]}`);
      },
    },
  };
}
