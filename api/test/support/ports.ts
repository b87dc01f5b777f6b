import { createServer, type Server } from 'node:net';

/**
 * `count` different TCP ports on 127.0.0.1 that nothing listens on right now (the OS picks them). Each is held
 * until all are picked: ports taken one after another, each released before the next, can come back the same
 * (a whole run once gave `npm start`'s API and its Auth Emulator one port).
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      held.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return held.map((server) => {
      const address = server.address();
      if (typeof address !== 'object' || !address) throw new Error('no free port');
      return address.port;
    });
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}
