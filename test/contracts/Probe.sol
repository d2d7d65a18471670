// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Child {
    uint256 public v;
    constructor(uint256 x) payable { v = x; }
    function kill(address payable to) external { selfdestruct(to); }
}

contract Probe {
    uint256 public a; // slot 0
    uint256 public b; // slot 1
    constructor() payable { a = 1; }
    function write(uint256 x, uint256 y) external { a = x; b = y; }
    function read() external view returns (uint256) { return a + b; }
    function touch(address who) external view returns (uint256 bal, uint256 size, bytes32 h) {
        bal = who.balance;
        size = who.code.length;
        h = who.codehash;
    }
    function spawn(uint256 x) external payable returns (address c, address c2) {
        c = address(new Child{value: msg.value}(x));
        c2 = address(new Child{salt: bytes32(x)}(x));
    }
    function hash(bytes calldata d) external view returns (bytes32) { return sha256(d); }
    function fail() external { a = 7; revert("Probe: no"); }
    function relay(address t, bytes calldata d) external payable returns (bool ok) { (ok, ) = t.delegatecall(d); }
    function burn() external { while (true) b++; }
}
