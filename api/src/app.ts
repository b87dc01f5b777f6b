import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { makeExecutableSchema } from '@graphql-tools/schema';
import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Config } from './config';
import type { Database } from './db/database';
import { AppError, httpStatusOf } from './errors';
import { authDirectivesTransformer } from './graphql/authDirectives';
import type { GraphQLContext } from './graphql/context';
import { resolvers } from './graphql/resolvers';
import { resolveCaller } from './http/caller';
import { cors, requestLog, securityHeaders } from './http/middleware';
import { serveWebApp } from './http/webApp';
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

/** A browser opening /graphql (it prefers HTML to JSON): the playground, not an operation. */
const wantsPlayground = (req: Request) =>
  req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';

/** The whole HTTP surface: /graphql, /api/*, /healthz, /readyz and the built web app. */
export async function createApp({
  config,
  database,
  services,
  tokens,
}: AppParts): Promise<{ app: Express; beginShutdown: () => void; stop: () => Promise<void> }> {
  let stopping = false;
  const inFlight = new Set<Response>();
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
  app.use((_req, res, next) => {
    // While stopping, requests still get answers, and keep-alive clients are told to reconnect (elsewhere).
    if (stopping) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    next();
  });
  app.use(compression());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (stopping) {
      res.status(503).json({ status: 'stopping', message: 'This process is shutting down' });
      return;
    }
    try {
      await database.ping();
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable', message: 'The database does not answer' });
    }
  });

  const playground = path.join(config.webDistDir, 'playground.html');
  app.get('/graphql', (req, res, next) => {
    if (!wantsPlayground(req) || !existsSync(playground)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(playground);
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

  serveWebApp(app, config.webDistDir);
  app.use(restErrorHandler);

  const beginShutdown = () => {
    stopping = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  return { app, beginShutdown, stop: () => apollo.stop() };
}
