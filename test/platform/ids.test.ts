/** Ids (shared/src/ids.ts): UUIDv7 that sort in the order they were made, from a pool of random bytes (issue 53). */
import { newId } from '@duka/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The 48-bit millisecond an id carries. */
const msOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('newId', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes distinct version-7 ids that sort in the order they were made, many in one millisecond', () => {
    // More ids than one pool of random bytes holds (4 KB, 256 ids), all in the same millisecond.
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 29, 9, 30));
    const ids = Array.from({ length: 1_000 }, () => newId());
    expect(ids.every((id) => V7.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(1_000);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => msOf(id) === Date.UTC(2026, 10, 29, 9, 30))).toBe(true);
  });

  it('carries the time it was made, and keeps order when the clock moves on or back', () => {
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(Date.UTC(2026, 10, 29, 10));
    const first = newId();
    now.mockReturnValue(Date.UTC(2026, 10, 29, 10, 0, 1));
    const second = newId();
    // A clock stepped back (NTP): the id still sorts after the last one.
    now.mockReturnValue(Date.UTC(2026, 10, 29, 9, 59));
    const third = newId();
    expect(msOf(first)).toBe(Date.UTC(2026, 10, 29, 10));
    expect(msOf(second)).toBe(Date.UTC(2026, 10, 29, 10, 0, 1));
    expect(first < second && second < third).toBe(true);
  });
});
