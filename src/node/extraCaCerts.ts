// NODE_EXTRA_CA_CERTS and bin/powder. Node.js reads that file, and parses it with its own bundled
// CA certificates, at every start, before any JavaScript runs: ~70 ms of a start on this project's
// VM, whose environment points it at the system's CA bundle (226 -> 157 ms in alternating starts;
// docs/performance.md, session 45). A node makes no TLS connection of its own (it serves), so bin/powder starts Node.js
// without the variable, unless POWDER_EXTRA_CA_CERTS=load, and hands its value over as
// POWDER_SET_ASIDE_EXTRA_CA_CERTS; the node puts it back into its process.env first thing, so the
// processes it starts, and code that reads the variable, see the user's environment. What it cannot
// give back is Node's use of it: TLS connections made in this process (by a VM plugin) trust Node's
// bundled CAs only, which the registry says once when it loads a plugin.

const SET_ASIDE = 'POWDER_SET_ASIDE_EXTRA_CA_CERTS';

let setAside: string | undefined;

/** Puts bin/powder's set-aside NODE_EXTRA_CA_CERTS back into `env` (the CLI's first step). */
export function restoreExtraCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const file = env[SET_ASIDE];
  if (file === undefined) return;
  delete env[SET_ASIDE];
  if (env.NODE_EXTRA_CA_CERTS === undefined) env.NODE_EXTRA_CA_CERTS = file;
  setAside = file;
}

/** The NODE_EXTRA_CA_CERTS file Node.js did not load at this process's start because bin/powder set it aside. */
export function extraCaCertsNotLoaded(): string | undefined {
  return setAside;
}
