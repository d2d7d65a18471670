// @nomicfoundation/hardhat-network-helpers against Powder (started with
// --web3-client-version=anvil/powder, so the helpers send anvil_* / evm_* requests).
const { expect } = require("chai");
const { ethers, network } = require("hardhat");
const helpers = require("@nomicfoundation/hardhat-network-helpers");
const { time, mine, mineUpTo, loadFixture, takeSnapshot } = helpers;

async function deployFixture() {
  const [owner, alice, bob] = await ethers.getSigners();
  const token = await ethers.deployContract("Token", [ethers.parseEther("1000")]);
  const misc = await ethers.deployContract("Misc");
  return { owner, alice, bob, token, misc };
}

const randomAddress = () => ethers.Wallet.createRandom().address;

describe("network helpers", function () {
  it("loadFixture deploys once, then reverts to the fixture's state", async function () {
    const first = await loadFixture(deployFixture);
    await (await first.token.transfer(first.alice.address, 1n)).wait();
    await (await first.misc.setValue(5)).wait();
    const head = await ethers.provider.getBlockNumber();
    const second = await loadFixture(deployFixture);
    expect(second.token.target).to.equal(first.token.target);
    expect(await second.token.balanceOf(second.alice.address)).to.equal(0n);
    expect(await second.misc.value()).to.equal(0n);
    expect(await ethers.provider.getBlockNumber()).to.equal(head - 2);
  });

  it("time.latest is the head's timestamp", async function () {
    await mine();
    const block = await ethers.provider.getBlock("latest");
    expect(await time.latest()).to.equal(block.timestamp);
    expect(await time.latestBlock()).to.equal(block.number);
  });

  it("time.increase mines a block that much later", async function () {
    const t0 = await time.latest();
    const n0 = await ethers.provider.getBlockNumber();
    const returned = await time.increase(3600);
    const t1 = await time.latest();
    expect(await ethers.provider.getBlockNumber()).to.equal(n0 + 1);
    expect(returned).to.equal(t1);
    expect(t1 - t0).to.be.gte(3600).and.lte(3602);
  });

  it("time.increaseTo and time.setNextBlockTimestamp set the next block's time", async function () {
    const { misc } = await loadFixture(deployFixture);
    const target = (await time.latest()) + 86400;
    await time.increaseTo(target);
    expect(await time.latest()).to.equal(target);
    const next = target + 1000;
    await time.setNextBlockTimestamp(next);
    const receipt = await (await misc.setValue(1)).wait();
    expect((await ethers.provider.getBlock(receipt.blockNumber)).timestamp).to.equal(next);
    await expect(time.increaseTo(target)).to.be.rejected; // the past
  });

  it("mine, mine(n, { interval }) and mineUpTo", async function () {
    const n0 = await ethers.provider.getBlockNumber();
    await mine();
    expect(await ethers.provider.getBlockNumber()).to.equal(n0 + 1);
    const t0 = await time.latest();
    await mine(10, { interval: 60 });
    expect(await ethers.provider.getBlockNumber()).to.equal(n0 + 11);
    const first = await ethers.provider.getBlock(n0 + 2);
    const last = await ethers.provider.getBlock(n0 + 11);
    expect(first.timestamp).to.be.gte(t0);
    expect(last.timestamp - first.timestamp).to.equal(9 * 60);
    await mineUpTo(n0 + 20);
    expect(await ethers.provider.getBlockNumber()).to.equal(n0 + 20);
    await expect(mineUpTo(n0 + 20)).to.be.rejected; // not after the head
  });

  it("setBalance", async function () {
    const address = randomAddress();
    await helpers.setBalance(address, ethers.parseEther("123"));
    expect(await ethers.provider.getBalance(address)).to.equal(ethers.parseEther("123"));
    await helpers.setBalance(address, 0n);
    expect(await ethers.provider.getBalance(address)).to.equal(0n);
  });

  it("setCode puts runtime code that runs", async function () {
    const { misc } = await loadFixture(deployFixture);
    const target = randomAddress();
    const code = await ethers.provider.getCode(misc.target);
    await helpers.setCode(target, code);
    expect(await ethers.provider.getCode(target)).to.equal(code);
    const copy = await ethers.getContractAt("Misc", target);
    expect(await copy.requireMsg(11)).to.equal(11n);
    expect(await copy.admin()).to.equal(ethers.ZeroAddress); // code only, no storage
  });

  it("setStorageAt / getStorageAt, also at a past block", async function () {
    const { owner, misc } = await loadFixture(deployFixture);
    expect(ethers.getAddress(ethers.dataSlice(await helpers.getStorageAt(misc.target, 1), 12))).to.equal(owner.address);
    const before = await ethers.provider.getBlockNumber();
    await (await misc.setValue(77)).wait();
    expect(BigInt(await helpers.getStorageAt(misc.target, 0))).to.equal(77n);
    expect(BigInt(await helpers.getStorageAt(misc.target, 0, before))).to.equal(0n);
    // setStorageAt edits the head's state (as on Anvil): no block is mined
    const head = await ethers.provider.getBlockNumber();
    await helpers.setStorageAt(misc.target, 0, 12345);
    expect(await misc.value()).to.equal(12345n);
    expect(BigInt(await helpers.getStorageAt(misc.target, 0))).to.equal(12345n);
    expect(BigInt(await helpers.getStorageAt(misc.target, "0x0", "latest"))).to.equal(12345n);
    expect(await ethers.provider.getBlockNumber()).to.equal(head);
    // a mapping slot: deposits[owner] at keccak256(owner . 3)
    const slot = ethers.keccak256(ethers.AbiCoder.defaultAbiCoder().encode(["address", "uint256"], [owner.address, 3]));
    await helpers.setStorageAt(misc.target, slot, 77);
    expect(await misc.deposits(owner.address)).to.equal(77n);
  });

  it("setNonce: the next transaction uses it", async function () {
    const address = randomAddress();
    await helpers.setNonce(address, 42);
    expect(await ethers.provider.getTransactionCount(address)).to.equal(42);
    await helpers.setBalance(address, ethers.parseEther("1"));
    await helpers.impersonateAccount(address);
    const signer = await ethers.getSigner(address);
    const tx = await signer.sendTransaction({ to: address, value: 1n });
    expect(tx.nonce).to.equal(42);
    expect((await tx.wait()).status).to.equal(1);
    expect(await ethers.provider.getTransactionCount(address)).to.equal(43);
    await helpers.stopImpersonatingAccount(address);
  });

  it("impersonateAccount of an EOA, then stopImpersonatingAccount", async function () {
    const { token, bob } = await loadFixture(deployFixture);
    const whale = randomAddress();
    await (await token.transfer(whale, 500n)).wait();
    await helpers.setBalance(whale, ethers.parseEther("10"));
    await helpers.impersonateAccount(whale);
    const signer = await ethers.getSigner(whale);
    await expect(token.connect(signer).transfer(bob.address, 100n)).to.changeTokenBalances(
      token,
      [whale, bob],
      [-100n, 100n],
    );
    await helpers.stopImpersonatingAccount(whale);
    await expect(token.connect(signer).transfer(bob.address, 1n)).to.be.rejected;
    expect(await token.balanceOf(whale)).to.equal(400n);
  });

  it("impersonateAccount of a deployed contract sends a transaction from it", async function () {
    const { token, misc, bob } = await loadFixture(deployFixture);
    await (await token.transfer(misc.target, 1000n)).wait();
    await helpers.setBalance(misc.target, ethers.parseEther("1"));
    await helpers.impersonateAccount(misc.target);
    const asContract = await ethers.getSigner(misc.target);
    const tx = await token.connect(asContract).transfer(bob.address, 250n);
    const receipt = await tx.wait();
    expect(receipt.status).to.equal(1);
    expect(receipt.from).to.equal(misc.target);
    expect(await token.balanceOf(misc.target)).to.equal(750n);
    expect(await token.balanceOf(bob.address)).to.equal(250n);
    expect(await ethers.provider.getCode(misc.target)).to.not.equal("0x"); // still a contract
    await helpers.stopImpersonatingAccount(misc.target);
  });

  it("takeSnapshot / restore (twice)", async function () {
    const { misc } = await loadFixture(deployFixture);
    const snapshot = await takeSnapshot();
    const head = await ethers.provider.getBlockNumber();
    await (await misc.setValue(999)).wait();
    expect(await misc.value()).to.equal(999n);
    await snapshot.restore();
    expect(await misc.value()).to.equal(0n);
    expect(await ethers.provider.getBlockNumber()).to.equal(head);
    await (await misc.setValue(5)).wait();
    await snapshot.restore(); // the helper takes a new snapshot after each restore
    expect(await misc.value()).to.equal(0n);
    expect(await ethers.provider.getBlockNumber()).to.equal(head);
  });

  describe("with the automine off", function () {
    beforeEach(async function () {
      await network.provider.request({ method: "evm_setAutomine", params: [false] });
    });
    afterEach(async function () {
      await network.provider.request({ method: "evm_setAutomine", params: [true] });
    });

    it("transactions wait in the pool until mine()", async function () {
      const [owner, alice] = await ethers.getSigners();
      expect(await network.provider.request({ method: "hardhat_getAutomine", params: [] })).to.equal(false);
      const head = await ethers.provider.getBlockNumber();
      const balance = await ethers.provider.getBalance(alice.address);
      const tx1 = await owner.sendTransaction({ to: alice.address, value: 1n });
      const tx2 = await owner.sendTransaction({ to: alice.address, value: 2n });
      expect(tx2.nonce).to.equal(tx1.nonce + 1);
      expect(await ethers.provider.getTransactionReceipt(tx1.hash)).to.equal(null);
      expect(await ethers.provider.getBlockNumber()).to.equal(head);
      expect(await ethers.provider.getBalance(alice.address)).to.equal(balance);
      await mine();
      const [r1, r2] = await Promise.all([tx1.wait(), tx2.wait()]);
      expect(r1.blockNumber).to.equal(head + 1);
      expect(r2.blockNumber).to.equal(head + 1);
      expect(await ethers.provider.getBalance(alice.address)).to.equal(balance + 3n);
    });

    it("dropTransaction removes a pending transaction", async function () {
      const [owner, alice] = await ethers.getSigners();
      const balance = await ethers.provider.getBalance(alice.address);
      const tx = await owner.sendTransaction({ to: alice.address, value: 1n });
      expect((await ethers.provider.getTransaction(tx.hash)).hash).to.equal(tx.hash);
      expect(await helpers.dropTransaction(tx.hash)).to.equal(true);
      await mine();
      expect(await ethers.provider.getTransactionReceipt(tx.hash)).to.equal(null);
      expect(await ethers.provider.getTransaction(tx.hash)).to.equal(null);
      expect(await ethers.provider.getBalance(alice.address)).to.equal(balance);
      expect(await ethers.provider.getTransactionCount(owner.address, "pending")).to.equal(tx.nonce);
    });
  });

  describe("refused: what Subnet-EVM's consensus fixes (docs/dev-chain.md)", function () {
    it("setNextBlockBaseFeePerGas", async function () {
      await expect(helpers.setNextBlockBaseFeePerGas(ethers.parseUnits("30", "gwei"))).to.be.rejectedWith(
        /the base fee is set by the chain's fee config/,
      );
    });

    it("setPrevRandao", async function () {
      await expect(helpers.setPrevRandao(123456789n)).to.be.rejectedWith(/PREVRANDAO is fixed by Subnet-EVM's consensus/);
    });

    it("setCoinbase", async function () {
      await expect(helpers.setCoinbase("0x000000000000000000000000000000000000bEEF")).to.be.rejectedWith(
        /fee recipients are not allowed on this chain/,
      );
      await mine();
      expect((await ethers.provider.getBlock("latest")).miner).to.equal("0x0100000000000000000000000000000000000000");
    });

    it("setBlockGasLimit", async function () {
      await expect(helpers.setBlockGasLimit(25_000_000)).to.be.rejectedWith(
        /the block gas limit is set by the chain's fee config/,
      );
    });
  });
});
