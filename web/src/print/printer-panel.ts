/**
 * The printer settings: connect a thermal printer (serial, USB or Bluetooth LE, as the browser
 * offers them), the paper width, forget the printer. Opened from the top bar or the receipt.
 */
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { signal } from '../signal.js';
import { useSignal } from '../ui/hooks.js';
import { html } from '../ui/html.js';
import { PAPER_WIDTHS } from './paper.js';
import {
  canConnect,
  connectPrinter,
  forgetPrinter,
  PRINTER_KINDS,
  PrinterError,
  type PrinterKind,
  printerSettings,
  setPaperWidth,
} from './printer.js';

export const printerPanelOpen = signal(false);

/** A printer problem in the cashier's words. */
export function printerErrorText(e: unknown): string {
  if (e instanceof PrinterError) return t(e.key, e.params);
  return t('printer.failed', { message: e instanceof Error ? e.message : String(e) });
}

export function PrinterButton() {
  const { printer } = useSignal(printerSettings);
  return html`<button data-testid="printer-open" data-paired=${printer ? 'yes' : 'no'} onClick=${() => printerPanelOpen.set(true)}>${t('printer.button')}</button>`;
}

export function PrinterPanel() {
  const open = useSignal(printerPanelOpen);
  const { width, printer } = useSignal(printerSettings);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!open) return null;

  const connect = async (kind: PrinterKind) => {
    setBusy(true);
    setError(null);
    try {
      await connectPrinter(kind);
    } catch (e) {
      setError(printerErrorText(e));
    } finally {
      setBusy(false);
    }
  };
  const close = () => (setError(null), printerPanelOpen.set(false));

  return html`
    <div class="overlay no-print" data-testid="printer-panel">
      <div class="sheet printer-panel">
        <h2>${t('printer.title')}</h2>
        <p data-testid="printer-status">${printer ? t('printer.paired', { name: printer.name }) : t('printer.none')}</p>
        <p>${t('printer.connect')}</p>
        <div class="actions">
          ${PRINTER_KINDS.map(
            (kind) => html`<button key=${kind} data-testid="printer-connect" data-kind=${kind} disabled=${busy || !canConnect(kind)}
              class=${printer?.kind === kind ? 'selected' : ''} onClick=${() => connect(kind)}>${t(`printer.kind.${kind}`)}</button>`,
          )}
        </div>
        ${error ? html`<p class="error" data-testid="printer-error">${error}</p>` : null}
        <p>${t('printer.paper')}</p>
        <div class="actions">
          ${PAPER_WIDTHS.map(
            (w) => html`<button key=${w} data-testid="printer-width" data-width=${w} class=${w === width ? 'selected' : ''}
              onClick=${() => setPaperWidth(w)}>${t(`printer.paper.${w}`)}</button>`,
          )}
        </div>
        <div class="actions">
          ${printer ? html`<button data-testid="printer-forget" onClick=${() => void forgetPrinter()}>${t('printer.forget')}</button>` : null}
          <button class="primary" data-testid="printer-close" onClick=${close}>${t('printer.close')}</button>
        </div>
      </div>
    </div>
  `;
}
