import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { makeExecutableSchema } from '@graphql-tools/schema';
import express, { type Express } from 'express';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Config } from './config';
import type { Database } from './db/database';
import { AppError, httpStatusOf } from './errors';
import { authDirectivesTransformer } from './graphql/authDirectives';
import type { GraphQLContext } from './graphql/context';
import { resolvers } from './graphql/resolvers';
import { resolveCaller } from './http/caller';
import { cors, requestLog, securityHeaders } from './http/middleware';
import { describeError, logger } from './logger';
import type { AccessTokens } from './identity/accessTokens';
import { createRestRouter, restErrorHandler } from './rest/restRouter';
import type { Services } from './services';

export const schemaPath = path.resolve(__dirname, '..', '..', 'schema.graphql');

export function buildSchema() {
  return authDirectivesTransformer(makeExecutableSchema({ typeDefs: readFileSync(schemaPath, 'utf8'), resolvers }));
}

/** Maps thrown errors to GraphQL errors once: AppError codes to extensions.code (and the HTTP status). */
function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof AppError) {
    return {
      message: original.message,
      path: formatted.path,
      locations: formatted.locations,
      extensions: { code: original.code, ...(original.fields ? { fields: original.fields } : {}) },
    };
  }
  const code = formatted.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
    logger.error('unexpected error in a GraphQL operation', {
      path: formatted.path?.join('.'),
      ...describeError(original),
    });
    return {
      message: 'Something went wrong on our side',
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  }
  return formatted;
}

export interface AppParts {
  config: Config;
  database: Database;
  services: Services;
  tokens: AccessTokens;
}

/** The whole HTTP surface: /graphql, /api/*, /healthz, /readyz and the built web app. */
export async function createApp({
  config,
  database,
  services,
  tokens,
}: AppParts): Promise<{ app: Express; stop: () => Promise<void> }> {
  const apollo = new ApolloServer<GraphQLContext>({
    schema: buildSchema(),
    formatError,
    // The playground must work offline; Apollo's default landing page loads from a CDN.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      {
        async requestDidStart() {
          return {
            async willSendResponse({ response, errors }) {
              // Let an UNAUTHENTICATED/FORBIDDEN refusal carry its HTTP status, as on the REST shim.
              const codes = (errors ?? []).map((e) =>
                e.originalError instanceof AppError ? e.originalError.code : null,
              );
              const auth = codes.find((c) => c === 'UNAUTHENTICATED') ?? codes.find((c) => c === 'FORBIDDEN');
              if (auth) response.http.status = httpStatusOf[auth];
            },
          };
        },
      },
    ],
  });
  await apollo.start();
  const clientSettings: GraphQLContext['clientSettings'] = {
    demoMode: config.demoMode,
    firebase: {
      apiKey: config.firebase.webApiKey,
      authDomain: config.firebase.authDomain,
      projectId: config.firebase.projectId,
      emulatorUrl: config.firebase.emulatorHost ? `http://${config.firebase.emulatorHost}` : null,
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestLog(config.logRequests), securityHeaders, cors(config.corsOrigins));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await database.ping();
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable', message: 'The database does not answer' });
    }
  });

  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    expressMiddleware(apollo, {
      context: async ({ req }) => ({
        ...(await resolveCaller(req.headers.authorization, tokens, services.users)),
        services,
        clientSettings,
      }),
    }),
  );
  app.use('/api', createRestRouter(services, tokens));

  const webDist = config.webDistDir;
  if (existsSync(path.join(webDist, 'index.html'))) {
    app.use(express.static(webDist, { index: false, maxAge: '1h' }));
    app.get('/{*path}', (_req, res) => res.sendFile(path.join(webDist, 'index.html')));
  } else {
    // Before the web is built, still serve the shop's own images (seeded parts point at them).
    app.use('/images', express.static(path.join(webDist, '..', 'public', 'images'), { maxAge: '1h' }));
    app.get('/', (_req, res) => {
      res
        .type('html')
        .send(
          '<!doctype html><title>PartsYard</title><h1>PartsYard API</h1><p>GraphQL at <code>/graphql</code>, REST at <code>/api</code>. The web app has not been built yet.</p>',
        );
    });
  }
  app.use(restErrorHandler);

  return { app, stop: () => apollo.stop() };
}
