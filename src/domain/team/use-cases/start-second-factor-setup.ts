import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { User } from '../entities';

/**
 * Offers a new TOTP secret to a person turning on a second factor: as a QR code and as text for an
 * authenticator app. Nothing changes for sign-in until a first code confirms it.
 */
export async function startSecondFactorSetup(deps: Deps, options: { user: User }): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const codes = deps.access.secondFactorCodes;
  const secret = codes.newSecret();
  await deps.store.transaction(async (tx) => {
    const current = await tx.secondFactors.get(options.user.id, { forUpdate: true });
    if (current?.secret) throw new TillpointError('parameter_invalid', 'Two-step verification is on already: turn it off first to set up another app');
    await tx.secondFactors.offer(options.user.id, secret);
  });
  const uri = codes.uri(secret, options.user.email);
  return { secret, uri, qrSvg: await codes.qrSvg(uri) };
}
