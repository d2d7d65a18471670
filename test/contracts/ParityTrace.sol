// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A callee that fails in the ways Parity names: a revert with data, an invalid opcode, a loop
/// that runs out of gas; and a payable function that succeeds.
contract TraceTarget {
    error Nope(uint256 code);

    function fail(uint256 code) external pure {
        revert Nope(code);
    }

    function bad() external pure {
        assembly {
            invalid()
        }
    }

    function spin() external pure {
        assembly {
            for {} 1 {} {}
        }
    }

    function poke() external payable returns (uint256) {
        return 7;
    }
}

/// A contract whose constructor reverts.
contract Unborn {
    constructor() {
        revert("unborn");
    }
}

/// Calls the target and survives its failures (each a sub-trace with an error), calls the sha256
/// precompile (left out of Parity traces), then pays the target.
contract TraceProbe {
    function probe(TraceTarget t) external payable returns (bytes32 h) {
        (bool ok, ) = address(t).call(abi.encodeCall(TraceTarget.fail, (7)));
        require(!ok);
        (ok, ) = address(t).call(abi.encodeCall(TraceTarget.bad, ()));
        require(!ok);
        (ok, ) = address(t).call{gas: 5000}(abi.encodeCall(TraceTarget.spin, ()));
        require(!ok);
        h = sha256("x");
        t.poke{value: 1}();
    }

    /// A CREATE whose constructor reverts, survived.
    function probeCreate() external returns (bool made) {
        try new Unborn() {
            made = true;
        } catch {}
    }

    /// Fails itself after a nested call that succeeded: the top trace has the error.
    function probeThenFail(TraceTarget t) external {
        t.poke();
        revert("no");
    }
}
