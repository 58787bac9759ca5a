import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { SecondFactorCodes } from '../../domain/team/access-ports';

const ISSUER = 'Tillpoint';

function totp(secret: string, label = 'Tillpoint'): TOTP {
  // SHA-1, 6 digits, 30 s: what every authenticator app reads from a QR code.
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** RFC 6238 codes through the otpauth library; QR codes as SVG through qrcode. */
export const totpCodes: SecondFactorCodes = {
  newSecret: () => new Secret({ size: 20 }).base32,
  uri: (secret, label) => totp(secret, label).toString(),
  qrSvg: (uri) => QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
  check(secret, code, at) {
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) return null;
    const delta = totp(secret).validate({ token: digits, timestamp: at.getTime(), window: 1 });
    return delta === null ? null : Math.floor(at.getTime() / 30_000) + delta;
  },
};
