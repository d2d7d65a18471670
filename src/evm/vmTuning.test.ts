// vmTuning's speed-ups must answer exactly what the code they replace answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import './vmTuning.js';

test('isActivatedEIP: the Set answers as the array it stands for, across hardfork and EIP changes', () => {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Chainstart });
  const list = () => (common as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache;
  const agree = (label: string) => {
    for (let eip = 0; eip < 8200; eip++) assert.equal(common.isActivatedEIP(eip), list().includes(eip), `${label}: EIP-${eip}`);
  };
  assert.equal((common.isActivatedEIP as { powderSet?: boolean }).powderSet, true, 'the patch is installed');
  agree('chainstart');
  for (const hf of [Hardfork.Berlin, Hardfork.London, Hardfork.Shanghai, Hardfork.Cancun, Hardfork.Berlin]) {
    common.setHardfork(hf);
    agree(hf);
  }
  assert.equal(common.isActivatedEIP(2929), true);
  assert.equal(common.isActivatedEIP(1559), false, 'back at Berlin, London is off again');
  common.setEIPs([3855]);
  assert.equal(common.isActivatedEIP(3855), true, 'an EIP set on its own is seen');
  agree('berlin + 3855');
  // A copy has its own array, and its own answers.
  const copy = common.copy();
  copy.setHardfork(Hardfork.Cancun);
  assert.equal(copy.isActivatedEIP(4844), true);
  assert.equal(common.isActivatedEIP(4844), false);
});
