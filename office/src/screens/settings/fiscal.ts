/**
 * TRA receipts for the active store (GET/PUT /stores/{id}/fiscal, POST …/register): its status,
 * the taxpayer identity, the .pfx certificate and its password (write-only: the form never shows
 * them, "set" / "not set" says whether the server holds one), registering the device once, and
 * switching fiscalisation on.
 */
import type { FiscalSettings } from '@duka/shared';
import { useRef } from 'preact/hooks';
import { may, profile } from '../../access.js';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { useRead } from '../../ui/record.js';
import { t } from './messages.js';
import { SecretState, Section } from './section.js';

/** The file as base64, as the API takes the certificate. */
const base64 = async (file: File) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
};

export function FiscalSection() {
  const storeId = profile.value?.store?.id ?? null;
  const fiscal = useRead<FiscalSettings>(storeId ? `/stores/${storeId}/fiscal` : null);
  // Not set up: the API answers 404, which here means "nothing yet", not a failure.
  const missing = fiscal.error?.status === 404;
  const f = fiscal.data;
  const register = useSubmit(async () => {
    fiscal.setData((await api<FiscalSettings>('POST', `/stores/${storeId}/fiscal/register`)).data);
  });
  if (!storeId) return null;
  return html`<${Section} id="fiscal" title=${t('fiscal.title')} error=${missing ? null : fiscal.error}>
    ${
      f
        ? html`<p data-testid="fiscal-status"><strong>${f.enabled ? t('fiscal.enabled') : t('fiscal.disabled')}</strong><br />
            ${f.registration ? t('fiscal.registered', { regid: f.registration.regid }) : t('fiscal.unregistered')}<br />
            <span class="muted">${t('fiscal.queue', { pending: f.queue.pending, failed: f.queue.failed })}</span></p>
            ${f.queue.last_error ? html`<p class="banner error">${f.queue.last_error}</p>` : null}`
        : html`<p class="muted" data-testid="fiscal-none">${missing ? t('fiscal.none') : core('loading')}</p>`
    }
    ${may('PUT /stores/{id}/fiscal') && (f || missing) ? html`<${FiscalForm} storeId=${storeId} settings=${f} onSaved=${fiscal.setData} />` : null}
    <${ErrorBanner} error=${register.error} />
    ${f && !f.registration && may('POST /stores/{id}/fiscal/register') ? html`<button type="button" class="primary" disabled=${register.busy} onClick=${register.submit} data-testid="fiscal-register">${t('fiscal.register')}</button>` : null}
  </${Section}>`;
}

function FiscalForm({
  storeId,
  settings,
  onSaved,
}: {
  storeId: string;
  settings: FiscalSettings | null;
  onSaved: (f: FiscalSettings) => void;
}) {
  const { values, bind, set } = useValues({
    tin: settings?.tin ?? '',
    vrn: settings?.vrn ?? '',
    cert_key: settings?.cert_key ?? '',
    cert_serial: settings?.cert_serial ?? '',
    certificate_password: '',
    environment: settings?.environment ?? 'test',
    enabled: settings?.enabled ?? false,
  });
  const file = useRef<HTMLInputElement>(null);
  const registered = !!settings?.registration;
  const form = useSubmit(async () => {
    const { certificate_password, vrn, ...rest } = values;
    const body: Record<string, unknown> = { ...rest, vrn: vrn || null };
    const chosen = file.current?.files?.[0];
    if (chosen) body.certificate = await base64(chosen);
    if (certificate_password) body.certificate_password = certificate_password;
    onSaved((await api<FiscalSettings>('PUT', `/stores/${storeId}/fiscal`, { body })).data);
    // Taken: the secrets leave the page (the form stays, so it can say it saved).
    set('certificate_password', '');
    if (file.current) file.current.value = '';
  });
  return html`<form class="form-grid" onSubmit=${form.submit} data-testid="fiscal-form">
    <${ErrorBanner} error=${form.error} />
    <${Field} label=${t('org.tin')} name="tin" error=${form.error}><input ...${bind('tin')} inputmode="numeric" required disabled=${registered} /></${Field}>
    <${Field} label=${t('fiscal.vrn')} name="vrn" error=${form.error}><input ...${bind('vrn')} /></${Field}>
    <${Field} label=${t('fiscal.cert_key')} name="cert_key" error=${form.error}><input ...${bind('cert_key')} required /></${Field}>
    <${Field} label=${t('fiscal.cert_serial')} name="cert_serial" error=${form.error}><input ...${bind('cert_serial')} required disabled=${registered} /></${Field}>
    <${Field} label=${t('fiscal.certificate')} name="certificate" error=${form.error}>
      <input type="file" accept=".pfx,.p12" ref=${file} data-testid="fiscal-certificate" />
      <${SecretState} set=${!!settings?.has_certificate} testid="fiscal-certificate-state" />
    </${Field}>
    <${Field} label=${t('fiscal.certificate_password')} name="certificate_password" error=${form.error}>
      <input ...${bind('certificate_password')} type="password" autocomplete="off" placeholder=${t('secret.keep')} />
    </${Field}>
    <${Field} label=${t('fiscal.environment')} name="environment" error=${form.error}>
      <select ...${bind('environment')} onChange=${(e: Event) => set('environment', (e.currentTarget as HTMLSelectElement).value)} disabled=${registered}>
        <option value="test">${t('fiscal.env.test')}</option><option value="production">${t('fiscal.env.production')}</option>
      </select>
    </${Field}>
    ${registered ? html`<label class="check"><input type="checkbox" data-testid="fiscal-enabled" checked=${values.enabled} onChange=${(e: Event) => set('enabled', (e.currentTarget as HTMLInputElement).checked)} /> ${t('fiscal.turn_on')}</label>` : null}
    ${form.error ? null : form.done ? html`<p class="banner ok" role="status" data-testid="fiscal-saved">${core('saved')}</p>` : null}
    <button type="submit" class="primary" disabled=${form.busy} data-testid="fiscal-save">${core('save')}</button>
  </form>`;
}
