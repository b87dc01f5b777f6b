// Two checks the launcher's helpers (the Auth emulator, the mail catcher) make of a local service.
const http = require('node:http');
const net = require('node:net');

/** One GET on a connection of its own that is closed after it (no idle keep-alive socket is left): 200 or not. */
function answersOk(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => req.destroy());
  });
}

/** Whether nothing listens on 127.0.0.1:port. */
function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

module.exports = { answersOk, portFree };
