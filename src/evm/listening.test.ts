// listening(): the same answer as listenerCount(topic) > 0 on ethereumjs' emitters (eventemitter3)
// through listeners added, removed, fired once and cleared, and on an emitter without the count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEVM } from '@ethereumjs/evm';
import { EventEmitter as NodeEmitter } from 'node:events';
import { listening } from './listening.js';

test('listening: as listenerCount > 0, through adds, removals, once and removeAllListeners', async () => {
  // The emitter class an EVM uses (eventemitter3's).
  const EventEmitter = (await createEVM()).events!.constructor as new () => any;
  const e = new EventEmitter();
  assert.equal(typeof e._eventsCount, 'number', 'the emitter keeps its count of topics');
  const check = () => {
    for (const topic of ['step', 'beforeMessage', 'afterMessage']) assert.equal(listening(e, topic), e.listenerCount(topic) > 0, topic);
  };
  const f = () => {};
  const g = () => {};
  check();
  e.on('step', f);
  check();
  e.on('beforeMessage', g);
  e.on('step', g);
  check();
  e.off('step', f);
  check();
  e.off('step', g);
  check();
  assert.equal(listening(e, 'step'), false);
  e.once('afterMessage', f);
  check();
  e.emit('afterMessage');
  check();
  e.removeAllListeners();
  check();
  assert.equal(listening(e, 'beforeMessage'), false);
  const n = new NodeEmitter(); // no _eventsCount: asked the usual way
  assert.equal(listening(n, 'step'), false);
  n.on('step', f);
  assert.equal(listening(n, 'step'), true);
});
