/**
 * The first thing a cashier sees after signing in with the temporary password from the SMS: the
 * server answers such a session nothing but a new password (`PATCH /accounts/me`), so the till asks
 * for it right here and then carries on signed in, loading the shop as after any sign-in.
 */
import { DukaApiError, type Till, type TillUser } from '@duka/client-sdk';
import { Password } from '@duka/shared';
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { errorText } from './errors.js';
import { html } from './html.js';

/** The one refusal the shared rule cannot foresee: the server will not take the temporary password itself. */
const sameAsTemporary = (err: unknown): boolean =>
  err instanceof DukaApiError &&
  err.code === 'VALIDATION_ERROR' &&
  err.errors.some((e) => e.field === 'password' && /temporary/.test(e.message));

export function SetPassword({ till, onDone, onSignIn }: { till: Till; onDone: (user: TillUser) => void; onSignIn: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    // The server's own rule (shared), said in the till's language before asking it.
    if (!Password.safeParse(password).success) return setError(t('password.weak'));
    if (password !== confirm) return setError(t('password.mismatch'));
    setBusy(true);
    setError(null);
    try {
      onDone(await till.setPassword(password));
    } catch (err) {
      // A session that has ended meanwhile (the password set elsewhere) sends the cashier to the sign-in by itself.
      setError(sameAsTemporary(err) ? t('password.temporary') : errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const other = async () => {
    await till.logout();
    onSignIn();
  };

  return html`
    <main class="sign-in">
      <form onSubmit=${submit} data-testid="set-password">
        <h1>${t('password.title')}</h1>
        <p>${t('password.why')}</p>
        <label>${t('password.new')}
          <input data-testid="new-password" type="password" autocomplete="new-password" required autofocus
            value=${password} onInput=${(e: any) => setPassword(e.currentTarget.value)} />
        </label>
        <label>${t('password.confirm')}
          <input data-testid="new-password-confirm" type="password" autocomplete="new-password" required
            value=${confirm} onInput=${(e: any) => setConfirm(e.currentTarget.value)} />
        </label>
        <p class="note">${t('password.rule')}</p>
        ${error ? html`<p class="error" role="alert" data-testid="set-password-error">${error}</p>` : null}
        <button type="submit" class="primary" disabled=${busy} data-testid="set-password-submit">${t('password.submit')}</button>
        <button type="button" class="link" onClick=${other} data-testid="set-password-sign-in">${t('password.other')}</button>
      </form>
    </main>
  `;
}
