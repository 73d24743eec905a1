/** The organisation's tills (GET /sync/devices): store, till code, when last seen; retiring one (POST /sync/devices/{id}/retire). */
import type { TillDevice } from '@duka/shared';
import { may, profile } from '../../access.js';
import { api } from '../../api.js';
import { when } from '../../i18n/lang.js';
import { ErrorBanner, useSubmit } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { Loading, useRead } from '../../ui/record.js';
import { type Column, List } from '../../ui/list.js';
import { t } from './messages.js';
import { Section } from './section.js';

export function DevicesSection() {
  const list = useRead<TillDevice[]>('/sync/devices');
  const stores = new Map((profile.value?.stores ?? []).map((s) => [s.id, s.name]));
  const columns: Column<TillDevice>[] = [
    { label: t('dev.till'), cell: (d) => html`<strong>${d.till_code}</strong> ${d.name}` },
    { label: t('dev.store'), cell: (d) => stores.get(d.store_id) ?? '–' },
    { label: t('dev.seen'), cell: (d) => (d.last_seen_at ? when(d.last_seen_at) : t('dev.never')) },
    { label: '', cell: (d) => html`<${Retire} device=${d} onDone=${list.reload} />` },
  ];
  return html`<${Section} id="devices" title=${t('dev.title')} error=${list.error}>
    ${
      !list.data
        ? list.error
          ? null
          : html`<${Loading} />`
        : list.data.length
          ? html`<${List} columns=${columns} rows=${list.data} testid="devices" rowId=${(d: TillDevice) => d.id} />`
          : html`<p class="muted" data-testid="devices-empty">${t('dev.none')}</p>`
    }
  </${Section}>`;
}

function Retire({ device, onDone }: { device: TillDevice; onDone: () => void }) {
  const retire = useSubmit(async () => {
    await api('POST', `/sync/devices/${device.id}/retire`);
    onDone();
  });
  if (device.retired_at)
    return html`<span class="muted" data-testid="device-retired">${t('dev.retired', { when: when(device.retired_at) })}</span>`;
  if (!may('POST /sync/devices/{id}/retire')) return null;
  const ask = (e: Event) => {
    if (confirm(t('dev.confirm', { till: `${device.till_code} ${device.name}` }))) void retire.submit(e);
  };
  return html`<span>
    <button type="button" class="danger" disabled=${retire.busy} onClick=${ask} data-testid="device-retire">${t('dev.retire')}</button>
    <${ErrorBanner} error=${retire.error} />
  </span>`;
}
