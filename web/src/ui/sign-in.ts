/** Sign in with a password, or with a code sent by SMS; owners and staff alike. */
import { type Till, TillError, type TillUser } from '@duka/client-sdk';
import { signal } from '../signal.js';
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { html } from './html.js';
import { errorText } from './errors.js';

/**
 * Online first; when the server cannot be reached (or the browser knows it is offline), the
 * password is checked against this till's own verifier of it, and the cashier sells on.
 */
async function passwordSignIn(till: Till, identifier: string, password: string): Promise<TillUser> {
  if (navigator.onLine) {
    try {
      return await till.login(identifier, password);
    } catch (e) {
      if (!(e instanceof TillError && e.code === 'NETWORK')) throw e;
    }
  }
  try {
    const user = await till.loginOffline(identifier, password);
    offlineNotice.set(true);
    return user;
  } catch {
    throw new OfflineRefused(t('signin.offline_failed'));
  }
}

class OfflineRefused extends Error {}

/** Set when the last sign-in was checked on the till alone: the app says so once. */
export const offlineNotice = signal(false);

export function SignIn({
  till,
  onSignedIn,
  onCancel,
  ended = false,
}: {
  till: Till;
  onSignedIn: (user: TillUser) => void;
  onCancel?: (() => void) | undefined;
  /** The till's sign-in was refused by the server (its tokens are gone): say why the cashier is here. */
  ended?: boolean;
}) {
  const [mode, setMode] = useState<'password' | 'otp'>('password');
  const [identifier, setIdentifier] = useState('');
  const [secret, setSecret] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e instanceof OfflineRefused ? e.message : errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (mode === 'password') return run(() => passwordSignIn(till, identifier.trim(), secret).then(onSignedIn));
    if (!codeSent) return run(async () => (await till.requestOtp(identifier.trim()), setCodeSent(true)));
    return run(async () => onSignedIn(await till.loginWithOtp(identifier.trim(), secret.trim())));
  };
  const switchMode = () => {
    setMode(mode === 'password' ? 'otp' : 'password');
    setSecret('');
    setCodeSent(false);
    setError(null);
  };

  return html`
    <main class="sign-in">
      <form onSubmit=${submit} data-testid="sign-in">
        <h1>${t('signin.title')}</h1>
        ${ended ? html`<p class="banner" role="status" data-testid="sign-in-ended">${t('signin.again')}</p>` : null}
        <label>${mode === 'password' ? t('signin.identifier') : t('signin.phone')}
          <input data-testid="sign-in-identifier" autocomplete="username" required value=${identifier} onInput=${(e: any) => setIdentifier(e.currentTarget.value)} />
        </label>
        ${
          mode === 'password'
            ? html`<label>${t('signin.password')}
              <input data-testid="sign-in-password" type="password" autocomplete="current-password" required value=${secret} onInput=${(e: any) => setSecret(e.currentTarget.value)} />
            </label>`
            : codeSent
              ? html`<p>${t('signin.code_sent', { phone: identifier })}</p>
                <label>${t('signin.code')}
                  <input data-testid="sign-in-code" inputmode="numeric" autocomplete="one-time-code" required value=${secret} onInput=${(e: any) => setSecret(e.currentTarget.value)} />
                </label>`
              : null
        }
        ${error ? html`<p class="error" role="alert" data-testid="sign-in-error">${error}</p>` : null}
        <button type="submit" class="primary" disabled=${busy} data-testid="sign-in-submit">
          ${mode === 'otp' && !codeSent ? t('signin.send_code') : t('signin.submit')}
        </button>
        <button type="button" class="link" onClick=${switchMode} data-testid="sign-in-mode">
          ${mode === 'password' ? t('signin.with_code') : t('signin.with_password')}
        </button>
        ${onCancel ? html`<button type="button" data-testid="sign-in-cancel" onClick=${onCancel}>${t('signin.back')}</button>` : null}
        <p class="note">${t('signin.offline_note')}</p>
      </form>
    </main>
  `;
}
