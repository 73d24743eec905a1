/** A store's details, new (POST /stores) or changed (PATCH /stores/{id}): only the fields filled are sent when adding. */
import type { Store } from '@duka/shared';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner, Field } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { useRecordForm } from '../../ui/record.js';
import { navigate } from '../../ui/router.js';
import { t } from './messages.js';

const TEXT = ['name', 'code', 'phone', 'email', 'area', 'address', 'open_hours'] as const;

export function StoreForm({ store, onSaved }: { store?: Store; onSaved?: (s: Store) => void }) {
  const form = useRecordForm({
    read: store,
    valuesOf: (s: Store | null) => ({
      ...(Object.fromEntries(TEXT.map((k) => [k, s?.[k] ?? ''])) as Record<(typeof TEXT)[number], string>),
      vat_enabled: s?.vat_enabled ?? false,
    }),
    save: async (v) => {
      if (store) {
        // A cleared optional field is removed (null); name and code are always sent.
        const body = {
          ...Object.fromEntries(TEXT.map((k) => [k, v[k].trim() || (k === 'name' || k === 'code' ? v[k] : null)])),
          vat_enabled: v.vat_enabled,
        };
        onSaved?.((await api<Store>('PATCH', `/stores/${store.id}`, { body })).data);
      } else {
        const body = { ...Object.fromEntries(TEXT.filter((k) => v[k].trim()).map((k) => [k, v[k]])), vat_enabled: v.vat_enabled };
        const { data } = await api<Store>('POST', '/stores', { body });
        navigate(`stores/${data.id}`);
      }
    },
  });
  const save = form.submission;
  const error = save.error;
  const input = (k: (typeof TEXT)[number], type = 'text') =>
    html`<${Field} label=${t(k)} name=${k} error=${error}><input type=${type} data-testid=${`store-${k}`} required=${k === 'name'} ...${form.bind(k)} /></${Field}>`;
  return html`<form class="stack card" data-testid="store-form" onSubmit=${save.submit}>
    ${store ? html`<h2>${t('details')}</h2>` : html`<h1>${t('add.title')}</h1>`}
    <${ErrorBanner} error=${error} />
    <div class="two">${input('name')}${input('code')}</div>
    <div class="two">${input('phone', 'tel')}${input('email', 'email')}</div>
    <div class="two">${input('area')}${input('open_hours')}</div>
    ${input('address')}
    <label class="check" data-field="vat_enabled">
      <input type="checkbox" data-testid="store-vat_enabled" checked=${form.values.vat_enabled} onChange=${(e: Event) => form.set('vat_enabled', (e.currentTarget as HTMLInputElement).checked)} />
      ${t('vat_enabled')}
    </label>
    <button class="primary" type="submit" disabled=${save.busy} data-testid="store-save">${store ? core('save') : t('add.submit')}</button>
    ${save.done && store ? html`<span class="ok" role="status">${core('saved')}</span>` : null}
  </form>`;
}
