/** One store: its details, its status as tills and customers see it, and deactivation (confirmed first). */
import type { Store } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { api } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { Confirm } from '../../ui/confirm.js';
import { ErrorBanner, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { useRead } from '../../ui/record.js';
import { follow, href } from '../../ui/router.js';
import { StoreForm } from './form.js';
import { STATUSES, t } from './messages.js';

export function StoreDetail({ id }: { id: string }) {
  const { data: store, error, setData: setStore } = useRead<Store>(`/stores/${id}`);
  const [next, setNext] = useState<string | null>(null);
  const setStatus = useSubmit(async () => {
    setStore((await api<Store>('PATCH', `/stores/${id}/status`, { body: { status: next ?? store?.status } })).data);
  });
  const remove = useSubmit(async () => {
    await api('DELETE', `/stores/${id}`);
    setStore((s) => s && { ...s, is_active: false });
  });
  const back = html`<a href=${href('stores')} onClick=${(e: MouseEvent) => follow(e, 'stores')}>← ${t('back')}</a>`;
  if (!store) return html`<section>${back}<${ErrorBanner} error=${error} />${error ? null : html`<p>${core('loading')}</p>`}</section>`;
  return html`<section class="store-detail" data-testid="store-detail">
    ${back}
    <header class="screen-head">
      <h1>${store.name}</h1>
      <span class=${`pill ${store.is_active ? store.status : 'inactive'}`} data-testid="store-detail-status">
        ${store.is_active ? t(`status.${store.status}`) : t('inactive')}
      </span>
    </header>
    ${
      store.is_active && may('PATCH /stores/{id}/status')
        ? html`<form class="toolbar" onSubmit=${setStatus.submit}>
      <label class="field"><span>${t('status')}</span>
        <select data-testid="store-status" value=${next ?? store.status} onChange=${(e: Event) => setNext((e.currentTarget as HTMLSelectElement).value)}>
          ${STATUSES.map((s) => html`<option value=${s}>${t(`status.${s}`)}</option>`)}
        </select>
      </label>
      <button type="submit" disabled=${setStatus.busy} data-testid="store-status-save">${core('save')}</button>
    </form>
    <${ErrorBanner} error=${setStatus.error} />`
        : null
    }
    ${may('PATCH /stores/{id}') ? html`<${StoreForm} key=${store.updated_at} store=${store} onSaved=${setStore} />` : null}
    ${
      store.is_active && may('DELETE /stores/{id}')
        ? html`<div class="actions panel">
      <${ErrorBanner} error=${remove.error} />
      <${Confirm} danger label=${t('deactivate')} confirm=${t('deactivate.confirm')} testid="store-deactivate" busy=${remove.busy} body=${t('deactivate.body', { name: store.name })} onConfirm=${() => remove.submit()} />
    </div>`
        : null
    }
    ${remove.done ? html`<div class="banner ok" role="status">${t('deactivated')}</div>` : null}
  </section>`;
}
