// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";
import {WithVm} from "../src/Vm.sol";
import {console} from "../src/console.sol";

/// `new C{salt: s}()` in a script is sent to the CREATE2 deployer 0x4e59b448…956c.
contract Create2Deploy is WithVm {
    address constant DEPLOYER = 0x4e59b44847b379578588920cA78FbF26c0B4956C;

    function run() external {
        bytes32 salt = bytes32(vm.envOr("SALT", uint256(1)));
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(Counter).creationCode, abi.encode(uint256(11))));
        address expected = address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), DEPLOYER, salt, initCodeHash)))));
        vm.startBroadcast();
        Counter c = new Counter{salt: salt}(11);
        vm.stopBroadcast();
        require(address(c) == expected, "not the deployer's address");
        console.log("create2", address(c));
    }
}
