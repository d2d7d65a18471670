// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The ABI of Hardhat's console.sol / forge-std's console (a subset, written out here so the tests
// need neither package): every function sends `abi.encodeWithSignature("log(...)", args)` to the
// console address by STATICCALL.
library console {
    address constant CONSOLE_ADDRESS = 0x000000000000000000636F6e736F6c652e6c6f67;

    function _send(bytes memory payload) internal view {
        address a = CONSOLE_ADDRESS;
        assembly {
            pop(staticcall(gas(), a, add(payload, 32), mload(payload), 0, 0))
        }
    }

    function log() internal view { _send(abi.encodeWithSignature("log()")); }
    function log(string memory p0) internal view { _send(abi.encodeWithSignature("log(string)", p0)); }
    function log(bool p0) internal view { _send(abi.encodeWithSignature("log(bool)", p0)); }
    function logInt(int256 p0) internal view { _send(abi.encodeWithSignature("log(int256)", p0)); }
    function logUint(uint256 p0) internal view { _send(abi.encodeWithSignature("log(uint256)", p0)); }
    function logBytes(bytes memory p0) internal view { _send(abi.encodeWithSignature("log(bytes)", p0)); }
    function logBytes3(bytes3 p0) internal view { _send(abi.encodeWithSignature("log(bytes3)", p0)); }
    function logBytes32(bytes32 p0) internal view { _send(abi.encodeWithSignature("log(bytes32)", p0)); }
    function log(string memory p0, uint256 p1) internal view { _send(abi.encodeWithSignature("log(string,uint256)", p0, p1)); }
    function log(string memory p0, address p1, bool p2) internal view { _send(abi.encodeWithSignature("log(string,address,bool)", p0, p1, p2)); }
    function log(uint256 p0, uint256 p1, string memory p2, string memory p3) internal view {
        _send(abi.encodeWithSignature("log(uint256,uint256,string,string)", p0, p1, p2, p3));
    }
}

contract ConsoleUser {
    uint256 public x;

    function hi(uint256 v) public {
        x = v;
        console.log("Hello %s world", v);
        console.log("sender", msg.sender, true);
        console.logInt(-7);
        console.logUint(type(uint256).max);
        console.logBytes3(0x010203);
        console.logBytes(hex"dead");
        console.logBytes32(keccak256("x"));
        console.log("pct %d %i %%d %s", v);
        console.log(1, 2, "three %s", "four");
        console.log();
        console.log(false);
        // Not console.log calls: an old `uint` spelling, an unknown selector.
        console._send(abi.encodeWithSignature("log(string,uint)", "legacy", v));
        console._send(hex"deadbeef");
    }

    function view5(uint256 v) public view returns (uint256) {
        console.log("view %d", v);
        return v + 1;
    }

    function boom() public view {
        console.log("before revert");
        revert("nope");
    }

    function text(string memory s) public view {
        console.log(s);
    }

    function many(uint256 n) public view {
        for (uint256 i = 0; i < n; i++) console.log("line", i);
    }

    /// A log(string) call whose string offset points past the data: not a console.log.
    function bogus() public view returns (uint256) {
        console._send(abi.encodePacked(bytes4(keccak256("log(string)")), uint256(0x1000)));
        return 1;
    }

    /// The same STATICCALL, to the console address or to another address without code.
    function callEmpty(address target) public view {
        bytes memory payload = abi.encodeWithSignature("log(string)", "gas");
        assembly {
            pop(staticcall(gas(), target, add(payload, 32), mload(payload), 0, 0))
        }
    }
}
