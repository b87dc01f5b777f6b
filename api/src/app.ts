import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { makeExecutableSchema } from '@graphql-tools/schema';
import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Config } from './config';
import type { Database } from './db/database';
import { errorAnswer } from './errors';
import { authDirectivesTransformer } from './graphql/authDirectives';
import { cachingPlugins } from './graphql/caching';
import type { GraphQLContext } from './graphql/context';
import { graphqlBodyErrors, queryLimits, queryLimitsPlugin, refuseLargeBatches } from './graphql/limits';
import { resolvers } from './graphql/resolvers';
import { callerLookupPlugin } from './graphql/callerLookup';
import { compiledExecutionPlugin } from './graphql/compiledExecution';
import { createWriteTracker, publicAnswerCache, shareAnswer, type WriteTracker } from './http/answerCache';
import { apolloHandler } from './http/apolloHandler';
import { callerOf } from './http/caller';
import { contentSecurityPolicy } from './http/contentSecurityPolicy';
import { cors, requestLog, securityHeaders } from './http/middleware';
import { clientOf } from './http/rateLimit';
import { jsonBody } from './http/requestBody';
import { serveWebApp } from './http/webApp';
import { describeError, logger } from './logger';
import { createMetrics, metricsEndpoint } from './metrics';
import type { AccessTokens } from './identity/accessTokens';
import { createRestRouter, restErrorHandler } from './rest/restRouter';
import type { Services } from './services';
import { noWriteBus, type WriteBus } from './writeBus';

export const schemaPath = path.resolve(__dirname, '..', '..', 'schema.graphql');

let typeDefs: string | undefined;

/** The executable schema, with its role directives; each call builds a new one (the SDL is read once). */
export function buildSchema() {
  typeDefs ??= readFileSync(schemaPath, 'utf8');
  return authDirectivesTransformer(makeExecutableSchema({ typeDefs, resolvers }));
}

/** A thrown value in GraphQL's shape: `errorAnswer`'s code, message and fields (graphql-js's own refusals as they are). */
function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const answer = errorAnswer(original);
  const ownCode = formatted.extensions?.code;
  // Parsing, validation and the limits answer with codes of their own, with no error of ours inside.
  if (answer.code === 'INTERNAL_SERVER_ERROR' && ownCode !== undefined && ownCode !== 'INTERNAL_SERVER_ERROR') {
    return formatted;
  }
  const path = formatted.path?.join('.');
  if (answer.log === 'warn')
    logger.warn('a GraphQL operation found a dependency unavailable', {
      path,
      error: describeError(answer.cause).error,
    });
  if (answer.log === 'error')
    logger.error('unexpected error in a GraphQL operation', { path, ...describeError(answer.cause) });
  return {
    message: answer.message,
    path: formatted.path,
    ...(answer.code === 'INTERNAL_SERVER_ERROR' ? {} : { locations: formatted.locations }),
    extensions: { code: answer.code, ...(answer.fields ? { fields: answer.fields } : {}) },
  };
}

/** A failure while building the context (the database is down): answered with its code and HTTP status. */
function contextError(error: unknown): never {
  const answer = errorAnswer(error);
  if (answer.code === 'INTERNAL_SERVER_ERROR') throw error;
  throw new GraphQLError(answer.message, {
    originalError: error instanceof Error ? error : undefined,
    extensions: { code: answer.code, http: { status: answer.status } },
  });
}

export interface AppParts {
  config: Config;
  database: Database;
  services: Services;
  tokens: AccessTokens;
  /** Tells the other replicas of this process's writes, and this one of theirs. */
  writeBus?: WriteBus;
  /** The writes of this process and of the replicas; one announcing to `writeBus` when not given. */
  writes?: WriteTracker;
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
  writeBus = noWriteBus,
  writes = createWriteTracker(() => writeBus.announce()),
}: AppParts): Promise<{ app: Express; beginShutdown: () => void; stop: () => Promise<void> }> {
  let stopping = false;
  const inFlight = new Set<Response>();
  // After the caller lookup, among the plugins below: it runs only operations that need the caller.
  const compiledExecution = compiledExecutionPlugin({
    schema: buildSchema(),
    compileAfter: config.graphqlCompileAfter,
  });
  const metrics = createMetrics(database.pool, { compiledOperations: compiledExecution.compiledOperations });
  await writeBus
    .listen(() => writes.invalidate())
    .catch((error: unknown) =>
      logger.warn('cannot hear the other replicas’ writes yet: cached answers may lag up to their s-maxage', {
        ...describeError(error),
      }),
    );
  const schema = buildSchema();
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    // Compact JSON: Apollo's default indents every answer, which cost 9 % of a signed-in request's CPU (issue 15).
    stringifyResult: (result) => JSON.stringify(result),
    // Never, in any mode: a stack trace tells an attacker our files and libraries (errors are logged instead).
    includeStacktraceInErrorResponses: false,
    // Refuses simple requests (no JSON content type, no preflight header) that a browser would send cross-site.
    csrfPrevention: true,
    allowBatchedHttpRequests: true, // at most queryLimits.maxBatch operations: refuseLargeBatches
    parseOptions: { maxTokens: queryLimits.maxTokens },
    // Our own shutdown (api/src/main.ts, RunningServer.close) stops Apollo once the HTTP server has drained:
    // Apollo's own signal handler would stop GraphQL at the signal, failing the operations in flight.
    stopOnTerminationSignals: false,
    // The playground must work offline; Apollo's default landing page loads from a CDN.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      queryLimitsPlugin(),
      callerLookupPlugin(schema), // before caching: it records whether the operation is caller-free
      ...cachingPlugins(writes),
      compiledExecution,
      {
        async requestDidStart() {
          return {
            async willSendResponse({ response, errors, operationName, operation }) {
              metrics.operation(operationName ?? operation?.name?.value, operation?.operation, !errors?.length);
              // Let an outage or an UNAUTHENTICATED/FORBIDDEN/RATE_LIMITED refusal carry its status, as on the REST shim.
              const answers = (errors ?? []).map((e) => errorAnswer(e.originalError));
              const carried = ['SERVICE_UNAVAILABLE', 'UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED'] as const;
              const code = carried.find((c) => answers.some((a) => a.code === c));
              const answer = answers.find((a) => a.code === code);
              if (answer) response.http.status = answer.status;
              const wait = answers.find((a) => a.retryAfterSeconds !== undefined)?.retryAfterSeconds;
              if (wait !== undefined) response.http.headers.set('retry-after', String(wait));
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
  app.use(
    metrics.requests,
    requestLog(config.logRequests),
    securityHeaders,
    contentSecurityPolicy(config),
    cors(config.corsOrigins),
  );
  app.use((_req, res, next) => {
    // While stopping, requests still get answers, and keep-alive clients are told to reconnect (elsewhere).
    if (stopping) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    next();
  });
  // The compression middleware wraps every answer's writes and headers, which cost a signed-in GraphQL read about
  // a tenth of its CPU even when nothing was compressed (issue 15): a request that accepts no encoding (API
  // clients, scripts) is answered without it, still marked as varying by it for shared caches (as the middleware
  // marks the answers it sees). Browsers always send Accept-Encoding.
  const compress = compression();
  app.use((req, res, next) => {
    if (req.headers['accept-encoding']) return compress(req, res, next);
    res.vary('Accept-Encoding');
    next();
  });

  app.get('/metrics', metricsEndpoint(metrics, config));
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
    jsonBody(),
    refuseLargeBatches,
    publicAnswerCache(writes),
    apolloHandler(apollo, async (req, res) => {
      const caller = callerOf(req.headers.authorization, tokens, services.users);
      return {
        actor: null,
        account: caller.claim,
        authError: caller.authError,
        callerFree: false,
        credentials: req.headers.authorization !== undefined,
        lookUpCaller: () => caller.lookUp().catch(contextError),
        shareAnswer: (seconds: number) => shareAnswer(res, seconds),
        services,
        client: clientOf(req),
        clientSettings,
      };
    }),
    graphqlBodyErrors,
  );
  app.use(
    '/api',
    createRestRouter(services, tokens, () => writes.changed()),
  );

  serveWebApp(app, config.webDistDir, services.parts, services.catalog);
  app.use(restErrorHandler);

  const beginShutdown = () => {
    stopping = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  return {
    app,
    beginShutdown,
    stop: async () => {
      metrics.close();
      await apollo.stop();
    },
  };
}
