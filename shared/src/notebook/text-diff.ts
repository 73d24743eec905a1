/**
 * The smallest single edit that turns `before` into `after`: keep the common prefix and suffix,
 * delete what lies between in `before`, insert what lies between in `after`. Positions are UTF-16
 * code units (what Y.Text counts), never splitting a surrogate pair. Server and till both turn a
 * whole new text into a yjs edit with it, so an edit touches only what the user changed.
 */
export interface TextEdit {
  index: number;
  remove: number;
  insert: string;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

export function textDiff(before: string, after: string): TextEdit {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // Do not end the prefix between the two halves of a surrogate pair.
  if (start > 0 && isHigh(before.charCodeAt(start - 1))) start--;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  if (end > 0 && isLow(before.charCodeAt(before.length - end))) end--;
  return { index: start, remove: before.length - start - end, insert: after.slice(start, after.length - end) };
}
