// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {console} from "./console.sol";

contract Counter {
    uint256 public number;
    mapping(address => uint256) public perUser;

    event Incremented(address indexed by, uint256 newValue);

    error TooBig(uint256 value, uint256 max);

    constructor(uint256 start) payable {
        number = start;
    }

    receive() external payable {}

    function setNumber(uint256 n) public {
        if (n > 1000) revert TooBig(n, 1000);
        number = n;
    }

    function increment() public {
        number++;
        perUser[msg.sender]++;
        console.log("incremented to", number);
        emit Incremented(msg.sender, number);
    }

    function failRequire() public pure {
        require(false, "plain require message");
    }

    /// Sends `amount` of this contract's balance to `to` (for impersonation checks: the contract
    /// itself is the sender when it is impersonated).
    function pay(address payable to, uint256 amount) external {
        to.transfer(amount);
    }
}
