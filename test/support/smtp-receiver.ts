import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One email as the mail server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body), as sent. */
  raw: string;
}

/**
 * The mail server's double (the third party in this exchange): a real SMTP server on localhost,
 * without TLS or authentication, that keeps what it is sent.
 */
export async function startSmtpReceiver(): Promise<{ url: string; received: ReceivedMail[]; next(): Promise<ReceivedMail>; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        waiting.shift()?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next: () =>
      new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no email arrived within 10 s')), 10_000);
        waiting.push((mail) => {
          clearTimeout(timer);
          resolve(mail);
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
