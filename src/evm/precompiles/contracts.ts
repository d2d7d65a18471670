// Solidity used by the precompile tests (compiled with solc in the tests).
export const PRECOMPILE_TEST_SOURCES = {
  'Precompiles.sol': `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IAllowList {
  event RoleSet(uint256 indexed role, address indexed account, address indexed sender, uint256 oldRole);
  function readAllowList(address addr) external view returns (uint256 role);
  function setAdmin(address addr) external;
  function setEnabled(address addr) external;
  function setManager(address addr) external;
  function setNone(address addr) external;
}

interface INativeMinter is IAllowList {
  event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount);
  function mintNativeCoin(address addr, uint256 amount) external;
}

struct FeeConfig {
  uint256 gasLimit; uint256 targetBlockRate; uint256 minBaseFee; uint256 targetGas;
  uint256 baseFeeChangeDenominator; uint256 minBlockGasCost; uint256 maxBlockGasCost; uint256 blockGasCostStep;
}

interface IFeeManager is IAllowList {
  function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas,
    uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep) external;
  function getFeeConfig() external view returns (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas,
    uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep);
  function getFeeConfigLastChangedAt() external view returns (uint256 blockNumber);
}

interface IRewardManager is IAllowList {
  function setRewardAddress(address addr) external;
  function allowFeeRecipients() external;
  function disableRewards() external;
  function currentRewardAddress() external view returns (address rewardAddress);
  function areFeeRecipientsAllowed() external view returns (bool isAllowed);
}

struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }
struct WarpBlockHash { bytes32 sourceChainID; bytes32 blockHash; }
interface IWarpMessenger {
  event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message);
  function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);
  function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage calldata message, bool valid);
  function getVerifiedWarpBlockHash(uint32 index) external view returns (WarpBlockHash calldata warpBlockHash, bool valid);
  function getBlockchainID() external view returns (bytes32 blockchainID);
}

contract Child { uint256 public x = 1; }

/// Forwards calls so a contract can be the caller / use STATICCALL / DELEGATECALL / CREATE.
contract Proxy {
  event Result(bool ok, uint256 gasUsed, bytes ret);
  receive() external payable {}
  function doCall(address target, bytes calldata data) external payable returns (bool ok, bytes memory ret) {
    uint256 g = gasleft();
    (ok, ret) = target.call{value: msg.value}(data);
    emit Result(ok, g - gasleft(), ret);
  }
  function doStaticCall(address target, bytes calldata data) external view returns (bool ok, bytes memory ret) {
    (ok, ret) = target.staticcall(data);
  }
  function doDelegateCall(address target, bytes calldata data) external returns (bool ok, bytes memory ret) {
    (ok, ret) = target.delegatecall(data);
  }
  /// calls target with a fixed gas budget and reports the gas used by the call
  function gasOf(address target, bytes calldata data, uint256 budget) external returns (bool ok, uint256 used) {
    uint256 g = gasleft();
    (ok, ) = target.call{gas: budget}(data);
    used = g - gasleft();
  }
  function deployChild() external returns (address) { return address(new Child()); }
  function tryDeployChild() external returns (bool ok, address child) {
    try this.deployChild() returns (address a) { return (true, a); } catch { return (false, address(0)); }
  }
}

/// Typed use of the precompiles from Solidity.
contract Minter {
  INativeMinter constant MINTER = INativeMinter(0x0200000000000000000000000000000000000001);
  function mint(address to, uint256 amount) external { MINTER.mintNativeCoin(to, amount); }
  function role(address who) external view returns (uint256) { return MINTER.readAllowList(who); }
}

contract WarpSender {
  IWarpMessenger constant WARP = IWarpMessenger(0x0200000000000000000000000000000000000005);
  function send(bytes calldata payload) external returns (bytes32) { return WARP.sendWarpMessage(payload); }
  function chainID() external view returns (bytes32) { return WARP.getBlockchainID(); }
  function verified(uint32 i) external view returns (bytes32, address, bytes memory, bool) {
    (WarpMessage memory m, bool valid) = WARP.getVerifiedWarpMessage(i);
    return (m.sourceChainID, m.originSenderAddress, m.payload, valid);
  }
  function verifiedHash(uint32 i) external view returns (bytes32, bytes32, bool) {
    (WarpBlockHash memory h, bool valid) = WARP.getVerifiedWarpBlockHash(i);
    return (h.sourceChainID, h.blockHash, valid);
  }
}
`,
};
