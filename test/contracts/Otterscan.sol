// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A child the factory makes: holds the wei it is made with, answers a view, and can self-destruct.
contract OtsChild {
    uint256 public n = 1;

    constructor() payable {}

    function ping() external view returns (uint256) {
        return n;
    }

    /// Payable: a DELEGATECALL keeps the caller's msg.value.
    function echo() external payable returns (uint256) {
        return n + 1;
    }

    function destroy(address payable to) external {
        selfdestruct(to);
    }
}

/// Every internal operation Otterscan lists, in one call: CREATE (with value), CREATE2, a value
/// transfer to an EOA, a STATICCALL, a DELEGATECALL and a SELFDESTRUCT (of the child made with
/// value, in the same tx, so the child is gone after it).
contract OtsFactory {
    error Nope(uint256 code);

    constructor() payable {}

    function build(address payable to, bytes32 salt) external payable returns (address kept) {
        OtsChild gone = new OtsChild{value: 3}();
        kept = address(new OtsChild{salt: salt}());
        to.transfer(2);
        gone.ping();
        (bool ok, ) = kept.delegatecall(abi.encodeWithSelector(OtsChild.echo.selector));
        require(ok);
        gone.destroy(to);
    }

    function fail(uint256 code) external pure {
        revert Nope(code);
    }

    function failBare() external pure {
        revert();
    }

    /// A call that touches `who` only inside the tx (a zero-value call to it).
    function poke(address who) external {
        (bool ok, ) = who.call("");
        require(ok);
    }
}
