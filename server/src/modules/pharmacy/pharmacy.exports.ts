/** What pharmacy offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { sameLotNumber } from './lots/batches.queries.js';
export { dispensedLots, type SaleLot, saleTookLots } from './lots/sale-lots.queries.js';
export { adjustBatch } from './lots/batch-adjust.js';
export {
  addAddoMedicine,
  correctAddoMedicine,
  listAddoHistory,
  listAddoMedicinesForAdmin,
  removeAddoMedicine,
} from './addo/addo-list.js';
export { type BatchMoveOf, UNALLOCATED_LOT, lockStock, moveBatches, unallocatedRow } from './lots/batch-ledger.js';
export { returnSaleLots } from './lots/dispense.js';
export { addoPermitted, checkDispensing } from './addo/dispensing-checks.js';
export { pharmacySalePolicy } from './selling/sale-policy.js';
export type { LotsTaken, LotsWanted } from './lots/take-sale-lots.js';
export { recordPrescriptionEntry } from './prescriptions/prescription-register.js';
export { type LotLine, receiveLot, returnLot } from './lots/receive-lots.js';

// For the server's wiring (app.ts, background-jobs.ts, index.ts, backups.ts, cli/) and sync/: the router, jobs and ports.
export { pharmacyRouter } from './pharmacy.index.js';
export { ADDO_STATE_ID } from './addo/addo.queries.js';
export { tillBatches, toBatch } from './lots/batches.queries.js';
export { type ExpiryJobState, expiryJobState, runExpiryJob } from './lots/expiry-job.js';
