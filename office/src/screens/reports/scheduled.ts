/**
 * Scheduled reports (the owner's): each emailed as CSV daily, weekly or monthly; added here,
 * switched off and on, sent now, deleted.
 */
import type { RangePreset, ReportTypeInfo, ScheduledReport, ScheduledReportDispatch } from '@duka/shared';
import { useState } from 'preact/hooks';
import { type ApiError, api } from '../../api.js';
import { when } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List, useList } from '../../ui/list.js';
import { reportName, t } from './messages.js';

const PRESETS: RangePreset[] = ['7d', '30d', '90d', 'month', 'ytd'];
const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;

function AddScheduled({ types, onAdded }: { types: ReportTypeInfo[]; onAdded: () => void }) {
  const initial = { report_type: 'sales', name: '', frequency: 'weekly', date_range_preset: '7d', recipients: '' };
  const { values, bind, setValues } = useValues(initial);
  const add = useSubmit(async () => {
    const recipients = values.recipients.split(/[,;\s]+/).filter(Boolean);
    await api('POST', '/reports/scheduled', { body: { ...values, recipients } });
    setValues(initial);
    onAdded();
  });
  // The server names the bad address by its place in the list (`recipients.1`): that one is marked.
  const badRecipient = add.error?.errors.find((e) => e.field?.startsWith('recipients'))?.field ?? 'recipients';
  const select = (name: keyof typeof initial) => ({ ...bind(name), onChange: bind(name).onInput });
  return html`<form class="stack" onSubmit=${add.submit} data-testid="scheduled-form">
    <${ErrorBanner} error=${add.error} />
    <div class="two">
      <${Field} label=${t('type')} name="report_type" error=${add.error}>
        <select ...${select('report_type')}>${types.map((r) => html`<option value=${r.type}>${reportName(r)}</option>`)}</select>
      <//>
      <${Field} label=${t('scheduled.name')} name="name" error=${add.error}><input ...${bind('name')} required data-testid="scheduled-name" /><//>
      <${Field} label=${t('scheduled.frequency')} name="frequency" error=${add.error}>
        <select ...${select('frequency')}>${FREQUENCIES.map((f) => html`<option value=${f}>${t(`scheduled.${f}`)}</option>`)}</select>
      <//>
      <${Field} label=${t('range')} name="date_range_preset" error=${add.error}>
        <select ...${select('date_range_preset')}>${PRESETS.map((p) => html`<option value=${p}>${t(`range.${p}`)}</option>`)}</select>
      <//>
    </div>
    <${Field} label=${t('scheduled.recipients')} name=${badRecipient} error=${add.error}>
      <input ...${bind('recipients')} inputmode="email" data-testid="scheduled-recipients" />
    <//>
    <button class="primary" type="submit" disabled=${add.busy} data-testid="scheduled-add">${t('scheduled.add')}</button>
  </form>`;
}

export function Scheduled({ types }: { types: ReportTypeInfo[] }) {
  const list = useList<ScheduledReport>('/reports/scheduled');
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState('');
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    setNote('');
    try {
      await run();
      list.reload();
    } catch (e) {
      setError(e as ApiError);
    }
  };
  const send = (s: ScheduledReport) =>
    act(async () => {
      const d = (await api<ScheduledReportDispatch>('POST', `/reports/scheduled/${s.id}/send`)).data;
      setNote(t(d.delivered ? 'scheduled.sent' : 'scheduled.queued', { n: d.recipients.length }));
    });
  const remove = (s: ScheduledReport) =>
    confirm(t('scheduled.confirm', { name: s.name })) && act(() => api('DELETE', `/reports/scheduled/${s.id}`));
  const toggle = (s: ScheduledReport) => act(() => api('PATCH', `/reports/scheduled/${s.id}`, { body: { is_enabled: !s.is_enabled } }));
  return html`<section class="panel" data-testid="scheduled">
    <h2>${t('scheduled')}</h2>
    <${ErrorBanner} error=${list.error ?? error} />
    ${note ? html`<p class="banner ok" role="status" data-testid="scheduled-note">${note}</p>` : null}
    ${
      list.rows
        ? html`<${List}
      testid="scheduled-list"
      rows=${list.rows}
      rowId=${(s: ScheduledReport) => s.id}
      columns=${[
        { label: t('scheduled.name'), cell: (s: ScheduledReport) => s.name },
        {
          label: t('scheduled.frequency'),
          cell: (s: ScheduledReport) => `${t(`scheduled.${s.frequency}`)}, ${t(`range.${s.date_range_preset}`)}`,
        },
        { label: t('scheduled.recipients'), cell: (s: ScheduledReport) => s.recipients.join(', ') },
        { label: t('scheduled.next'), cell: (s: ScheduledReport) => (s.is_enabled ? when(s.next_run_at) : t('scheduled.off')) },
        {
          label: '',
          cell: (s: ScheduledReport) => html`<span class="actions">
            <button type="button" onClick=${() => toggle(s)} data-testid="scheduled-toggle">${t(s.is_enabled ? 'scheduled.disable' : 'scheduled.enable')}</button>
            <button type="button" onClick=${() => send(s)} data-testid="scheduled-send">${t('scheduled.send')}</button>
            <button type="button" class="danger" onClick=${() => remove(s)} data-testid="scheduled-delete">${t('scheduled.delete')}</button>
          </span>`,
        },
      ]}
    />`
        : null
    }
    <details><summary>${t('scheduled.add')}</summary><${AddScheduled} types=${types} onAdded=${list.reload} /></details>
  </section>`;
}
