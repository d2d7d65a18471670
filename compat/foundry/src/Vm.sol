// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The cheatcodes this project uses, declared by hand (forge-std is not installed: it needs git).
// Signatures as in forge-std's Vm.sol; the address is forge's cheatcode address.
interface Vm {
    // scripts
    function startBroadcast() external;
    function startBroadcast(uint256 privateKey) external;
    function stopBroadcast() external;
    function envUint(string calldata name) external view returns (uint256);
    function envOr(string calldata name, uint256 defaultValue) external view returns (uint256);
    function envAddress(string calldata name) external view returns (address);
    function envString(string calldata name) external view returns (string memory);
    function envBytes32(string calldata name) external view returns (bytes32);
    function addr(uint256 privateKey) external pure returns (address);
    // forks
    function createFork(string calldata urlOrAlias) external returns (uint256);
    function createSelectFork(string calldata urlOrAlias) external returns (uint256);
    function createSelectFork(string calldata urlOrAlias, uint256 blockNumber) external returns (uint256);
    function selectFork(uint256 forkId) external;
    function activeFork() external view returns (uint256);
    function rollFork(uint256 blockNumber) external;
    function transact(bytes32 txHash) external;
    function rpc(string calldata method, string calldata params) external returns (bytes memory);
    // state
    function warp(uint256 newTimestamp) external;
    function roll(uint256 newHeight) external;
    function prank(address msgSender) external;
    function deal(address account, uint256 newBalance) external;
    function load(address target, bytes32 slot) external view returns (bytes32);
    function getBlockNumber() external view returns (uint256);
    function getBlockTimestamp() external view returns (uint256);
    // expectations
    function expectRevert(bytes calldata revertData) external;
    function expectRevert(bytes4 revertData) external;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData) external;
}

abstract contract WithVm {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
}
