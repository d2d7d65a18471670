// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";
import {WithVm} from "../src/Vm.sol";
import {console} from "../src/console.sol";

/// Six transactions from one sender: two deployments (one with value), calls, a transfer.
contract Deploy is WithVm {
    function run() external {
        vm.startBroadcast();
        Counter c = new Counter(5);
        c.increment();
        c.setNumber(42);
        c.increment();
        payable(address(0x70997970C51812dc3A010C7d01b50e0d17dc79C8)).transfer(1 ether);
        Counter c2 = new Counter{value: 1 wei}(7);
        vm.stopBroadcast();
        console.log("deployed", address(c));
        console.log("deployed2", address(c2));
    }
}
