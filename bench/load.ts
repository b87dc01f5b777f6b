/**
 * The load generator, run as a child process of bench/run.ts so that it does not share the server's event
 * loop. It receives one scenario over IPC, drives it with autocannon and answers a summary.
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  name: string;
  /** Several: the connections round-robin over them (bench/run.ts --replicas). */
  url: string | string[];
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** One bearer token per connection (connection i uses tokens[i % length]). */
  tokens?: string[];
  /** Parse each GraphQL answer and count those carrying `errors` (costs load-generator CPU). */
  countGraphqlErrors?: boolean;
}

export interface LoadSummary {
  name: string;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Socket errors, timeouts and non-2xx answers. */
  errors: number;
  /** 2xx GraphQL answers with `errors` (only when counted). */
  graphqlErrors: number;
  /** 2xx GraphQL answers without `errors` (only when counted). */
  graphqlOk: number;
  /** The load generator's own CPU time while it drove the scenario (ms). */
  loadCpuMsTotal: number;
}

async function drive(spec: LoadSpec): Promise<LoadSummary> {
  let nextToken = 0;
  let graphqlErrors = 0;
  let graphqlOk = 0;
  const baseHeaders = { ...(spec.body ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    // autocannon takes several URLs (its typings say one): the connections round-robin over them.
    url: spec.url as string,
    connections: spec.connections,
    duration: spec.durationSeconds,
    timeout: 10,
    requests: [
      {
        method: spec.method,
        body: spec.body,
        headers: baseHeaders,
        setupRequest: (request, context) => {
          if (!spec.tokens?.length) return request;
          const ctx = context as { token?: string };
          ctx.token ??= spec.tokens[nextToken++ % spec.tokens.length];
          return { ...request, headers: { ...baseHeaders, authorization: `Bearer ${ctx.token}` } };
        },
        onResponse: spec.countGraphqlErrors
          ? (status, body) => {
              if (status < 200 || status >= 300) return;
              try {
                if ((JSON.parse(body) as { errors?: unknown }).errors) graphqlErrors++;
                else graphqlOk++;
              } catch {
                graphqlErrors++;
              }
            }
          : undefined,
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    name: spec.name,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    graphqlErrors,
    graphqlOk,
    loadCpuMsTotal: (cpu.user + cpu.system) / 1000,
  };
}

process.on('message', (spec: LoadSpec) => {
  drive(spec).then(
    (summary) => process.send?.({ summary }, () => process.exit(0)),
    (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
  );
});
