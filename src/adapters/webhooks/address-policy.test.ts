import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, webhookUrlPolicy } from './address-policy';
import { httpWebhookSender } from './http-sender';

describe('isForbiddenAddress', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:c0a8:101',
    '64:ff9b::a00:1',
    '[::1]',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '172.15.255.255', '192.169.0.1', '11.0.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('refuses what is not an address at all', () => {
    expect(isForbiddenAddress('example.com')).toBe(true);
  });
});

describe('webhookUrlPolicy', () => {
  // A stand-in for DNS answers: names that resolve to private addresses are the SSRF trick.
  const dns: Record<string, string[]> = {
    'public.example': ['93.184.215.14'],
    'sneaky.example': ['93.184.215.14', '10.0.0.5'],
    'metadata.example': ['169.254.169.254'],
    'v6-loopback.example': ['::1'],
    'v6-ula.example': ['fd00::2'],
    'mapped.example': ['::ffff:192.168.1.1'],
  };
  const policy = webhookUrlPolicy(async (name) => {
    const answer = dns[name];
    if (!answer) throw new Error('ENOTFOUND');
    return answer;
  });

  it('allows a public https URL in live mode', async () => {
    expect(await policy.check('https://public.example/hooks', 'live')).toEqual({ allowed: true });
  });

  it.each(['sneaky.example', 'metadata.example', 'v6-loopback.example', 'v6-ula.example', 'mapped.example'])(
    'refuses a live URL whose name resolves to a private address (%s)',
    async (host) => {
      expect(await policy.check(`https://${host}/hooks`, 'live')).toMatchObject({ allowed: false });
    },
  );

  it('refuses http, credentials, unresolvable names and literal private addresses in live mode', async () => {
    for (const url of [
      'http://public.example/h',
      'https://u:p@public.example/h',
      'https://nowhere.example/h',
      'https://[fe80::1]/h',
      'https://192.168.0.10/h',
    ]) {
      expect(await policy.check(url, 'live'), url).toMatchObject({ allowed: false });
    }
  });

  it('allows http://localhost and private addresses in test mode, but only http(s)', async () => {
    expect(await policy.check('http://localhost:3000/hooks', 'test')).toEqual({ allowed: true });
    expect(await policy.check('http://10.0.0.5/hooks', 'test')).toEqual({ allowed: true });
    expect(await policy.check('file:///etc/passwd', 'test')).toMatchObject({ allowed: false });
  });

  it('uses the system resolver by default: localhost is private in live mode', async () => {
    expect(await webhookUrlPolicy().check('https://localhost/hooks', 'live')).toMatchObject({ allowed: false });
  });
});

describe('httpWebhookSender in live mode', () => {
  const send = (url: string) => httpWebhookSender().send({ url, mode: 'live', body: '{}', headers: {}, timeoutMs: 2000 });

  it('checks again at delivery time: a name resolving to loopback is refused before connecting', async () => {
    const result = await send('https://localhost:9/hooks');
    expect(result).toMatchObject({ ok: false, status: null });
    expect(!result.ok && result.error).toMatch(/private, loopback or link-local/);
  });

  it('refuses literal private addresses and plain http', async () => {
    for (const url of ['https://127.0.0.1:9/h', 'https://[::ffff:10.0.0.1]:9/h', 'http://93.184.215.14/h']) {
      const result = await send(url);
      expect(!result.ok && result.error, url).toMatch(/refused/);
    }
  });
});
