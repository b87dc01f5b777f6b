// Preloaded (`node --require scripts/exit-with-parent.cjs ...`) into the processes a launcher starts: the API
// under `npm start` and the Firebase Auth Emulator (scripts/auth-emulator.cjs). The launcher hands the child a
// pipe as its file descriptor 3 (`stdio: [..., ..., ..., 'pipe']`) and never writes to it; the pipe ends when
// the launcher's process is gone, however it went (Ctrl-C, SIGTERM, SIGKILL, a crash). The child then stops
// itself with SIGTERM, as a supervisor would ask it to: the API finishes its requests in flight, the emulator
// exports its users. Nothing happens when fd 3 is not a pipe or a socket, so the preload is harmless elsewhere.
// (Not stdin: on Node 20, `--import tsx` registers loader hooks whose worker thread ends the main thread's
// process.stdin at start-up.)
const { fstatSync } = require('node:fs');
const net = require('node:net');

const fd = 3;
let isPipe = false;
try {
  const stat = fstatSync(fd);
  isPipe = stat.isFIFO() || stat.isSocket();
} catch {
  // no such descriptor
}

if (isPipe) {
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.kill(process.pid, 'SIGTERM');
  };
  const parent = new net.Socket({ fd, readable: true, writable: false });
  parent.on('end', stop);
  parent.on('error', stop);
  parent.on('close', stop);
  parent.resume();
  // Watching the pipe must not keep the process alive on its own.
  parent.unref();
}
