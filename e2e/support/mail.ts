import path from 'node:path';
import { freePorts } from '../../api/test/support/ports';

/**
 * The local mail catcher `npm start` runs (MailDev, scripts/mail-catcher.cjs), started on free ports for a
 * browser test: the shop delivers its outbox to `smtpUrl`, and the test reads what arrived through MailDev's API.
 */

export interface CaughtEmail {
  id: string;
  subject: string;
  to: { address: string }[];
  text: string;
  html: string;
}

export interface MailCatcher {
  smtpUrl: string;
  /** MailDev's API (`${api}/email` lists what arrived; `${api}/email/{id}/html` shows one as a page). */
  api: string;
  /** Every email caught so far. */
  all(): Promise<CaughtEmail[]>;
  /** Waits (up to 15 s) for an email to `to` whose subject matches `subject`, and answers it. */
  emailTo(to: string, subject: RegExp): Promise<CaughtEmail>;
  stop(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const script = require(path.resolve(__dirname, '../../scripts/mail-catcher.cjs')) as {
  startMailCatcher(options: { smtpPort: number; webPort: number }): Promise<{ smtpUrl: string; stop(): Promise<void> }>;
};

export async function startMailCatcher(): Promise<MailCatcher> {
  const [webPort, smtpPort] = await freePorts(2);
  const started = await script.startMailCatcher({ smtpPort, webPort });
  const api = `http://127.0.0.1:${webPort}/api`;
  const all = async () => (await (await fetch(`${api}/email`)).json()) as CaughtEmail[];
  return {
    smtpUrl: started.smtpUrl,
    api,
    all,
    async emailTo(to, subject) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const caught = await all();
        const found = caught.find((m) => m.to.some((t) => t.address === to) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no email "${subject.source}" to ${to}: ${JSON.stringify(caught)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    stop: () => started.stop(),
  };
}

/** The shop's mail settings for delivering to `catcher` (outbox polled often, so a test waits little). */
export const mailTo = (catcher: MailCatcher) => ({
  mail: { smtpUrl: catcher.smtpUrl, from: 'PartsYard <orders@partsyard.test>', pollIntervalMs: 200 },
});
