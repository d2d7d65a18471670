// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Fills and clears storage slots: clearing earns a gas refund on Ethereum (what `forge script`'s
/// simulation counts) and none on Subnet-EVM (what the node charges).
contract Store {
    uint256[200] public slots;

    function fill(uint256 n) external {
        for (uint256 i = 0; i < n; i++) slots[i] = i + 1;
    }

    function clear(uint256 n) external {
        for (uint256 i = 0; i < n; i++) slots[i] = 0;
    }
}
