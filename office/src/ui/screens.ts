/**
 * Every screen of the back office: where it lives, its name in the menu, the route whose access
 * decides who may open it (access.ts), and its module, loaded on first visit so the first load
 * is the shell and one screen. A screen's folder holds its whole story: its views, its words.
 */
import type { FunctionComponent } from 'preact';
import type { Route } from '../access.js';
import type { t } from '../i18n/core.js';

type NavKey = Parameters<typeof t>[0] & `nav.${string}`;

export interface ScreenDef {
  /** The first segment of the path: '' for Today, 'products' for /office/products and below. */
  path: string;
  name: NavKey;
  /** Who may open the screen: whoever may call this route. */
  route: Route;
  load: () => Promise<{ Screen: FunctionComponent<{ rest: string[] }> }>;
}

export const SCREENS: ScreenDef[] = [
  { path: '', name: 'nav.today', route: 'GET /pos/summary', load: () => import('../screens/today/today.js') },
  { path: 'stock', name: 'nav.stock', route: 'GET /inventory/transfers', load: () => import('../screens/stock/stock.js') },
  { path: 'suppliers', name: 'nav.suppliers', route: 'GET /suppliers', load: () => import('../screens/suppliers/suppliers.js') },
  { path: 'expenses', name: 'nav.expenses', route: 'GET /expenses', load: () => import('../screens/expenses/expenses.js') },
  { path: 'customers', name: 'nav.customers', route: 'GET /customers', load: () => import('../screens/customers/customers.js') },
];
