/** Reads the `Cookie` header into name → value (first occurrence wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (name in cookies) continue;
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // A malformed value is no cookie at all.
    }
  }
  return cookies;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. Omitted: a browser-session cookie. */
  maxAge?: number;
  secure: boolean;
}

/**
 * A `Set-Cookie` value for the dashboard: HttpOnly (scripts never read it), SameSite=Lax (not sent
 * on cross-site posts), limited to /dashboard, Secure when the install is served over https.
 */
export function dashboardCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/dashboard', 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
