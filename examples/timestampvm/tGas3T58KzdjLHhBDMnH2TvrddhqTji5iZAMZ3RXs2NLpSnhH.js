// TimestampVM for Powder: an example VM plugin in plain JavaScript (ES module, no build step).
//
// The file is named by the VM's ID, tGas3T58KzdjLHhBDMnH2TvrddhqTji5iZAMZ3RXs2NLpSnhH: the bytes
// of "timestamp" zero-padded to 32 and CB58-encoded, as for AvalancheGo's TimestampVM. Drop it
// into the node's --plugin-dir (or name it by a VM alias from --vm-aliases-file) and call
// admin.loadVMs. See docs/plugins.md for the interface and examples/timestampvm/README.md.
//
// The chain: a list of blocks, each holding one submitted value (`data`, a UTF-8 string of at most
// 256 bytes) and the time it was accepted. Blocks are built at once (there is one node, so no
// consensus) and stored in the chain's database, so they survive a restart.
//
// API, a node-style JSON-RPC service `timestampvm` at /ext/bc/<chain>:
//   timestampvm.proposeBlock {data}  → {success: true, id, height}
//   timestampvm.getBlock     {id?}   → {timestamp, data, height, id, parentID}  (latest without id)
import { createHash } from 'node:crypto';

const MAX_DATA_BYTES = 256;
const EMPTY_ID = '11111111111111111111111111111111LpoYY';
const LAST_KEY = Buffer.from('last');

// ---- CB58 (base58 of bytes ‖ last 4 bytes of sha256(bytes)), as AvalancheGo shows IDs ----
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes) {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

function cb58(bytes) {
  const checksum = createHash('sha256').update(bytes).digest().subarray(-4);
  return base58(Buffer.concat([bytes, checksum]));
}

// ---- storage layout in ctx.db ----
// 'h' + height (8 bytes, big-endian) → block JSON;  'i' + block ID → height;  'last' → height
function heightKey(height) {
  const k = Buffer.alloc(9);
  k.write('h');
  k.writeBigUInt64BE(BigInt(height), 1);
  return k;
}
const idKey = (id) => Buffer.from('i' + id);
const encodeHeight = (height) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(height));
  return b;
};

function makeBlock(parentID, height, timestamp, data) {
  const body = JSON.stringify([parentID, height, timestamp, data]);
  const id = cb58(createHash('sha256').update(body).digest());
  return { id, parentID, height, timestamp, data };
}

/** The wire form: numbers as decimal strings, as AvalancheGo's json.Uint64 writes them. */
function blockJSON(b) {
  return { timestamp: String(b.timestamp), data: b.data, height: String(b.height), id: b.id, parentID: b.parentID };
}

function parseGenesis(bytes) {
  let g;
  try {
    g = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    throw new Error(`timestampvm: genesis is not JSON: ${e.message}`);
  }
  if (!g || typeof g !== 'object' || Array.isArray(g)) throw new Error('timestampvm: genesis must be a JSON object like {"data":"..."}');
  const data = g.data ?? '';
  try {
    checkData(data);
  } catch (e) {
    throw new Error(`timestampvm: genesis: ${e.message}`);
  }
  return { data };
}

function checkData(data) {
  if (typeof data !== 'string') throw new Error('data must be a string');
  if (Buffer.byteLength(data) > MAX_DATA_BYTES) throw new Error(`data is longer than ${MAX_DATA_BYTES} bytes`);
}

class TimestampChain {
  constructor(ctx) {
    this.ctx = ctx;
    this.db = ctx.db;
    /** Proposals are built one after another, each on the block before it. */
    this.queue = Promise.resolve();
  }

  async init() {
    const last = this.db.get(LAST_KEY);
    if (last !== undefined) {
      this.lastHeight = Number(Buffer.from(last).readBigUInt64BE());
      this.ctx.log.info('timestampvm: chain reopened', { height: this.lastHeight });
      return;
    }
    const genesis = makeBlock(EMPTY_ID, 0, 0, parseGenesis(this.ctx.genesis).data);
    await this.store(genesis);
    this.ctx.log.info('timestampvm: genesis block written', { id: genesis.id });
  }

  async store(block) {
    await this.db.write([
      [heightKey(block.height), Buffer.from(JSON.stringify(block))],
      [idKey(block.id), encodeHeight(block.height)],
      [LAST_KEY, encodeHeight(block.height)],
    ]);
    this.lastHeight = block.height;
  }

  blockAt(height) {
    const raw = this.db.get(heightKey(height));
    return raw === undefined ? undefined : JSON.parse(Buffer.from(raw).toString('utf8'));
  }

  blockByID(id) {
    const h = this.db.get(idKey(id));
    return h === undefined ? undefined : this.blockAt(Number(Buffer.from(h).readBigUInt64BE()));
  }

  propose(data) {
    checkData(data);
    const run = this.queue.then(async () => {
      const parent = this.blockAt(this.lastHeight);
      // A block is never older than its parent, even if the clock went back.
      const now = Math.max(Math.floor(this.ctx.node.now() / 1000), parent.timestamp);
      const block = makeBlock(parent.id, parent.height + 1, now, data);
      await this.store(block);
      this.ctx.log.debug('timestampvm: block accepted', { id: block.id, height: block.height });
      return block;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  service() {
    const { str } = this.ctx.rpc.decoders;
    return {
      proposeBlock: {
        params: { data: str },
        handler: async ({ data }) => {
          const block = await this.propose(data);
          return { success: true, id: block.id, height: String(block.height) };
        },
      },
      getBlock: {
        params: { id: str },
        handler: ({ id }) => {
          const block = id ? this.blockByID(id) : this.blockAt(this.lastHeight);
          if (!block) throw new Error(`couldn't get block: block ${id} not found`);
          return blockJSON(block);
        },
      },
    };
  }
}

/** The VM factory: Powder calls createChain once per chain of this VM. */
const factory = {
  version: 'v1.0.0',
  protocolVersion: 1,
  probe() {
    // The handshake: fail early (at admin.loadVMs) if the runtime cannot hash.
    createHash('sha256');
  },
  async createChain(ctx) {
    const chain = new TimestampChain(ctx);
    await chain.init();
    return {
      createHandlers: () => ({ '': ctx.rpc.gorilla('timestampvm', chain.service()) }),
      health: () => ({ height: String(chain.lastHeight) }),
      banner: () => [`TimestampVM chain, ${chain.lastHeight + 1} blocks`],
      shutdown: async () => {
        await chain.queue;
      },
    };
  },
};

export default factory;
