// The KZG point-evaluation precompile (EIP-4844, 0x0a), called from a contract.
const { expect } = require("chai");
const { ethers } = require("hardhat");

// The commitment to the zero polynomial is the point at infinity (0xc0 then 47 zero bytes); its
// proof for z = 0 is the same point, and the value there is y = 0.
const INFINITY = "0xc0" + "00".repeat(47);
const FIELD_ELEMENTS_PER_BLOB = 4096n;
const BLS_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

function versionedHash(commitment) {
  return "0x01" + ethers.sha256(commitment).slice(4);
}

function input({ hash = versionedHash(INFINITY), z = 0n, y = 0n, commitment = INFINITY, proof = INFINITY } = {}) {
  return ethers.concat([hash, ethers.toBeHex(z, 32), ethers.toBeHex(y, 32), commitment, proof]);
}

describe("KZG point evaluation precompile (0x0a)", function () {
  let pe;
  const expected = ethers.AbiCoder.defaultAbiCoder().encode(["uint256", "uint256"], [FIELD_ELEMENTS_PER_BLOB, BLS_MODULUS]);

  before(async function () {
    pe = await ethers.deployContract("PointEvaluation");
  });

  it("verifies a valid proof from a contract (eth_call)", async function () {
    const [ok, output] = await pe.evaluate(input());
    expect(ok).to.equal(true);
    expect(output).to.equal(expected);
  });

  it("rejects a wrong value, a wrong versioned hash and a short input", async function () {
    expect((await pe.evaluate(input({ y: 1n })))[0]).to.equal(false);
    const wrongVersion = "0x02" + versionedHash(INFINITY).slice(4);
    expect((await pe.evaluate(input({ hash: wrongVersion })))[0]).to.equal(false);
    expect((await pe.evaluate(ethers.dataSlice(input(), 0, 191)))[0]).to.equal(false);
  });

  it("runs in a mined transaction", async function () {
    await expect(pe.evaluateAndStore(input())).to.emit(pe, "Evaluated").withArgs(true, expected);
    expect(await pe.lastOk()).to.equal(true);
    expect(await pe.lastOutputHash()).to.equal(ethers.keccak256(expected));
    await expect(pe.evaluateAndStore(input({ y: 1n }))).to.emit(pe, "Evaluated").withArgs(false, "0x");
    expect(await pe.lastOk()).to.equal(false);
  });

  it("runs as a transaction sent to 0x0a itself", async function () {
    const [owner] = await ethers.getSigners();
    const to = "0x000000000000000000000000000000000000000a";
    expect(await ethers.provider.call({ to, data: input() })).to.equal(expected);
    const good = await (await owner.sendTransaction({ to, data: input() })).wait();
    expect(good.status).to.equal(1);
    expect(good.gasUsed).to.be.gte(21000n + 50000n); // the precompile's fixed 50000 gas
    const bad = await owner.sendTransaction({ to, data: input({ y: 1n }), gasLimit: 200000 });
    await expect(bad.wait()).to.be.rejected;
    expect((await ethers.provider.getTransactionReceipt(bad.hash)).status).to.equal(0);
  });
});
