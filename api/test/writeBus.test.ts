import { oneNoticeAtATime } from '../src/writeBus';

/**
 * How a replica announces its writes (api/src/writeBus.ts): one notice at a time, and every write announced by a
 * notice sent after it ended. The notices themselves, between replicas, are api/test/replicas.test.ts.
 */
describe('oneNoticeAtATime', () => {
  /** A send that the test completes (or fails) when it chooses. */
  const controlledSends = () => {
    const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
    let sent = 0;
    const send = () =>
      new Promise<void>((resolve, reject) => {
        sent += 1;
        pending.push({ resolve, reject });
      });
    const settle = async (how: 'resolve' | 'reject' = 'resolve') => {
      const next = pending.shift();
      if (how === 'resolve') next?.resolve();
      else next?.reject(new Error('the database does not answer'));
      await new Promise((r) => setImmediate(r));
    };
    return { send, settle, sent: () => sent, waiting: () => pending.length };
  };

  it('sends at once when nothing is on its way, and one more after it for all the writes that ended meanwhile', async () => {
    const { send, settle, sent, waiting } = controlledSends();
    const announce = oneNoticeAtATime(send);
    announce();
    expect(sent()).toBe(1);
    for (let i = 0; i < 50; i += 1) announce(); // 50 writes end while the first notice is on its way
    expect(sent()).toBe(1);
    await settle();
    expect(sent()).toBe(2); // one notice, sent after all of them ended
    expect(waiting()).toBe(1);
    await settle();
    expect(sent()).toBe(2); // nothing left to announce
    announce();
    expect(sent()).toBe(3);
    await settle();
  });

  it('a send that throws at once does not stop the next notice', async () => {
    let calls = 0;
    const announce = oneNoticeAtATime(() => {
      calls += 1;
      if (calls === 1) throw new Error('the pool is closed');
      return Promise.resolve();
    });
    announce();
    await new Promise((r) => setImmediate(r));
    announce();
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
  });

  it('a notice that fails does not stop the next', async () => {
    const { send, settle, sent } = controlledSends();
    const announce = oneNoticeAtATime(send);
    announce();
    announce();
    await settle('reject');
    expect(sent()).toBe(2);
    await settle();
    announce();
    expect(sent()).toBe(3);
    await settle();
  });
});
