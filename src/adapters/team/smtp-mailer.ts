import nodemailer from 'nodemailer';
import type { Mailer } from '../../domain/team/access-ports';

/**
 * Email through the SMTP server of SMTP_URL (`smtp://user:pass@host:587`, `smtps://…:465`), from
 * SMTP_FROM. A send that fails is told to `onError` (the server's log); the person asking sees the
 * same answer either way.
 */
export function smtpMailer(options: { url: string; from: string; onError?: (error: Error) => void }): Mailer {
  const transport = nodemailer.createTransport({
    url: options.url,
    // Every wait bounded: a mail server that hangs never holds a sender for long.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        options.onError?.(error as Error);
        throw error;
      }
    },
  };
}
