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
 * without TLS or authentication, that keeps what it is sent. With `refuse`, it refuses every
 * recipient (550), as a mail server that will not take the email, and keeps whom it refused.
 */
export async function startSmtpReceiver(options: { refuse?: boolean } = {}): Promise<{
  url: string;
  received: ReceivedMail[];
  refused: string[];
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const refused: string[] = [];
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuse) return callback();
      refused.push(address.address);
      const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      callback(error);
    },
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
    refused,
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

/** A received email's subject and text body, decoded (quoted-printable, MIME encoded-words). */
export function readMail(mail: ReceivedMail): { subject: string; text: string } {
  const [head = '', ...body] = mail.raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const rawSubject = /^Subject: (.*)$/m.exec(unfolded)?.[1] ?? '';
  const subject = rawSubject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_w, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replaceAll('_', ' ')),
    );
  const rawBody = body.join('\n\n');
  const text = /Content-Transfer-Encoding: base64/i.test(head)
    ? Buffer.from(rawBody.replace(/\s+/g, ''), 'base64').toString('utf8')
    : /Content-Transfer-Encoding: quoted-printable/i.test(head)
      ? quotedPrintable(rawBody.replace(/=\r?\n/g, ''))
      : rawBody;
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? /^[0-9A-F]{2}/i.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
