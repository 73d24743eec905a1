/** A tab written off (POST /credits/{tab_id}/write-off) with the reason the owner gives; the `credit` permission's. */
import type { CreditTab } from '@duka/shared';
import { api } from '../../api.js';
import { tsh } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export function WriteOff({ tab, onDone }: { tab: CreditTab; onDone: () => void }) {
  const { values, bind } = useValues({ reason: '' });
  const form = useSubmit(async () => {
    await api('POST', `/credits/${tab.id}/write-off`, { body: { reason: values.reason } });
    onDone();
  });
  return html`<form class="panel stack" onSubmit=${form.submit} data-testid="write-off-form">
    <h2>${t('write_off')}</h2>
    <${ErrorBanner} error=${form.error} />
    <${Field} label=${t('write_off.reason')} name="reason" error=${form.error}>
      <input required data-testid="write-off-reason" ...${bind('reason')} />
    <//>
    <button class="danger" type="submit" disabled=${form.busy} data-testid="write-off-submit">${t('write_off.confirm', { amount: tsh(tab.balance) })}</button>
  </form>`;
}
