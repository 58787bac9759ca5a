import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';
import { totpCodes } from '../adapters/team/totp-codes';

describe('access settings', () => {
  it('closes sign-up and sends no email when nothing is set', () => {
    const config = readConfig({});
    expect(config.signUp).toBe('invite');
    expect(config.smtp).toBeNull();
  });

  it('reads SIGNUP, SMTP_URL and SMTP_FROM; the sender defaults to the public host', () => {
    expect(readConfig({ SIGNUP: 'open' }).signUp).toBe('open');
    expect(readConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', PUBLIC_URL: 'https://pay.shop.example' }).smtp).toEqual({
      url: 'smtps://u:p@mail.example.com:465',
      from: 'Tillpoint <no-reply@pay.shop.example>',
    });
    expect(readConfig({ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: 'Shop <pay@shop.example>' }).smtp?.from).toBe('Shop <pay@shop.example>');
  });

  it.each([
    ['SIGNUP', { SIGNUP: 'anyone' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com' }],
    ['SMTP_FROM', { SMTP_FROM: 'Shop <pay@shop.example>' }],
    ['SMTP_FROM', { SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: 'a\nBcc: x@evil.example' }],
  ])('refuses a bad %s, naming it', (name, env) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(`Invalid ${name}`);
  });
});

describe('TOTP codes (RFC 6238)', () => {
  const secret = totpCodes.newSecret();
  const at = new Date('2026-06-01T12:00:10Z');
  const app = (time: Date) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: time.getTime() });
  const step = Math.floor(at.getTime() / 30_000);

  it('accepts the code of now and of one step either side, naming its step; refuses two steps off', () => {
    expect(totpCodes.check(secret, app(at), at)).toBe(step);
    expect(totpCodes.check(secret, app(new Date(at.getTime() - 30_000)), at)).toBe(step - 1);
    expect(totpCodes.check(secret, app(new Date(at.getTime() + 30_000)), at)).toBe(step + 1);
    expect(totpCodes.check(secret, app(new Date(at.getTime() + 60_000)), at)).toBeNull();
  });

  it('refuses what is not six digits, and takes spaces as typed', () => {
    const code = app(at);
    expect(totpCodes.check(secret, `${code.slice(0, 3)} ${code.slice(3)}`, at)).toBe(step);
    expect(totpCodes.check(secret, code.slice(0, 5), at)).toBeNull();
    expect(totpCodes.check(secret, 'abcdef', at)).toBeNull();
  });

  it('makes a 160-bit base32 secret and an otpauth URI naming the issuer and the person', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = totpCodes.uri(secret, 'olive@shop.example');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Tillpoint:olive%40shop\.example\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('issuer=Tillpoint');
  });
});
