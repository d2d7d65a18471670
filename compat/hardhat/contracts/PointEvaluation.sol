// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Calls the KZG point-evaluation precompile (EIP-4844, address 0x0a).
contract PointEvaluation {
    address constant POINT_EVALUATION = address(0x0a);

    bool public lastOk; // slot 0
    bytes32 public lastOutputHash; // slot 1

    event Evaluated(bool ok, bytes output);

    /// input: versioned_hash (32) | z (32) | y (32) | commitment (48) | proof (48)
    function evaluate(bytes calldata input) public view returns (bool ok, bytes memory output) {
        (ok, output) = POINT_EVALUATION.staticcall(input);
    }

    /// The same in a transaction, keeping the result in storage and in a log.
    function evaluateAndStore(bytes calldata input) external {
        (bool ok, bytes memory output) = evaluate(input);
        lastOk = ok;
        lastOutputHash = keccak256(output);
        emit Evaluated(ok, output);
    }
}
