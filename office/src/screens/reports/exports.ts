/** Past reports (each generation is recorded by the server), newest first, each downloadable again byte for byte. */
import type { ReportExport } from '@duka/shared';
import { useState } from 'preact/hooks';
import { type ApiError, fetchAuthed } from '../../api.js';
import { num, when } from '../../i18n/lang.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { List } from '../../ui/list.js';
import { saveFile } from './generate.js';
import { t } from './messages.js';

export function Exports({ rows, error }: { rows: ReportExport[] | null; error: ApiError | null }) {
  const [failed, setFailed] = useState<ApiError | null>(null);
  const download = (x: ReportExport) =>
    fetchAuthed('GET', `/reports/exports/${x.id}/download`).then(
      (res) => saveFile(res, x.file_name),
      (e: ApiError) => setFailed(e),
    );
  return html`<section class="panel" data-testid="report-exports">
    <h2>${t('exports')}</h2>
    <${ErrorBanner} error=${error ?? failed} />
    ${
      rows
        ? html`<${List}
      testid="exports"
      rows=${rows}
      rowId=${(x: ReportExport) => x.id}
      columns=${[
        { label: t('exports.when'), cell: (x: ReportExport) => when(x.created_at) },
        { label: t('exports.file'), cell: (x: ReportExport) => x.file_name },
        { label: t('exports.size'), cell: (x: ReportExport) => `${num(Math.ceil(x.size / 1024))} kB`, num: true },
        {
          label: '',
          cell: (x: ReportExport) =>
            html`<button type="button" class="link" onClick=${() => download(x)} data-testid="export-download">${t('exports.download')}</button>`,
        },
      ]}
    />`
        : null
    }
  </section>`;
}
