#!/usr/bin/env node
// Runs this Hardhat project's tests against a Powder node that it starts and stops itself:
//
//   cd compat/hardhat && npm ci && node run.mjs        (or `npm test`)
//
// Powder must be built first: `npm ci && npm run build` at the repository root (bin/powder runs
// dist/). Extra arguments go to `hardhat test` (e.g. `node run.mjs test/helpers.js`).
// Environment: POWDER_BIN (default <repo>/bin/powder); POWDER_PORTS (default 19900-19949, the
// range a free HTTP port is taken from); POWDER_LOG (the node's output, default a file in the
// temporary data directory, printed when the tests fail).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const powderBin = process.env.POWDER_BIN || join(repo, "bin", "powder");
const [lowPort, highPort] = (process.env.POWDER_PORTS || "19900-19949").split("-").map(Number);
const BANNER = /^Powder: a local Avalanche node \((https?:\/\/[^)\s]+)\)/m;
const START_TIMEOUT_MS = 60_000;

function fail(message) {
  console.error(`run.mjs: ${message}`);
  process.exit(2);
}

if (!existsSync(powderBin)) fail(`${powderBin} not found`);
if (!process.env.POWDER_BIN && !existsSync(join(repo, "dist", "src", "cli.js"))) {
  fail("Powder is not built: run `npm ci && npm run build` at the repository root first");
}
if (!existsSync(join(here, "node_modules", "hardhat"))) fail("run `npm ci` in compat/hardhat first");

function portIsFree(port) {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once("error", () => resolvePort(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolvePort(true)));
  });
}

async function freePort() {
  for (let port = lowPort; port <= highPort; port++) if (await portIsFree(port)) return port;
  fail(`no free TCP port in ${lowPort}-${highPort}`);
}

const dataDir = mkdtempSync(join(tmpdir(), "powder-compat-hardhat-"));
const logPath = process.env.POWDER_LOG || join(dataDir, "powder.log");
const log = createWriteStream(logPath);
const port = await freePort();
const args = [`--http-port=${port}`, "--db-type=memdb", `--data-dir=${dataDir}`, "--web3-client-version=anvil/powder"];

// The node's working directory is this project, with its own node_modules: Powder must load its
// own packages, not the project's (it once did, and eth_signTypedData_v4 broke).
const started = Date.now();
console.log(`run.mjs: ${powderBin} ${args.join(" ")}  (cwd ${here})`);
const node = spawn(powderBin, args, { cwd: here, stdio: ["ignore", "pipe", "pipe"] });
let nodeExited = null;
const exited = new Promise((resolveExit) =>
  node.once("exit", (code, signal) => {
    nodeExited = { code, signal };
    resolveExit();
  }),
);

const url = await new Promise((resolveUrl) => {
  let seen = "";
  const timer = setTimeout(() => resolveUrl(null), START_TIMEOUT_MS);
  const onData = (chunk) => {
    log.write(chunk);
    if (seen === null) return;
    seen += chunk.toString();
    const match = BANNER.exec(seen);
    if (match) {
      seen = null;
      clearTimeout(timer);
      resolveUrl(match[1]);
    }
  };
  node.stdout.on("data", onData);
  node.stderr.on("data", onData);
  exited.then(() => {
    clearTimeout(timer);
    resolveUrl(null);
  });
});

async function stopNode() {
  if (nodeExited) return;
  node.kill("SIGTERM");
  const timer = setTimeout(() => nodeExited || node.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function finish(status) {
  await stopNode();
  await new Promise((r) => log.end(r));
  if (status !== 0) {
    const text = readFileSync(logPath, "utf8").split("\n");
    console.error(`run.mjs: the node's output (last 40 lines of ${logPath}):\n${text.slice(-40).join("\n")}`);
  }
  if (!process.env.POWDER_LOG && status === 0) rmSync(dataDir, { recursive: true, force: true });
  process.exit(status);
}

if (!url) {
  console.error(
    nodeExited
      ? `run.mjs: Powder exited before its banner (${JSON.stringify(nodeExited)})`
      : `run.mjs: no banner from Powder within ${START_TIMEOUT_MS / 1000} s`,
  );
  await finish(1);
}

const rpc = `${url}/ext/bc/dev/rpc`;
console.log(`run.mjs: Powder is up at ${url} after ${Date.now() - started} ms; POWDER_RPC=${rpc}`);

let test = null;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (test && test.exitCode === null) test.kill(signal);
    else finish(1);
  });
}

const testStarted = Date.now();
test = spawn("npx", ["hardhat", "test", "--network", "powder", ...process.argv.slice(2)], {
  cwd: here,
  stdio: "inherit",
  env: { ...process.env, POWDER_RPC: rpc },
});
const status = await new Promise((resolveStatus) =>
  test.once("exit", (code, signal) => resolveStatus(code ?? (signal ? 1 : 0))),
);
if (nodeExited) console.error(`run.mjs: Powder exited during the tests (${JSON.stringify(nodeExited)})`);
console.log(`run.mjs: hardhat test exited with ${status} after ${((Date.now() - testStarted) / 1000).toFixed(1)} s`);
await finish(nodeExited ? status || 1 : status);
