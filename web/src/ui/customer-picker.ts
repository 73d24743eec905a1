/** Choosing who a credit sale goes to: customers by name or phone, each with what they owe now. */
import type { Till } from '@duka/client-sdk';
import type { Customer } from '@duka/shared';
import { useState } from 'preact/hooks';
import { tzs } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from './hooks.js';
import { html } from './html.js';

export function owes(c: Customer): string {
  return c.outstanding_balance > 0 ? t('customers.owes', { amount: tzs(c.outstanding_balance) }) : t('customers.owes_nothing');
}

export function CustomerPicker({
  till,
  version,
  selected,
  onSelect,
}: {
  till: Till;
  version: number;
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const [search, setSearch] = useState('');
  const customers = useLoad(
    () => till.customers({ search: search.trim() || undefined, limit: 20 }),
    [till, search, version],
    [] as Customer[],
  );
  return html`
    <div class="customer-picker" data-testid="customer-picker">
      <input type="search" data-testid="customer-picker-search" placeholder=${t('customers.search')} value=${search} onInput=${(e: any) => setSearch(e.currentTarget.value)} />
      <ul>
        ${customers.map(
          (c) => html`
            <li key=${c.id}>
              <button class=${c.id === selected ? 'selected' : ''} data-testid="customer-option" data-customer-id=${c.id} aria-pressed=${c.id === selected}
                onClick=${() => onSelect(c.id === selected ? null : c.id)}>
                <span class="name">${c.name}</span>
                <span class=${`balance ${c.outstanding_balance > 0 ? 'owing' : ''}`} data-testid="customer-balance">${owes(c)}</span>
              </button>
            </li>
          `,
        )}
      </ul>
    </div>
  `;
}
