/** The organisation's name and identity (GET/PATCH /accounts/organisation) and the active store's details (GET/PATCH /stores/{id}). */
import type { Organisation, Profile, Store } from '@duka/shared';
import { may, profile } from '../../access.js';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { Field } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRead, useRecordForm } from '../../ui/record.js';
import { t } from './messages.js';
import { Section } from './section.js';

/** Empty text is "none" to the API (null), not an empty name. */
const orNull = (v: string) => (v.trim() === '' ? null : v);

export function OrganisationSection() {
  const org = useRead<Organisation>('/accounts/organisation');
  return html`<${Section} id="organisation" title=${t('org.title')} error=${org.error}>
    ${org.data ? html`<${OrganisationForm} key=${org.data.updated_at} org=${org.data} />` : org.error ? null : html`<${Loading} />`}
  </${Section}>`;
}

function OrganisationForm({ org }: { org: Organisation }) {
  const { bind, submission: form } = useRecordForm({
    read: org,
    valuesOf: (o: Organisation | null) => ({
      name: o?.name ?? '',
      legal_name: o?.legal_name ?? '',
      tin: o?.tin ?? '',
      phone: o?.phone ?? '',
      email: o?.email ?? '',
    }),
    save: async (v) => {
      const body = { ...v, legal_name: orNull(v.legal_name), tin: orNull(v.tin), phone: orNull(v.phone), email: orNull(v.email) };
      await api('PATCH', '/accounts/organisation', { body });
      // The header shows the organisation's name from the profile: read it again.
      profile.value = (await api<Profile>('GET', '/accounts/me')).data;
    },
  });
  const editable = may('PATCH /accounts/organisation');
  return html`<form class="form-grid" onSubmit=${form.submit} data-testid="org-form">
    <${Field} label=${t('org.name')} name="name" error=${form.error}><input ...${bind('name')} data-testid="org-name" required disabled=${!editable} /></${Field}>
    <${Field} label=${t('org.legal_name')} name="legal_name" error=${form.error}><input ...${bind('legal_name')} disabled=${!editable} /></${Field}>
    <${Field} label=${t('org.tin')} name="tin" error=${form.error}><input ...${bind('tin')} inputmode="numeric" disabled=${!editable} /></${Field}>
    <${Field} label=${t('org.phone')} name="phone" error=${form.error}><input ...${bind('phone')} type="tel" disabled=${!editable} /></${Field}>
    <${Field} label=${t('org.email')} name="email" error=${form.error}><input ...${bind('email')} type="email" disabled=${!editable} /></${Field}>
    ${form.error ? null : form.done ? html`<p class="banner ok" role="status" data-testid="org-saved">${core('saved')}</p>` : null}
    ${editable ? html`<button type="submit" class="primary" disabled=${form.busy} data-testid="org-save">${core('save')}</button>` : null}
  </form>`;
}

export function StoreSection() {
  const storeId = profile.value?.store?.id ?? null;
  const store = useRead<Store>(storeId ? `/stores/${storeId}` : null);
  if (!storeId) return null;
  return html`<${Section} id="store" title=${t('store.title')} error=${store.error}>
    ${store.data ? html`<${StoreForm} key=${`${store.data.id}${store.data.updated_at}`} store=${store.data} />` : store.error ? null : html`<${Loading} />`}
  </${Section}>`;
}

function StoreForm({ store }: { store: Store }) {
  const { bind, submission: form } = useRecordForm({
    read: store,
    valuesOf: (s: Store | null) => ({ name: s?.name ?? '', phone: s?.phone ?? '', area: s?.area ?? '', address: s?.address ?? '' }),
    save: async (v) => {
      const body = { name: v.name, phone: orNull(v.phone), area: orNull(v.area), address: orNull(v.address) };
      await api('PATCH', `/stores/${store.id}`, { body });
      profile.value = (await api<Profile>('GET', '/accounts/me')).data;
    },
  });
  const editable = may('PATCH /stores/{id}');
  return html`<form class="form-grid" onSubmit=${form.submit} data-testid="store-form">
    <${Field} label=${t('store.name')} name="name" error=${form.error}><input ...${bind('name')} required disabled=${!editable} /></${Field}>
    <${Field} label=${t('store.phone')} name="phone" error=${form.error}><input ...${bind('phone')} type="tel" disabled=${!editable} /></${Field}>
    <${Field} label=${t('store.area')} name="area" error=${form.error}><input ...${bind('area')} disabled=${!editable} /></${Field}>
    <${Field} label=${t('store.address')} name="address" error=${form.error}><input ...${bind('address')} disabled=${!editable} /></${Field}>
    ${form.error ? null : form.done ? html`<p class="banner ok" role="status">${core('saved')}</p>` : null}
    ${editable ? html`<button type="submit" class="primary" disabled=${form.busy}>${core('save')}</button>` : null}
  </form>`;
}
