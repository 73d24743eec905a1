/**
 * The shop's mobile-money collection accounts (GET/POST/PATCH /payments/collection-accounts):
 * keys go in and never come out. The list says "key set" with the provider's hint; a key input
 * is always empty when shown; the callback URL (with its token) is shown to the owner to give the
 * provider, and can be replaced (rotate-callback) when it leaked.
 */
import type { CollectionAccount, CollectionProvider } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRead } from '../../ui/record.js';
import { t } from './messages.js';
import { Section } from './section.js';

/** Each provider's credential fields, as the API's schemas name them (shared/src/payments/collection.schemas.ts). */
const KEYS = {
  azampay: ['appName', 'clientId', 'clientSecret', 'apiKey'],
  selcom: ['apiKey', 'apiSecret', 'vendor'],
} as const satisfies Record<CollectionProvider, readonly string[]>;
type Key = (typeof KEYS)[CollectionProvider][number];

export function MobileMoneySection() {
  const list = useRead<CollectionAccount[]>('/payments/collection-accounts');
  return html`<${Section} id="mobile-money" title=${t('mm.title')} error=${list.error}>
    ${
      !list.data
        ? list.error
          ? null
          : html`<${Loading} />`
        : list.data.length
          ? html`<ul class="plain" data-testid="mm-accounts">${list.data.map((a) => html`<${Account} key=${a.id} account=${a} onChange=${list.reload} />`)}</ul>`
          : html`<p class="muted" data-testid="mm-none">${t('mm.none')}</p>`
    }
    ${may('POST /payments/collection-accounts') ? html`<${AddAccount} onDone=${list.reload} />` : null}
  </${Section}>`;
}

function Account({ account, onChange }: { account: CollectionAccount; onChange: () => void }) {
  const [rotated, setRotated] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const rotate = useSubmit(async () => {
    await api('POST', `/payments/collection-accounts/${account.id}/rotate-callback`);
    setRotated(true);
    onChange();
  });
  return html`<li class="mm-account" data-testid="mm-account" data-id=${account.id}>
    <strong>${account.label}</strong> <span class="muted">${account.provider}${account.test_mode ? ` · ${t('mm.test_mode')}` : ''}</span>
    <span class=${account.active ? 'ok' : 'muted'}>${account.active ? t('mm.active') : t('mm.inactive')}</span>
    <small class="ok" data-testid="mm-key-set">${account.credentials_hint ? t('mm.key_set', { hint: account.credentials_hint }) : t('mm.key_set_plain')}</small>
    <label class="field"><span>${t('mm.callback')}</span><input readonly value=${account.callback_url} data-testid="mm-callback" onFocus=${(e: Event) => (e.currentTarget as HTMLInputElement).select()} /></label>
    ${rotated ? html`<p class="banner ok" role="status" data-testid="mm-rotated">${t('mm.rotated')}</p>` : null}
    <${ErrorBanner} error=${rotate.error} />
    <div class="actions">
      ${may('POST /payments/collection-accounts/{id}/rotate-callback') ? html`<button type="button" disabled=${rotate.busy} onClick=${rotate.submit} data-testid="mm-rotate">${t('mm.rotate')}</button>` : null}
      ${may('PATCH /payments/collection-accounts/{id}') ? html`<button type="button" class="link" aria-expanded=${replacing} onClick=${() => setReplacing(!replacing)}>${t('mm.new_keys')}</button>` : null}
    </div>
    ${replacing ? html`<${Keys} provider=${account.provider} account=${account} onDone=${() => (setReplacing(false), onChange())} />` : null}
  </li>`;
}

/** New keys for an account: a whole credential object, every input empty to start with. */
function Keys({ provider, account, onDone }: { provider: CollectionProvider; account: CollectionAccount; onDone: () => void }) {
  const { values, bind } = useValues(Object.fromEntries(KEYS[provider].map((k) => [k, ''])) as Record<Key, string>);
  const form = useSubmit(async () => {
    await api('PATCH', `/payments/collection-accounts/${account.id}`, { body: { credentials: values } });
    onDone();
  });
  return html`<form class="form-grid" onSubmit=${form.submit}>
    <${ErrorBanner} error=${form.error} />
    <${KeyInputs} provider=${provider} bind=${bind} error=${form.error} />
    <button type="submit" class="primary" disabled=${form.busy}>${core('save')}</button>
  </form>`;
}

function KeyInputs({
  provider,
  bind,
  error,
}: {
  provider: CollectionProvider;
  bind: (k: Key) => object;
  error: ReturnType<typeof useSubmit>['error'];
}) {
  return KEYS[provider].map(
    (k) => html`<${Field} label=${t(`mm.${k}`)} name=${`credentials.${k}`} error=${error}>
      <input ...${bind(k)} type=${k === 'appName' || k === 'vendor' || k === 'clientId' ? 'text' : 'password'} autocomplete="off" required data-testid=${`mm-${k}`} />
    </${Field}>`,
  );
}

function AddAccount({ onDone }: { onDone: () => void }) {
  const empty = {
    provider: 'azampay',
    label: '',
    test_mode: false,
    appName: '',
    clientId: '',
    clientSecret: '',
    apiKey: '',
    apiSecret: '',
    vendor: '',
  };
  const { values, bind, set, setValues } = useValues(empty);
  const provider = values.provider as CollectionProvider;
  const form = useSubmit(async (idempotencyKey) => {
    const credentials = Object.fromEntries(KEYS[provider].map((k) => [k, values[k]]));
    const body = { provider, label: values.label, test_mode: values.test_mode, credentials };
    await api('POST', '/payments/collection-accounts', { body, idempotencyKey });
    // Saved: the keys leave the page at once.
    setValues(empty);
    onDone();
  });
  return html`<details class="add" data-testid="mm-add">
    <summary>${t('mm.add')}</summary>
    <form class="form-grid" onSubmit=${form.submit} data-testid="mm-form">
      <${ErrorBanner} error=${form.error} />
      <${Field} label=${t('mm.provider')} name="provider" error=${form.error}>
        <select ...${bind('provider')} onChange=${(e: Event) => set('provider', (e.currentTarget as HTMLSelectElement).value)} data-testid="mm-provider">
          <option value="azampay">AzamPay</option><option value="selcom">Selcom</option>
        </select>
      </${Field}>
      <${Field} label=${t('mm.label')} name="label" error=${form.error}><input ...${bind('label')} required data-testid="mm-label" /></${Field}>
      <${KeyInputs} provider=${provider} bind=${bind} error=${form.error} />
      <label class="check"><input type="checkbox" checked=${values.test_mode} onChange=${(e: Event) => set('test_mode', (e.currentTarget as HTMLInputElement).checked)} /> ${t('mm.test_mode')}</label>
      <button type="submit" class="primary" disabled=${form.busy} data-testid="mm-save">${core('save')}</button>
    </form>
  </details>`;
}
