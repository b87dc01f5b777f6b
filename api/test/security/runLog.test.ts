import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runLogCopier, runLogPath, scanRunLog, setRunLogPath } from '../support/runLog';

/**
 * The scan globalTeardown runs over the logs of the whole test run (api/test/support/runLog.ts): it finds each
 * kind of thing that must never be logged, and passes the lines the app really writes.
 */
describe('the scan of a test run’s logs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'partsyard-runlog-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const scan = (...lines: string[]) => {
    const file = path.join(dir, `${Math.random()}.log`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return scanRunLog(file);
  };
  const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 'info', msg: 'x', ...fields });

  it.each([
    ['an email address', { email: 'rider@example.test' }],
    ['an email address, URL-encoded', { path: '/api/user/rider%40example.test' }],
    ['a phone number', { error: 'duplicate key (phone)=(01712345678)' }],
    ['a phone number', { phone: '+8801712345678' }],
    ['a payment client secret', { secret: 'pi_3Nabc_secret_XyZ123' }],
    ['a card number', { card: '4242 4242 4242 4242' }],
    ['a token (JWT)', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc' }],
  ])('finds %s', (what, fields) => {
    const { hits } = scan(line({ requestId: 'a' }), line(fields));
    expect(hits).toEqual([expect.stringMatching(new RegExp(`^${what.replace(/[()]/g, '\\$&')}: `))]);
  });

  it('passes what the app logs: ids, routes, statuses, redacted fields, package versions in stacks', () => {
    const { lines, hits } = scan(
      line({ requestId: '8b1f', method: 'GET', path: '/api/parts', status: 200, ms: 3 }),
      line({ email: '[redacted]', userId: '58bc4b38-108a-43fb-b626-1879fa1a50e1', amountCents: 2599 }),
      line({ stack: 'Error: x\n    at f (node_modules/pino@10.4.0/lib.js:1:1)' }),
      // Gateway ids whose hex holds a run that reads like a phone number (seen in a CI run's log).
      line({ paymentIntentId: 'pi_815fc01497554974bcf18063', refundId: 're_6295a01712345678fef7c2e0' }),
      line({ orderId: '2f1a7c64-eb70-4341-01712345678a-7458b9277ebb' }),
    );
    expect({ lines, hits }).toEqual({ lines: 5, hits: [] });
  });

  it('takes the log lines of a server process the tests start, a line split across chunks included', () => {
    const runLog = runLogPath();
    const file = path.join(dir, 'child.log');
    writeFileSync(file, '');
    setRunLogPath(file);
    try {
      const copy = runLogCopier();
      copy(Buffer.from(`${line({ msg: 'ready' })}\nnot a log line\n{"level":"error","msg":"failed for ri`));
      copy('der@example.test"}\n{"level":"info","msg":"unfinished"');
    } finally {
      setRunLogPath(runLog ?? '');
    }
    const { lines, hits } = scanRunLog(file);
    expect(lines).toBe(2);
    expect(hits).toEqual([expect.stringMatching(/^an email address: .*rider@example\.test/)]);
  });
});
