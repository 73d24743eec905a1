/**
 * Reports: generate one (table, chart, CSV), past reports, then for the owner the analytics and
 * the scheduled reports, and the assistant for whoever may ask it. Each part shows only when the
 * signed-in user may call the routes behind it (access.ts); this module alone loads uPlot.
 */
import type { ReportExport, ReportTypeInfo } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import type { ApiError } from '../../api.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { useList } from '../../ui/list.js';
import { Analytics } from './analytics.js';
import { Assistant } from './assistant.js';
import { Exports } from './exports.js';
import { Generate, readTypes } from './generate.js';
import { t } from './messages.js';
import { Scheduled } from './scheduled.js';

/** Read again whenever a report is made (its key changes). */
function PastExports() {
  const list = useList<ReportExport>('/reports/exports', { limit: 20 });
  return html`<${Exports} rows=${list.rows} error=${list.error} />`;
}

export function Screen() {
  const [types, setTypes] = useState<ReportTypeInfo[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [made, setMade] = useState(0);
  useEffect(() => {
    readTypes().then(setTypes, setError);
  }, []);
  return html`<section class="reports">
    <header class="screen-head"><h1>${t('title')}</h1></header>
    <${ErrorBanner} error=${error} />
    ${
      types
        ? html`<${Generate} types=${types} onMade=${() => setMade((n) => n + 1)} />
      ${may('GET /reports/exports') ? html`<${PastExports} key=${made} />` : null}
      ${may('GET /analytics/overview') ? html`<${Analytics} />` : null}
      ${may('POST /ai/chat') ? html`<${Assistant} />` : null}
      ${may('GET /reports/scheduled') ? html`<${Scheduled} types=${types} />` : null}`
        : error
          ? null
          : html`<p>${core('loading')}</p>`
    }
  </section>`;
}
