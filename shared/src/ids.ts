import { v7 } from 'uuid';

/**
 * A new id: a UUIDv7, whose leading bits are the creation time and which increases monotonically
 * within a process. Rows created in the same millisecond therefore sort in creation order, and
 * indexes on ids stay append-mostly. Tills use the same ids for their offline records.
 */
export const newId = (): string => v7();
