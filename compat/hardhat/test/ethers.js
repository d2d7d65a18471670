// What a Hardhat user does with hardhat-ethers every day: deploy, call, send, read events, sign.
const { expect } = require("chai");
const { ethers } = require("hardhat");

describe("ethers: deploy, calls, events, signing", function () {
  let owner, alice, bob, token;

  before(async function () {
    [owner, alice, bob] = await ethers.getSigners();
    token = await ethers.deployContract("Token", [ethers.parseEther("1000")]);
    await token.waitForDeployment();
  });

  it("uses the node's funded accounts on chain 43210", async function () {
    const signers = await ethers.getSigners();
    expect(signers.length).to.be.gte(10);
    expect(owner.address).to.equal("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(await ethers.provider.getBalance(owner.address)).to.be.gt(ethers.parseEther("1000"));
    expect((await ethers.provider.getNetwork()).chainId).to.equal(43210n);
  });

  it("deploys with a mined receipt, code and the deployer's nonce address", async function () {
    const deployTx = token.deploymentTransaction();
    const receipt = await deployTx.wait();
    expect(receipt.status).to.equal(1);
    expect(receipt.contractAddress).to.equal(await token.getAddress());
    expect(receipt.contractAddress).to.equal(
      ethers.getCreateAddress({ from: owner.address, nonce: deployTx.nonce }),
    );
    const code = await ethers.provider.getCode(token.target);
    expect(code.length).to.be.gt(2);
    expect((await ethers.getContractFactory("Token")).bytecode).to.not.equal(code); // runtime ≠ init code
  });

  it("reads views and runs staticCall", async function () {
    expect(await token.name()).to.equal("Test Token");
    expect(await token.decimals()).to.equal(18n);
    expect(await token.balanceOf(owner.address)).to.equal(ethers.parseEther("1000"));
    expect(await token.transfer.staticCall(alice.address, 1n)).to.equal(true);
  });

  it("sends a transaction and parses its logs from the receipt", async function () {
    const receipt = await (await token.transfer(alice.address, 100n)).wait();
    expect(receipt.status).to.equal(1);
    expect(receipt.from).to.equal(owner.address);
    const events = receipt.logs.map((l) => token.interface.parseLog(l));
    expect(events).to.have.length(1);
    expect(events[0].name).to.equal("Transfer");
    expect(events[0].args.toObject()).to.deep.equal({ from: owner.address, to: alice.address, value: 100n });
    expect(await token.balanceOf(alice.address)).to.equal(100n);
  });

  it("finds events with queryFilter, by topic and over a block range", async function () {
    const from = await ethers.provider.getBlockNumber();
    await (await token.transfer(bob.address, 5n)).wait();
    await (await token.transfer(bob.address, 6n)).wait();
    const toBob = await token.queryFilter(token.filters.Transfer(null, bob.address), from + 1, "latest");
    expect(toBob.map((e) => e.args.value)).to.deep.equal([5n, 6n]);
    const mints = await token.queryFilter(token.filters.Transfer(ethers.ZeroAddress), 0, "latest");
    expect(mints).to.have.length(1);
    expect(mints[0].args.value).to.equal(ethers.parseEther("1000"));
    expect(mints[0].transactionHash).to.equal(token.deploymentTransaction().hash);
  });

  it("contract.on delivers an event (log polling)", async function () {
    this.timeout(30000);
    const received = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no Transfer event within 20 s")), 20000);
      token.on("Transfer", (from, to, value) => {
        if (value !== 42n) return;
        clearTimeout(timer);
        resolve({ from, to, value });
      });
    });
    await new Promise((r) => setTimeout(r, 500)); // let the listener start polling
    await (await token.transfer(bob.address, 42n)).wait();
    try {
      expect(await received).to.deep.equal({ from: owner.address, to: bob.address, value: 42n });
    } finally {
      await token.removeAllListeners();
    }
  });

  it("estimates gas exactly enough for the call", async function () {
    const estimate = await token.transfer.estimateGas(bob.address, 1n);
    expect(await ethers.provider.estimateGas({ from: owner.address, to: bob.address, value: 1n })).to.equal(21000n);
    const receipt = await (await token.transfer(bob.address, 1n, { gasLimit: estimate })).wait();
    expect(receipt.status).to.equal(1);
    expect(receipt.gasUsed).to.be.lte(estimate);
  });

  it("reads state at a past block", async function () {
    const before = await ethers.provider.getBlockNumber();
    const balance = await token.balanceOf(alice.address);
    await (await token.transfer(alice.address, 7n)).wait();
    expect(await token.balanceOf(alice.address, { blockTag: before })).to.equal(balance);
    expect(await token.balanceOf(alice.address)).to.equal(balance + 7n);
  });

  it("signs a message with the node's account (personal_sign)", async function () {
    const message = "hello powder";
    const signature = await alice.signMessage(message);
    expect(ethers.verifyMessage(message, signature)).to.equal(alice.address);
    expect(ethers.verifyMessage("another message", signature)).to.not.equal(alice.address);
  });

  it("signs typed data with the node's account (eth_signTypedData_v4)", async function () {
    const domain = { name: "Test Token", version: "1", chainId: 43210, verifyingContract: token.target };
    const types = {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    };
    const value = { owner: owner.address, spender: alice.address, value: 10n ** 18n, nonce: 0, deadline: 2n ** 40n };
    const signature = await owner.signTypedData(domain, types, value);
    expect(ethers.verifyTypedData(domain, types, value, signature)).to.equal(owner.address);
    expect(ethers.verifyTypedData(domain, types, { ...value, nonce: 1 }, signature)).to.not.equal(owner.address);
  });
});
