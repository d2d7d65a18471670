// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Counter} from "../src/Counter.sol";
import {WithVm} from "../src/Vm.sol";

/// Run by run.mjs as `forge test --fork-url <powder>` with COUNTER (a deployed Counter), RPC (the
/// node's URL), OLD_BLOCK (a block before COUNTER was deployed), NEW_BLOCK (one after) and TXH
/// (the hash of a mined `increment()` on COUNTER) in the environment.
contract ForkTest is WithVm {
    event Incremented(address indexed by, uint256 newValue);

    Counter c;

    function setUp() public {
        c = Counter(payable(vm.envAddress("COUNTER")));
    }

    function test_readState() public view {
        require(c.number() > 0, "number is zero");
        require(address(c).code.length > 0, "no code");
        require(block.chainid == 43210, "chain id");
        require(block.number >= vm.envUint("NEW_BLOCK"), "block number");
        require(address(0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266).balance > 1000 ether, "dev account not funded");
        require(vm.load(address(c), bytes32(0)) == bytes32(c.number()), "slot 0");
    }

    function test_incrementEmits() public {
        uint256 before = c.number();
        vm.expectEmit(true, false, false, true);
        emit Incremented(address(this), before + 1);
        c.increment();
        require(c.number() == before + 1, "increment");
    }

    function test_customError() public {
        vm.expectRevert(abi.encodeWithSelector(Counter.TooBig.selector, 5000, 1000));
        c.setNumber(5000);
    }

    function test_requireMessage() public {
        vm.expectRevert(bytes("plain require message"));
        c.failRequire();
    }

    function test_prankDealWarp() public {
        address u = address(0xBEEF);
        vm.deal(u, 1 ether);
        require(u.balance == 1 ether, "deal");
        vm.prank(u);
        c.increment();
        require(c.perUser(u) == 1, "prank");
        uint256 t = block.timestamp + 1 days;
        vm.warp(t);
        require(block.timestamp == t, "warp");
        vm.roll(block.number + 100);
        require(block.number == vm.getBlockNumber(), "roll");
    }

    function test_createSelectForkOldBlockAndRoll() public {
        uint256 oldBlock = vm.envUint("OLD_BLOCK");
        vm.createSelectFork(vm.envString("RPC"), oldBlock);
        require(block.number == oldBlock, "fork block number");
        require(address(c).code.length == 0, "COUNTER has code before its deployment");
        vm.rollFork(vm.envUint("NEW_BLOCK"));
        require(block.number == vm.envUint("NEW_BLOCK"), "rolled block number");
        require(address(c).code.length > 0, "COUNTER has no code after rollFork");
    }

    function test_transact() public {
        // Replays a mined increment() on top of the fork: the counter moves on by one.
        uint256 before = c.number();
        vm.transact(vm.envBytes32("TXH"));
        require(c.number() == before + 1, "transact did not increment");
    }

    function test_vmRpc() public {
        bytes memory r = vm.rpc("eth_chainId", "[]");
        require(keccak256(r) == keccak256(abi.encodePacked(uint16(43210))), "eth_chainId by vm.rpc");
    }
}
