/** What credits offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { outstandingByCustomer, toCreditTab } from './credits.queries.js';
export { cancelCreditTab, newCreditTab, openCreditTabs, tabForTransaction } from './services/tabs.js';
