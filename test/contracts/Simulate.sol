// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// What eth_simulateV1's tests call: a counter another block reads, the block's fields, a revert
/// with a reason and one with a custom error, a loop that runs out of gas, value forwarded inside a
/// call between two events (traceTransfers' order), and a SELFDESTRUCT that sends a balance.
contract SimTarget {
    event Note(uint256 step);

    error Nope(uint256 code);

    uint256 public count;

    constructor() payable {}

    function bump(uint256 by) external returns (uint256) {
        count += by;
        emit Note(count);
        return count;
    }

    function stamp() external view returns (uint256 number, uint256 time, uint256 baseFee, address coinbase) {
        return (block.number, block.timestamp, block.basefee, block.coinbase);
    }

    function parentHash() external view returns (bytes32) {
        return blockhash(block.number - 1);
    }

    function fail(string calldata why) external pure {
        require(false, why);
    }

    function failCustom(uint256 code) external pure {
        revert Nope(code);
    }

    function burn() external pure {
        for (;;) {}
    }

    /// Emits 1, sends msg.value to `to` (a child call), emits 2.
    function forward(address payable to) external payable {
        emit Note(1);
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok);
        emit Note(2);
    }

    /// A child call that moves value and then reverts: its transfer must not be listed.
    function forwardThenRevert(address payable to) external payable {
        emit Note(1);
        try this.sendAndFail(to) {} catch {}
        emit Note(3);
    }

    /// Sends this contract's whole balance to `to` by SELFDESTRUCT (EIP-6780: the code stays).
    function die(address payable to) external payable {
        selfdestruct(to);
    }

    function sendAndFail(address payable to) external payable {
        (bool ok, ) = to.call{value: 1}("");
        require(ok);
        revert("child fails");
    }
}
