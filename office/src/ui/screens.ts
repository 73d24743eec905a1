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
  { path: 'sales', name: 'nav.sales', route: 'GET /pos/transactions', load: () => import('../screens/sales/sales.js') },
  { path: 'products', name: 'nav.products', route: 'GET /inventory/products', load: () => import('../screens/products/products.js') },
  { path: 'stock', name: 'nav.stock', route: 'GET /inventory/transfers', load: () => import('../screens/stock/stock.js') },
  { path: 'suppliers', name: 'nav.suppliers', route: 'GET /suppliers', load: () => import('../screens/suppliers/suppliers.js') },
  { path: 'customers', name: 'nav.customers', route: 'GET /customers', load: () => import('../screens/customers/customers.js') },
  { path: 'expenses', name: 'nav.expenses', route: 'GET /expenses', load: () => import('../screens/expenses/expenses.js') },
  { path: 'shifts', name: 'nav.shifts', route: 'GET /pos/shifts', load: () => import('../screens/shifts/shifts.js') },
  { path: 'staff', name: 'nav.staff', route: 'GET /staff', load: () => import('../screens/staff/staff.js') },
  { path: 'stores', name: 'nav.stores', route: 'GET /stores', load: () => import('../screens/stores/stores.js') },
  { path: 'reports', name: 'nav.reports', route: 'GET /reports/types', load: () => import('../screens/reports/reports.js') },
  { path: 'settings', name: 'nav.settings', route: 'GET /accounts/organisation', load: () => import('../screens/settings/settings.js') },
];
