import { createRouter, type Router } from '../../lib/create-router.js';
import { collectionAccountsRouter } from './accounts/accounts.index.js';
import { receivedPaymentsRouter } from './inbox/inbox.index.js';
import { paymentRequestsRouter } from './requests/requests.index.js';

/** Mobile money into the shop's own accounts: the accounts, the pushes at checkout, and what the providers reported. */
export const paymentsRouter: Router = createRouter()
  .route('/', collectionAccountsRouter)
  .route('/', paymentRequestsRouter)
  .route('/', receivedPaymentsRouter);
