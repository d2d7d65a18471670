// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
// minimal forge-std console subset (same ABI/addresses as forge-std)
library console {
    address constant CONSOLE_ADDRESS = 0x000000000000000000636F6e736F6c652e6c6f67;
    function _send(bytes memory payload) private view {
        address a = CONSOLE_ADDRESS;
        assembly { pop(staticcall(gas(), a, add(payload, 32), mload(payload), 0, 0)) }
    }
    function log(string memory p0) internal view { _send(abi.encodeWithSignature("log(string)", p0)); }
    function log(string memory p0, uint256 p1) internal view { _send(abi.encodeWithSignature("log(string,uint256)", p0, p1)); }
    function log(string memory p0, address p1) internal view { _send(abi.encodeWithSignature("log(string,address)", p0, p1)); }
}
