import { startTestApp, type TestApp } from './support/testApp';

describe('the HTTP surface', () => {
  let app: TestApp;
  const lines: string[] = [];
  const realWrite = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    app = await startTestApp('pglite', { logRequests: true, corsOrigins: ['https://partner.example'] });
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      lines.push(String(chunk));
      return realWrite(chunk, ...rest);
    }) as typeof process.stdout.write;
  });
  afterAll(async () => {
    process.stdout.write = realWrite;
    await app?.close();
  });

  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${app.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${app.url}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('logs each request as JSON with a request id and never the token', async () => {
    const secret = 'Bearer not-a-real-token-but-secret';
    const res = await fetch(`${app.url}/api/parts?search=brake`, {
      headers: { authorization: secret, 'x-request-id': 'req-123' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-123');
    await new Promise((r) => setTimeout(r, 50));
    const line = lines.map((l) => l.trim()).find((l) => l.includes('req-123'));
    expect(line).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({
      level: 'info',
      msg: 'request',
      requestId: 'req-123',
      method: 'GET',
      path: '/api/parts',
      status: 200,
    });
    expect(lines.join('')).not.toContain('not-a-real-token');
  });

  it('sends security headers', async () => {
    const res = await fetch(`${app.url}/api/parts`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('allows CORS for configured origins only', async () => {
    const allowed = await fetch(`${app.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://partner.example' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    const other = await fetch(`${app.url}/api/parts`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
