// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";
import {WithVm} from "../src/Vm.sol";

/// Two senders: the --private-key one, then dev account #1 by startBroadcast(key). Run with --slow.
contract Multi is WithVm {
    function run() external {
        uint256 k1 = 0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d;
        vm.startBroadcast();
        Counter c = new Counter(1);
        for (uint256 i = 0; i < 5; i++) c.increment();
        vm.stopBroadcast();
        vm.startBroadcast(k1);
        c.increment();
        c.setNumber(vm.envOr("SETN", uint256(7)));
        vm.stopBroadcast();
    }
}
