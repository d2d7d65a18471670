// bin/powder sets NODE_EXTRA_CA_CERTS aside for Node.js's start; the node puts it back
// (test/snapshotStart.test.ts starts real nodes through the launcher).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extraCaCertsNotLoaded, restoreExtraCaCerts } from './extraCaCerts.js';

test('without a value set aside the environment is left as it is', () => {
  const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/etc/ca.pem', OTHER: 'x' };
  restoreExtraCaCerts(env);
  assert.deepEqual(env, { NODE_EXTRA_CA_CERTS: '/etc/ca.pem', OTHER: 'x' });
  assert.equal(extraCaCertsNotLoaded(), undefined);
});

test('a value set aside goes back to NODE_EXTRA_CA_CERTS, and the node knows Node.js did not load it', () => {
  const env: NodeJS.ProcessEnv = { POWDER_SET_ASIDE_EXTRA_CA_CERTS: '/etc/corp-ca.pem', OTHER: 'x' };
  restoreExtraCaCerts(env);
  assert.deepEqual(env, { NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem', OTHER: 'x' });
  assert.equal(extraCaCertsNotLoaded(), '/etc/corp-ca.pem');
});

test('a NODE_EXTRA_CA_CERTS set after the launcher (by hand) is kept over the one set aside', () => {
  const env: NodeJS.ProcessEnv = { POWDER_SET_ASIDE_EXTRA_CA_CERTS: '/etc/a.pem', NODE_EXTRA_CA_CERTS: '/etc/b.pem' };
  restoreExtraCaCerts(env);
  assert.deepEqual(env, { NODE_EXTRA_CA_CERTS: '/etc/b.pem' });
  assert.equal(extraCaCertsNotLoaded(), '/etc/a.pem');
});
