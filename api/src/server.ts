import type { Server } from 'node:http';
import { createApp } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/database';
import { seedDemo } from './db/seed';
import { createAccessTokens } from './identity/accessTokens';
import { createFirebaseIdentity, type Identity } from './identity/firebaseIdentity';
import type { PaymentGateway } from './payments/paymentGateway';
import { createStripeGateway } from './payments/stripeGateway';
import { createTestGateway } from './payments/testGateway';
import { createServices, type Services } from './services';

export interface RunningServer {
  url: string;
  port: number;
  database: Database;
  services: Services;
  identity: Identity;
  /** Stops taking connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** Composes the shop from its configuration: database, identity, gateway, services, HTTP. */
export async function startServer(config: Config, overrides: { database?: Database } = {}): Promise<RunningServer> {
  const database = overrides.database ?? (await openDatabase(config.database));
  const identity = createFirebaseIdentity(config.firebase);
  const tokens = createAccessTokens(config.jwt);
  const gateway: PaymentGateway = config.stripe ? createStripeGateway(config.stripe) : createTestGateway(database.db);
  const services = createServices({ db: database.db, identity, tokens, gateway, adminEmails: config.adminEmails });
  if (config.seedDemo) await seedDemo(database.db, identity);

  const { app, stop } = await createApp({ config, database, services, tokens });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    database,
    services,
    identity,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await stop();
      await identity.close();
      await database.close();
    },
  };
}
