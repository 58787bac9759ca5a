import type { DashboardSession, PasswordReset, SecondFactor, SetupLink } from './entities';

/**
 * Instance access and account security: setup links, password resets, second factors, the team's
 * second-factor requirement and a user's own sessions. Part of the unit of work.
 */
export interface AccessRepositories {
  setupLinks: {
    insert(link: SetupLink): Promise<void>;
    getByTokenHash(hash: string, options?: { forUpdate?: boolean }): Promise<SetupLink | null>;
    markUsed(id: string, userId: string, at: Date): Promise<void>;
    /** Withdraws the account's unused links: only the newest one works. */
    revokeUnused(accountId: string, at: Date): Promise<void>;
  };
  passwordResets: {
    insert(reset: PasswordReset): Promise<void>;
    getByTokenHash(hash: string, options?: { forUpdate?: boolean }): Promise<PasswordReset | null>;
    markUsed(id: string, at: Date): Promise<void>;
    /** Withdraws the user's unused links (a new one, or a password just set, makes them moot). */
    revokeUnused(userId: string, at: Date): Promise<void>;
  };
  userSecrets: {
    count(): Promise<number>;
    setPasswordHash(userId: string, hash: string): Promise<void>;
  };
  secondFactors: {
    get(userId: string, options?: { forUpdate?: boolean }): Promise<SecondFactor | null>;
    offer(userId: string, pendingSecret: string): Promise<void>;
    enable(userId: string, secret: string, step: number, at: Date): Promise<void>;
    acceptStep(userId: string, step: number): Promise<void>;
    remove(userId: string): Promise<void>;
  };
  recoveryCodes: {
    replace(userId: string, hashes: string[]): Promise<void>;
    /** Marks an unused code used; false when there is no such unused code. */
    use(userId: string, hash: string, at: Date): Promise<boolean>;
    countUnused(userId: string): Promise<number>;
  };
  accountSecurity: {
    requiresSecondFactor(accountId: string): Promise<boolean>;
    setRequireSecondFactor(accountId: string, required: boolean, at: Date): Promise<void>;
  };
  userSessions: {
    /** The user's unexpired sessions, newest first. */
    list(userId: string, at: Date): Promise<DashboardSession[]>;
    /** False when the user has no such session. */
    delete(userId: string, id: string): Promise<boolean>;
    /** Ends every session of the user but `keepId` (null: all of them). */
    deleteAll(userId: string, keepId: string | null): Promise<void>;
  };
}

/** TOTP codes (RFC 6238, 30-second steps, 6 digits, SHA-1 as authenticator apps expect). */
export interface SecondFactorCodes {
  /** A new random base32 secret. */
  newSecret(): string;
  /** The `otpauth://totp/…` URI an authenticator app reads (as a QR code or typed). */
  uri(secret: string, label: string): string;
  /** The URI as an SVG QR code. */
  qrSvg(uri: string): Promise<string>;
  /** The time step a code is valid for at `at` (one step of drift either way), or null. */
  check(secret: string, code: string, at: Date): number | null;
}

/** Sends email (SMTP_URL); absent when no mail server is configured. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** The access settings of an install. */
export interface AccessSettings {
  /** SIGNUP: `invite` (default) refuses sign-up without an invite; `open` lets anyone create an account. */
  signUp: 'open' | 'invite';
  secondFactorCodes: SecondFactorCodes;
  mailer: Mailer | null;
}
