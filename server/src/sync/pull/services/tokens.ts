/**
 * The opaque strings a till sends back. A pull cursor is base64url JSON `{ o: org id, v: version }`:
 * forging one can only move the caller within its own organisation's feed, and it survives a change
 * of the server secret. A bootstrap page token also carries the snapshot's shape and is signed (a
 * truncated HMAC), so any edit is caught. Both answer one message for every kind of bad input, so a
 * rejected string reveals nothing about whose it was.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../../lib/context.js';
import { safeEqual } from '../../../lib/crypto.js';
import { ValidationError } from '../../../lib/errors.js';

const B64URL = /^[A-Za-z0-9_-]+$/;

function decodeJson(text: string): unknown {
  if (!B64URL.test(text)) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
const encodeJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const CursorBody = z.object({ o: z.string().min(1), v: z.int().min(0) }).strict();

export function encodeCursor(orgId: string, version: number): string {
  return encodeJson({ o: orgId, v: version });
}

/** The version a cursor stands for; 400 `cursor` for garbage or another organisation's cursor. */
export function decodeCursor(cursor: string | undefined, orgId: string): number {
  if (cursor === undefined || cursor === '') return 0;
  const parsed = CursorBody.safeParse(decodeJson(cursor));
  if (!parsed.success || parsed.data.o !== orgId)
    throw new ValidationError('cursor', 'is not a valid sync cursor; pull without one or bootstrap again');
  return parsed.data.v;
}

/** Where a bootstrap stands: snapshot version, next kind, last id sent in it, total, transaction window. */
export interface PagePosition {
  /** The organisation's version when the snapshot began. */
  v: number;
  /** Index into BOOTSTRAP_KINDS. */
  k: number;
  /** Last id sent of kind `k`; null to start the kind. */
  a: string | null;
  /** Rows in the snapshot, counted on the first page. */
  t: number;
  /** Transactions created at or after this instant (epoch ms) are in the snapshot. */
  s: number;
}

const PageBody = z
  .object({ o: z.string().min(1), v: z.int().min(0), k: z.int().min(0), a: z.string().max(100).nullable(), t: z.int().min(0), s: z.int() })
  .strict();

const mac = (ctx: ServiceContext, payload: string) => ctx.keys.digest(`sync-bootstrap-page:${payload}`).slice(0, 22);

export function encodePageToken(ctx: ServiceContext, orgId: string, pos: PagePosition): string {
  const payload = encodeJson({ o: orgId, ...pos });
  return `${payload}.${mac(ctx, payload)}`;
}

/** 400 `page_token` for anything this server did not issue to this organisation. */
export function decodePageToken(ctx: ServiceContext, token: string, orgId: string, kinds: number): PagePosition {
  const bad = () => new ValidationError('page_token', 'is not a valid page token; start the bootstrap again without one');
  const [payload, sig, ...rest] = token.split('.');
  if (!payload || !sig || rest.length || !safeEqual(sig, mac(ctx, payload))) throw bad();
  const parsed = PageBody.safeParse(decodeJson(payload));
  if (!parsed.success || parsed.data.o !== orgId || parsed.data.k >= kinds) throw bad();
  const { o: _org, ...pos } = parsed.data;
  return pos;
}
