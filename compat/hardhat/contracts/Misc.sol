// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Reverts of every kind, storage at known slots, payable paths and events for the chai matchers
/// and the network helpers.
contract Misc {
    uint256 public value; // slot 0
    address public admin; // slot 1
    uint256[] public arr; // slot 2
    mapping(address => uint256) public deposits; // slot 3

    event ValueChanged(address indexed by, uint256 oldValue, uint256 newValue);
    event Deposited(address indexed from, uint256 amount);

    error Unauthorized(address caller, string reason);
    error Empty();

    constructor() {
        admin = msg.sender;
    }

    function setValue(uint256 v) external {
        emit ValueChanged(msg.sender, value, v);
        value = v;
    }

    function onlyAdmin() external view {
        if (msg.sender != admin) revert Unauthorized(msg.sender, "not admin");
    }

    function emptyError() external pure {
        revert Empty();
    }

    function requireMsg(uint256 x) external pure returns (uint256) {
        require(x > 10, "x too small");
        return x;
    }

    function requireNoMsg(uint256 x) external pure returns (uint256) {
        require(x > 10);
        return x;
    }

    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }

    function overflow(uint256 a) external pure returns (uint256) {
        return a + type(uint256).max;
    }

    function outOfBounds(uint256 i) external view returns (uint256) {
        return arr[i];
    }

    function assertFail() external {
        value = 1;
        assert(false);
    }

    function deposit() external payable {
        require(msg.value > 0, "no value");
        deposits[msg.sender] += msg.value;
        emit Deposited(msg.sender, msg.value);
    }

    function withdrawAll() external {
        uint256 a = deposits[msg.sender];
        deposits[msg.sender] = 0;
        (bool ok, ) = payable(msg.sender).call{value: a}("");
        require(ok, "send failed");
    }

    function sendTo(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok, "send failed");
    }

    receive() external payable {
        emit Deposited(msg.sender, msg.value);
    }
}
