/** What credits offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { toCreditTab } from './credits.queries.js';
export { cancelCreditTab, newCreditTab, openCreditTabs, outstandingByCustomer, tabForTransaction } from './services/tabs.js';
