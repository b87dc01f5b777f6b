import { SMTPServer } from 'smtp-server';
import { freePort } from './ports';

/** One message as the catcher received it: the envelope, a few headers, the raw source. */
export interface CaughtMail {
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
}

export interface SmtpCatcher {
  port: number;
  url: string;
  messages: CaughtMail[];
  close(): Promise<void>;
}

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
    .exec(raw)?.[1]
    ?.replace(/\r?\n[ \t]/g, ' ')
    .trim() ?? '';

/**
 * A real SMTP server in this process (smtp-server, the server half of nodemailer's project) that keeps what it
 * receives: the mail worker's tests deliver to it. `port`: listen there (to bring a "down" server up);
 * `delayMs`: answer each message that much later (a slow server, so racing workers overlap).
 */
export async function startSmtpCatcher(options: { port?: number; delayMs?: number } = {}): Promise<SmtpCatcher> {
  const port = options.port ?? (await freePort());
  const messages: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header(raw, 'Subject'),
          messageId: header(raw, 'Message-ID'),
          raw,
        });
        setTimeout(() => callback(), options.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
