/** Authenticator (TOTP) codes via otpauth, with replay protection: a code's time step is used once. */
import * as OTPAuth from 'otpauth';

const PERIOD = 30;

function totp(secretBase32: string, account = '') {
  return new OTPAuth.TOTP({
    issuer: 'Duka',
    label: account,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

export const newTotpSecret = () => new OTPAuth.Secret({ size: 20 }).base32;

export const totpUri = (secretBase32: string, account: string) => totp(secretBase32, account).toString();

/** The time step the code belongs to, or null if wrong or already used (step <= lastStep). */
export function checkTotp(secretBase32: string, code: string, nowMs: number, lastStep: number | null): number | null {
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / PERIOD) + delta;
  return lastStep != null && step <= lastStep ? null : step;
}

/** The current code, for tests and tooling. */
export const currentTotp = (secretBase32: string, nowMs: number) => totp(secretBase32).generate({ timestamp: nowMs });
