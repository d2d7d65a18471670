// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Plain storage, for eth_getStorageAt and state override tests (slot 0 = value, slot 1 = owner).
contract Storage {
    uint256 public value;
    address public owner;

    event ValueChanged(uint256 indexed oldValue, uint256 newValue);

    constructor(uint256 initial) {
        value = initial;
        owner = msg.sender;
    }

    function set(uint256 v) external {
        emit ValueChanged(value, v);
        value = v;
    }

    function get() external view returns (uint256) {
        return value;
    }
}

/// Emits logs with indexed and unindexed data, for eth_getLogs, filters and subscriptions.
contract Emitter {
    event Ping(address indexed sender, uint256 indexed n, string note);
    event Data(bytes32 indexed tag, bytes payload);
    event Anon(uint256 n) anonymous;

    function ping(uint256 n, string calldata note) external {
        emit Ping(msg.sender, n, note);
    }

    function many(uint256 count) external {
        for (uint256 i = 0; i < count; i++) emit Ping(msg.sender, i, "many");
        emit Data(keccak256("many"), abi.encode(count));
        emit Anon(count);
    }
}

/// Every way a call can fail.
contract Reverter {
    error Custom(uint256 code, string why);

    uint256 public counter;

    function revertWithReason() external pure {
        revert("Reverter: nope");
    }

    function revertWithCustom() external pure {
        revert Custom(42, "custom");
    }

    function revertBare() external pure {
        revert();
    }

    function panicDivide(uint256 d) external pure returns (uint256) {
        return 1 / d;
    }

    function requireBig(uint256 n) external {
        require(n > 100, "Reverter: too small");
        counter += n;
    }

    function outOfGas() external {
        while (true) counter++;
    }
}

/// Calls into another contract, for nested call traces (CALL, STATICCALL, DELEGATECALL, CREATE).
contract Caller {
    event Called(address target, bool ok);

    function callSet(address storageAddr, uint256 v) external returns (uint256) {
        Storage(storageAddr).set(v);
        return Storage(storageAddr).get();
    }

    function callRevert(address reverter) external returns (bool ok) {
        (ok, ) = reverter.call(abi.encodeWithSelector(Reverter.revertWithReason.selector));
        emit Called(reverter, ok);
    }

    function callRevertHard(address reverter) external {
        Reverter(reverter).revertWithReason();
    }

    function delegate(address storageAddr, uint256 v) external returns (bool ok) {
        (ok, ) = storageAddr.delegatecall(abi.encodeWithSelector(Storage.set.selector, v));
    }

    function create(uint256 initial) external returns (address) {
        return address(new Storage(initial));
    }

    function pay(address payable to) external payable {
        to.transfer(msg.value);
    }
}
