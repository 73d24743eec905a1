/**
 * A sale paid several ways (issue 51): the parts, each a method, an amount and (mobile money, Bank)
 * the reference from the customer's SMS or slip; what is left to pay, or the change the cash part
 * leaves; and why the sale cannot be charged yet. The figures are split.ts's (the shared rule).
 * A mobile-money part is never asked of the customer's phone: a push asks for a whole sale.
 */
import { formatTzs, type PaymentMethod } from '@duka/shared';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n.js';
import { addPart, MAX_PARTS, needsReference, partChoices, removePart, type SplitPart, type SplitState, setPart } from '../split.js';
import { html } from './html.js';

/** Why Enter in a part did not charge, in the till's language; null when the parts pay the sale. */
export function splitRefusal(state: SplitState, lines: number): string | null {
  if (lines === 0) return t('tender.enter_empty_cart');
  const { fault } = state;
  if (!fault) return null;
  if ('message' in fault) return t('split.enter_not', { why: fault.message });
  if (fault.key === 'split.left') return t('split.enter_left', { amount: formatTzs(state.left) });
  return t('split.enter_not', { why: t(fault.key) });
}

interface Props {
  parts: SplitPart[];
  state: SplitState;
  onParts: (parts: SplitPart[]) => void;
  /** Moves each time the tender's key (F8) is pressed: the cash part's amount (the first part's, with no cash part) takes the focus, its figure selected. */
  focus: number;
  /** Enter in a part's amount or reference: charge, if the parts pay the sale. */
  onEnter: () => void;
  /** Why the last Enter did not charge. */
  why: string | null;
}

export function SplitPanel({ parts, state, onParts, focus, onEnter, why }: Props) {
  const { fault } = state;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus === 0) return;
    const at = Math.max(
      0,
      parts.findIndex((p) => p.method === 'Cash'),
    );
    const amount = box.current?.querySelectorAll<HTMLInputElement>('[data-testid=split-amount]')[at];
    amount?.focus();
    amount?.select();
  }, [focus]);
  const key = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    onEnter();
  };
  return html`
    <div class="split" data-testid="split" ref=${box}>
      <p class="split-title">${t('split.title')}</p>
      ${parts.map(
        (p, i) => html`
          <div class="split-part" key=${i} data-testid="split-part" data-method=${p.method}>
            <select aria-label=${t('split.method')} data-testid="split-method" value=${p.method}
              onChange=${(e: any) => onParts(setPart(parts, i, { method: e.currentTarget.value as PaymentMethod }))}>
              ${partChoices(parts, i).map((m) => html`<option key=${m} value=${m}>${t(`pay.method.${m}`)}</option>`)}
            </select>
            <input aria-label=${t('split.amount')} data-testid="split-amount" inputmode="decimal" autocomplete="off" value=${p.amount} onKeyDown=${key}
              onInput=${(e: any) => onParts(setPart(parts, i, { amount: e.currentTarget.value }))} />
            ${parts.length > 1 ? html`<button type="button" class="remove" aria-label=${t('split.remove')} data-testid="split-remove" onClick=${() => onParts(removePart(parts, i))}>×</button>` : null}
            ${
              needsReference(p.method)
                ? html`<input class="split-reference" data-testid="split-reference" placeholder=${t('pay.reference')} aria-label=${t('pay.reference')} value=${p.reference} onKeyDown=${key}
                  onInput=${(e: any) => onParts(setPart(parts, i, { reference: e.currentTarget.value }))} />`
                : null
            }
          </div>
        `,
      )}
      ${parts.length < MAX_PARTS ? html`<button type="button" data-testid="split-add" onClick=${() => onParts(addPart(parts))}>${t('split.add')}</button>` : null}
      <p class=${state.left > 0 ? 'error' : 'change'} data-testid="split-left" data-cents=${Math.max(0, state.left)}>
        ${
          state.left > 0
            ? t('split.left', { amount: formatTzs(state.left) })
            : state.change
              ? t('tender.change', { amount: formatTzs(state.change) })
              : t('split.covered')
        }
      </p>
      ${
        fault && !('key' in fault && fault.key === 'split.left')
          ? html`<p class="error" data-testid="split-fault">${'key' in fault ? t(fault.key) : fault.message}</p>`
          : null
      }
      ${why ? html`<p class="error" role="alert" data-testid="split-why">${why}</p>` : null}
    </div>
  `;
}
