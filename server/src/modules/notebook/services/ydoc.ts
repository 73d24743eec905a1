/**
 * A note's body as a yjs document: the text lives in `doc.getText(NOTE_TEXT)`; the state is kept
 * base64-encoded. Text typed through REST becomes the smallest yjs edit (`textDiff`), so it merges
 * with what tills did offline instead of overwriting it.
 */
import { NOTE_MAX_CHARS, NOTE_TEXT, textDiff } from '@duka/shared';
import * as Y from 'yjs';
import { BusinessRuleError, ValidationError } from '../../../lib/errors.js';

export function loadDoc(state: string | null): Y.Doc {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, Buffer.from(state, 'base64'));
  return doc;
}

export const encodeDoc = (doc: Y.Doc): string => Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64');

export const docText = (doc: Y.Doc): string => doc.getText(NOTE_TEXT).toString();

/** Make the document's text `next` with one delete and one insert where it differs. */
export function setText(doc: Y.Doc, next: string): void {
  const text = doc.getText(NOTE_TEXT);
  const edit = textDiff(text.toString(), next);
  if (edit.remove === 0 && edit.insert === '') return;
  doc.transact(() => {
    if (edit.remove) text.delete(edit.index, edit.remove);
    if (edit.insert) text.insert(edit.index, edit.insert);
  });
}

/** Merge a till's yjs update (base64). */
export function mergeUpdate(doc: Y.Doc, update: string, field = 'update'): void {
  const bytes = Buffer.from(update, 'base64');
  try {
    Y.applyUpdate(doc, bytes);
  } catch {
    throw new ValidationError(field, 'is not a yjs update');
  }
  if (docText(doc).length > NOTE_MAX_CHARS)
    throw new BusinessRuleError(`a note holds at most ${NOTE_MAX_CHARS} characters`, 'BUSINESS_RULE', 'content');
}
