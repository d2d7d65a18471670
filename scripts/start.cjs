// `npm start`: runs bin/powder (the node from its start-up snapshot; a POSIX shell script) and
// passes on its exit. Windows' cmd.exe, which runs npm's scripts there, cannot run a shell
// script, so there the node runs in this process from bin/powder.js (the code cache).
'use strict';
const { join } = require('node:path');

if (process.platform === 'win32') {
  require('../bin/powder.js');
} else {
  // Ctrl+C reaches both processes (one process group): the node stops itself and this one
  // waits for it, then exits as it did.
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => {});
  const r = require('node:child_process').spawnSync(join(__dirname, '..', 'bin', 'powder'), process.argv.slice(2), { stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(`powder: ${r.error.message}\n`);
    process.exit(1);
  }
  if (r.signal) {
    process.removeAllListeners(r.signal);
    process.kill(process.pid, r.signal);
  }
  process.exit(r.status ?? 1);
}
