/** What pharmacy offers the areas ranked above it (docs/architecture.md): they import this file, never pharmacy's own. */
export { sameLotNumber } from './batches.queries.js';
export { adjustBatch } from './services/batch-adjust.js';
export {
  addAddoMedicine,
  correctAddoMedicine,
  listAddoHistory,
  listAddoMedicinesForAdmin,
  removeAddoMedicine,
} from './services/addo-list.js';
export { type BatchMoveOf, UNALLOCATED_LOT, lockStock, moveBatches, unallocatedRow } from './services/batch-ledger.js';
export { returnSaleLots } from './services/dispense.js';
export { addoPermitted, checkDispensing } from './services/dispensing-checks.js';
export { recordPrescriptionEntry } from './services/prescription-register.js';
export { type LotLine, receiveLot, returnLot } from './services/receive-lots.js';
