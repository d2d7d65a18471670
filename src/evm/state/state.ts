// World state: @ethereumjs MerkleStateManager over a trie whose nodes live in LMDB (archive
// mode: every block's root stays readable). The live state manager keeps read/write caches and
// is flushed into the trie once per block; views for calls, tracing and proofs are cheap copies
// whose writes go to a throw-away overlay.
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { ValueEncoding } from '@ethereumjs/util';
import type { KVStore } from '../../db/database.js';
import { OverlayDB, TrieNodeDB } from './trieDB.js';
import { FlatCache, FlatStateManager, preimageKey } from './flat.js';
import { NodeCache } from './batchTrie.js';
import { StateReader } from './callState.js';
import { hexOf } from '../../hexOf.js';
import '../debugColors.js'; // before the first trie is made

export class StateStore {
  readonly nodes: TrieNodeDB;
  /** Account and storage reads by trie root, shared by the live state and the views. */
  readonly flat = new FlatCache();
  /** Decoded trie nodes by hash, for batched trie updates. */
  readonly trieNodes = new NodeCache();
  /** Subnet-EVM's preimages-enabled: the block builder's flushes store trie keys' preimages. */
  recordPreimages = false;
  constructor(store: KVStore) {
    this.nodes = new TrieNodeDB(store);
  }

  /** The recorded preimage of a trie key's hash (an address or a storage slot), if any. */
  preimage(hash: Uint8Array): Uint8Array | undefined {
    return this.nodes.getSync(hexOf(preimageKey(hash)));
  }

  /**
   * The block builder's state manager, positioned at `root`. It lives as long as the head moves by
   * blocks it built, so its caches are bounded (`maxCacheEntries`, see FlatStateManager).
   */
  live(common: Common, root: Uint8Array, maxCacheEntries = LIVE_CACHE_ENTRIES): MerkleStateManager {
    const trie = new MerklePatriciaTrie({
      db: this.nodes,
      useKeyHashing: true,
      valueEncoding: ValueEncoding.Bytes,
      common,
      cacheSize: 0, // the nodes are in the database already; a node cache only duplicated them (memory)
      root,
    });
    return new FlatStateManager(
      {
        common,
        trie,
        caches: new Caches(),
      },
      this.flat,
      this.trieNodes,
      this.recordPreimages,
      maxCacheEntries,
    );
  }

  /** A disposable state manager at `root` (writes never reach the database). */
  view(common: Common, root: Uint8Array): MerkleStateManager {
    const trie = new MerklePatriciaTrie({
      db: new OverlayDB(this.nodes),
      useKeyHashing: true,
      valueEncoding: ValueEncoding.Bytes,
      common,
      root,
    });
    return new FlatStateManager({ common, trie, caches: new Caches({ account: { size: 1000 }, storage: { size: 1000 }, code: { size: 100 } }) }, this.flat, this.trieNodes);
  }

  /**
   * A state manager at `root` that is only read (head reads, pool checks): no caches of its own,
   * reads go through the shared flat cache. One is made per new head, so it must be cheap.
   */
  readOnly(common: Common, root: Uint8Array): MerkleStateManager {
    const trie = new MerklePatriciaTrie({ db: new OverlayDB(this.nodes), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, root });
    return new FlatStateManager({ common, trie }, this.flat, this.trieNodes);
  }

  /** Readers of the last few state roots calls ran on (each keeps what its calls read). */
  private readonly readers = new Map<string, StateReader>();

  /** The content of state `root`, read once and kept, for eth_call / estimateGas runs. */
  reader(common: Common, root: Uint8Array): StateReader {
    const key = hexOf(root);
    let r = this.readers.get(key);
    if (r) {
      this.readers.delete(key);
    } else {
      r = new StateReader(root, this.readOnly(common, root), this);
      if (this.readers.size >= 4) this.readers.delete(this.readers.keys().next().value!);
    }
    this.readers.set(key, r); // most recent last
    return r;
  }

  hasRoot(root: Uint8Array): boolean {
    // The empty trie root has no node; every other root is a stored node keyed by its hash.
    const key = hexOf(root);
    return key === EMPTY_ROOT_HEX || this.nodes.getSync(key) !== undefined;
  }
}

/** Cached entries the block builder's state keeps between blocks (~100–300 bytes each). */
export const LIVE_CACHE_ENTRIES = 100_000;

export const EMPTY_ROOT_HEX = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
