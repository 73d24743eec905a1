/** What tenancy offers the areas ranked above it (docs/architecture.md): they import this file, never the area's other files. */
export { findOrganisation, orgTimezone, scaleBarcodesOf, toOrganisation } from './organisations.queries.js';
export { type StoreChanges, findStore, findStoreByCode, insertStore, listActiveStores, toStore, updateStoreRow } from './stores.queries.js';
export { findOrgUser, findUserById, findUserByIdentifier, insertUser, permissionColumns, permsOf, toUser } from './users.queries.js';
export {
  bookerOf,
  type NamedShift,
  overseesShifts,
  pickShift,
  type ShiftBooker,
  type ShiftCandidate,
  shiftCandidates,
  shiftConflict,
  shiftFor,
  settleShift,
} from './shifts.queries.js';
