// hardhat-chai-matchers against Powder: events, reverts, balance changes.
const { expect } = require("chai");
const { ethers, network } = require("hardhat");
const { loadFixture } = require("@nomicfoundation/hardhat-network-helpers");
const { PANIC_CODES } = require("@nomicfoundation/hardhat-chai-matchers/panic");
const { anyValue } = require("@nomicfoundation/hardhat-chai-matchers/withArgs");

async function deployFixture() {
  const [owner, alice, bob] = await ethers.getSigners();
  const token = await ethers.deployContract("Token", [ethers.parseEther("1000")]);
  const misc = await ethers.deployContract("Misc");
  return { owner, alice, bob, token, misc };
}

describe("chai matchers", function () {
  it("emit / withArgs, and not.emit", async function () {
    const { owner, alice, token, misc } = await loadFixture(deployFixture);
    await expect(token.transfer(alice.address, 50n))
      .to.emit(token, "Transfer")
      .withArgs(owner.address, alice.address, 50n);
    await expect(misc.setValue(7)).to.emit(misc, "ValueChanged").withArgs(owner.address, 0n, 7n);
    await expect(misc.setValue(8)).to.emit(misc, "ValueChanged").withArgs(anyValue, 7n, 8n);
    await expect(misc.setValue(9)).to.not.emit(misc, "Deposited");
    await expect(owner.sendTransaction({ to: misc.target, value: 3n }))
      .to.emit(misc, "Deposited")
      .withArgs(owner.address, 3n);
  });

  it("emit fails on wrong arguments (the matcher really checks)", async function () {
    const { alice, token } = await loadFixture(deployFixture);
    await expect(
      expect(token.transfer(alice.address, 1n)).to.emit(token, "Transfer").withArgs(alice.address, alice.address, 1n),
    ).to.be.rejectedWith(/Error in "Transfer" event/);
  });

  it("revertedWith: a transaction and a view", async function () {
    const { owner, alice, bob, token, misc } = await loadFixture(deployFixture);
    await expect(token.connect(alice).transferFrom(owner.address, bob.address, 1n)).to.be.revertedWith(
      "Token: allowance exceeded",
    );
    await expect(misc.requireMsg(1)).to.be.revertedWith("x too small");
    await expect(misc.deposit({ value: 0 })).to.be.revertedWith("no value");
    await expect(misc.deposit({ value: 1 })).to.not.be.reverted;
  });

  it("a reverted transaction that is mined (explicit gasLimit: no estimate first)", async function () {
    // .reverted reads the receipt's status. revertedWith(...) on a MINED transaction fails on
    // Anvil as on Powder: only a node that throws at eth_sendTransaction (the Hardhat node) hands
    // the matcher the revert data.
    const { misc } = await loadFixture(deployFixture);
    const tx = await misc.deposit({ value: 0, gasLimit: 100000 });
    await expect(tx).to.be.reverted;
    const receipt = await ethers.provider.getTransactionReceipt(tx.hash);
    expect(receipt.status).to.equal(0);
    expect(receipt.gasUsed).to.be.lt(100000n);
    let error;
    try {
      await tx.wait();
    } catch (e) {
      error = e;
    }
    expect(error?.code).to.equal("CALL_EXCEPTION");
    expect(await misc.deposits(tx.from)).to.equal(0n);
  });

  it("revertedWithCustomError / withArgs", async function () {
    const { alice, bob, token, misc } = await loadFixture(deployFixture);
    await expect(token.connect(alice).transfer(bob.address, 1n))
      .to.be.revertedWithCustomError(token, "InsufficientBalance")
      .withArgs(0n, 1n);
    await expect(token.connect(alice).mint(bob.address, 1n))
      .to.be.revertedWithCustomError(token, "NotOwner")
      .withArgs(alice.address);
    await expect(misc.connect(alice).onlyAdmin())
      .to.be.revertedWithCustomError(misc, "Unauthorized")
      .withArgs(alice.address, "not admin");
    await expect(misc.emptyError()).to.be.revertedWithCustomError(misc, "Empty");
  });

  it("revertedWithPanic", async function () {
    const { misc } = await loadFixture(deployFixture);
    await expect(misc.divide(1, 0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO);
    await expect(misc.overflow(1)).to.be.revertedWithPanic(PANIC_CODES.ARITHMETIC_OVERFLOW);
    await expect(misc.outOfBounds(3)).to.be.revertedWithPanic(PANIC_CODES.ARRAY_ACCESS_OUT_OF_BOUNDS);
    await expect(misc.assertFail()).to.be.revertedWithPanic(PANIC_CODES.ASSERTION_ERROR);
    await expect(misc.divide(1, 0)).to.not.be.revertedWithPanic(PANIC_CODES.ARITHMETIC_OVERFLOW);
  });

  it("a revert without data: the node answers `execution reverted` with no data", async function () {
    // Documented difference (docs/dev-chain.md, "From Hardhat and Foundry"): revertedWithoutReason()
    // FAILS on Powder, as on a real Subnet-EVM node. geth answers a revert without data with a plain
    // {"code":-32000,"message":"execution reverted"} and no `data` (Anvil: code 3, "data":"0x"),
    // and the matcher cannot tell it from other errors. So assert the node's answer itself.
    const { misc } = await loadFixture(deployFixture);
    const data = misc.interface.encodeFunctionData("requireNoMsg", [1]);
    let error;
    try {
      await network.provider.request({ method: "eth_call", params: [{ to: misc.target, data }, "latest"] });
    } catch (e) {
      error = e;
    }
    expect(error, "eth_call of a reasonless revert must fail").to.exist;
    expect(error.message).to.equal("execution reverted");
    expect(error.code).to.equal(-32000);
    expect(error.data).to.equal(undefined);
    // the same call with a reason carries its data
    await expect(misc.requireNoMsg(11)).to.not.be.reverted;
  });

  it("changeEtherBalance / changeEtherBalances", async function () {
    const { owner, alice, bob, misc } = await loadFixture(deployFixture);
    await expect(misc.deposit({ value: 1000n })).to.changeEtherBalance(misc, 1000n);
    await expect(misc.deposit({ value: 1000n })).to.changeEtherBalance(owner, -1000n, { includeFee: false });
    await expect(misc.sendTo(bob.address, { value: 777n })).to.changeEtherBalances(
      [owner, bob, misc],
      [-777n, 777n, 0n],
    );
    await expect(owner.sendTransaction({ to: alice.address, value: 5n })).to.changeEtherBalances(
      [owner, alice],
      [-5n, 5n],
    );
    // includeFee: the owner pays the value and the gas, at the receipt's effective gas price
    const tx = misc.withdrawAll();
    await expect(tx).to.changeEtherBalance(misc, -2000n);
    const receipt = await (await tx).wait();
    await expect(tx).to.changeEtherBalance(owner, 2000n - receipt.gasUsed * receipt.gasPrice, { includeFee: true });
  });

  it("changeTokenBalance / changeTokenBalances", async function () {
    const { owner, alice, bob, token } = await loadFixture(deployFixture);
    await expect(token.transfer(alice.address, 10n)).to.changeTokenBalance(token, alice, 10n);
    await expect(token.transfer(bob.address, 20n)).to.changeTokenBalances(token, [owner, bob], [-20n, 20n]);
    await expect(
      expect(token.transfer(bob.address, 20n)).to.changeTokenBalance(token, bob, 21n),
    ).to.be.rejectedWith(/change by 21/);
  });
});
