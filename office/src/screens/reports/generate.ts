/**
 * Generating a report: a type and a period (a preset or two dates), shown as JSON → totals, chart
 * and table; "Download CSV" asks the same report as CSV and saves the file the server names. Each
 * generation is recorded by the server as an export (past reports, below).
 */
import type { RangePreset, ReportResult, ReportTypeInfo } from '@duka/shared';
import { useState } from 'preact/hooks';
import { may } from '../../access.js';
import { api, fetchAuthed, get } from '../../api.js';
import { today } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { ReportView } from './result.js';
import { reportAbout, reportName, t } from './messages.js';

const PRESETS: RangePreset[] = ['7d', '30d', '90d', 'month', 'ytd'];

/** Saves a Response's body as a file, under the name its Content-Disposition gives. */
export async function saveFile(res: Response, fallback: string): Promise<void> {
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? fallback;
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function Generate({ types, onMade }: { types: ReportTypeInfo[]; onMade: () => void }) {
  const { values, bind } = useValues({ report_type: types[0]?.type ?? 'sales', range: '30d', date_from: today(-6), date_to: today() });
  const [report, setReport] = useState<ReportResult | null>(null);
  const dated = values.report_type === 'sales' || values.report_type === 'tax';
  const chosen = types.find((r) => r.type === values.report_type);
  const body = (format: 'json' | 'csv') => ({
    report_type: values.report_type,
    format,
    ...(!dated ? {} : values.range === 'dates' ? { date_from: values.date_from, date_to: values.date_to } : { range: values.range }),
  });
  const generate = useSubmit(async () => {
    setReport(await api<ReportResult>('POST', '/reports/generate', { body: body('json') }).then((a) => a.data));
    onMade();
  });
  const csv = useSubmit(async () => {
    await saveFile(await fetchAuthed('POST', '/reports/generate', { body: body('csv') }), `${values.report_type}.csv`);
    onMade();
  });
  const error = generate.error ?? csv.error;
  const allowed = may('POST /reports/generate');

  return html`<section class="panel" data-testid="report-generate">
    <form class="toolbar" onSubmit=${generate.submit}>
      <${Field} label=${t('type')} name="report_type" error=${error}>
        <select ...${bind('report_type')} onChange=${bind('report_type').onInput} data-testid="report-type">
          ${types.map((r) => html`<option value=${r.type}>${reportName(r)}</option>`)}
        </select>
      <//>
      ${
        dated
          ? html`<${Field} label=${t('range')} name="range" error=${error}>
        <select ...${bind('range')} onChange=${bind('range').onInput} data-testid="report-range">
          ${PRESETS.map((p) => html`<option value=${p}>${t(`range.${p}`)}</option>`)}
          <option value="dates">${t('range.dates')}</option>
        </select>
      <//>`
          : null
      }
      ${
        dated && values.range === 'dates'
          ? html`<${Field} label=${t('date_from')} name="date_from" error=${error}><input type="date" ...${bind('date_from')} data-testid="report-date_from" /><//>
        <${Field} label=${t('date_to')} name="date_to" error=${error}><input type="date" ...${bind('date_to')} data-testid="report-date_to" /><//>`
          : null
      }
      ${
        allowed
          ? html`<button class="primary" type="submit" disabled=${generate.busy} data-testid="report-generate-submit">${t('generate')}</button>
        <button type="button" disabled=${csv.busy} onClick=${csv.submit} data-testid="report-csv">${t('csv')}</button>`
          : null
      }
    </form>
    <p class="muted" data-testid="report-about">${chosen ? reportAbout(chosen) : null}</p>
    <${ErrorBanner} error=${error} />
    ${report ? html`<${ReportView} report=${report} />` : null}
  </section>`;
}

export const readTypes = () => get<{ report_types: ReportTypeInfo[] }>('/reports/types').then((r) => r.report_types);
