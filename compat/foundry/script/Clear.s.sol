// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Store} from "../src/Store.sol";
import {WithVm} from "../src/Vm.sol";

/// Clears 150 slots: Ethereum refunds part of the gas, Subnet-EVM does not, so the gas limit
/// forge gives the tx must come from the node's eth_estimateGas, not from its own simulation.
contract Clear is WithVm {
    function run() external {
        Store s = Store(vm.envAddress("STORE"));
        vm.startBroadcast();
        s.clear(150);
        vm.stopBroadcast();
    }
}
