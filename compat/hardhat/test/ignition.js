// Hardhat Ignition (hardhat-ignition-ethers, part of the toolbox): the sample project's module.
const { expect } = require("chai");
const { ethers, ignition } = require("hardhat");
const { time } = require("@nomicfoundation/hardhat-network-helpers");
const { rmSync } = require("node:fs");
const path = require("node:path");
const LockModule = require("../ignition/modules/Lock");

// On a network other than Hardhat's in-process one Ignition keeps a journal in
// ignition/deployments/<id>; each run has a fresh chain, so start without one (as `--reset` does).
const DEPLOYMENT_ID = "compat-test";

describe("Ignition: the sample LockModule", function () {
  it("deploys with parameters and a value, and the contract works", async function () {
    const unlockTime = (await time.latest()) + 3600;
    rmSync(path.join(__dirname, "..", "ignition", "deployments", DEPLOYMENT_ID), { recursive: true, force: true });
    const { lock } = await ignition.deploy(LockModule, {
      deploymentId: DEPLOYMENT_ID,
      parameters: { LockModule: { unlockTime, lockedAmount: 12345n } },
    });
    expect(await lock.unlockTime()).to.equal(BigInt(unlockTime));
    expect(await ethers.provider.getBalance(lock.target)).to.equal(12345n);
    const [owner] = await ethers.getSigners();
    expect(await lock.owner()).to.equal(owner.address);
    await expect(lock.withdraw()).to.be.revertedWith("You can't withdraw yet");
    await time.increaseTo(unlockTime);
    await expect(lock.withdraw()).to.changeEtherBalances([owner, lock], [12345n, -12345n]);
  });
});
