/**
 * The SMS sender: which gateway account the shop's customer messages use (GET /sms/account) and
 * its settings, the organisation's `sms_*` fields (PATCH /accounts/organisation). The key and
 * secret are write-only: their inputs start empty, "set" / "not set" says what the server holds,
 * and an empty input leaves the saved one as it is.
 */
import type { Organisation, SmsAccount } from '@duka/shared';
import { may } from '../../access.js';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { num } from '../../i18n/lang.js';
import { Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRead } from '../../ui/record.js';
import { t } from './messages.js';
import { SecretState, Section } from './section.js';

const PROVIDERS = ['beem', 'africastalking', 'nextsms'] as const;

export function SmsSection() {
  const account = useRead<SmsAccount>('/sms/account');
  const org = useRead<Organisation>('/accounts/organisation');
  const reload = () => (account.reload(), org.reload());
  return html`<${Section} id="sms" title=${t('sms.title')} error=${account.error ?? org.error}>
    ${
      account.data
        ? html`<p class="muted" data-testid="sms-usage">${t('sms.usage', { own: num(account.data.usage.own_account.messages), platform: num(account.data.usage.platform.messages) })}</p>
          ${account.data.delivery_report_url ? html`<label class="field"><span>${t('sms.dlr')}</span><input readonly value=${account.data.delivery_report_url} /></label>` : null}`
        : null
    }
    ${org.data ? html`<${SmsForm} key=${org.data.updated_at} org=${org.data} onDone=${reload} />` : org.error ? null : html`<${Loading} />`}
  </${Section}>`;
}

function SmsForm({ org, onDone }: { org: Organisation; onDone: () => void }) {
  const { values, bind, setValues } = useValues({
    sms_provider: org.sms_provider ?? '',
    sms_sender_id: org.sms_sender_id ?? '',
    sms_api_key: '',
    sms_api_secret: '',
  });
  const form = useSubmit(async () => {
    const body: Record<string, string | null> = { sms_provider: values.sms_provider || null, sms_sender_id: values.sms_sender_id || null };
    // An empty secret input keeps the saved secret.
    if (values.sms_api_key) body.sms_api_key = values.sms_api_key;
    if (values.sms_api_secret) body.sms_api_secret = values.sms_api_secret;
    await api('PATCH', '/accounts/organisation', { body });
    setValues((v) => ({ ...v, sms_api_key: '', sms_api_secret: '' }));
    onDone();
  });
  const editable = may('PATCH /accounts/organisation');
  return html`<form class="form-grid" onSubmit=${form.submit} data-testid="sms-form">
    <${Field} label=${t('sms.provider')} name="sms_provider" error=${form.error}>
      <select ...${bind('sms_provider')} onChange=${(e: Event) => setValues((v) => ({ ...v, sms_provider: (e.currentTarget as HTMLSelectElement).value }))} disabled=${!editable}>
        <option value="">${t('sms.platform')}</option>
        ${PROVIDERS.map((p) => html`<option value=${p}>${p}</option>`)}
      </select>
    </${Field}>
    <${Field} label=${t('sms.sender_id')} name="sms_sender_id" error=${form.error}><input ...${bind('sms_sender_id')} maxlength="11" disabled=${!editable} /></${Field}>
    <${Field} label=${t('sms.api_key')} name="sms_api_key" error=${form.error}>
      <input ...${bind('sms_api_key')} type="password" autocomplete="off" placeholder=${t('secret.keep')} disabled=${!editable} />
      <${SecretState} set=${org.sms_api_key_set} testid="sms-key-state" />
    </${Field}>
    <${Field} label=${t('sms.api_secret')} name="sms_api_secret" error=${form.error}>
      <input ...${bind('sms_api_secret')} type="password" autocomplete="off" placeholder=${t('secret.keep')} disabled=${!editable} />
      <${SecretState} set=${org.sms_api_secret_set} testid="sms-secret-state" />
    </${Field}>
    ${form.error ? null : form.done ? html`<p class="banner ok" role="status">${core('saved')}</p>` : null}
    ${editable ? html`<button type="submit" class="primary" disabled=${form.busy}>${core('save')}</button>` : null}
  </form>`;
}
