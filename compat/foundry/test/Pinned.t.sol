// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";
import {WithVm} from "../src/Vm.sol";

/// Run by run.mjs as `forge test --fork-url <powder> --fork-block-number $PIN --match-contract
/// PinnedForkTest`: PIN is the block of the first increment() on COUNTER, so number() is 6 there
/// whatever happened later.
contract PinnedForkTest is WithVm {
    function test_pinnedBlock() public view {
        require(block.number == vm.envUint("PIN"), "block.number is not --fork-block-number");
        Counter c = Counter(payable(vm.envAddress("COUNTER")));
        require(c.number() == 6, "number() at the pinned block");
        require(block.chainid == 43210, "chain id");
    }
}
