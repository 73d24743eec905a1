/**
 * Base64 over `atob`/`btoa`, which browsers and Node (≥ 16) both have, instead of Node's `Buffer`:
 * the till's core runs in a browser too. Used for yjs updates (standard alphabet) and to read a
 * token's claims (URL alphabet).
 */

/** Bytes to standard base64, as the server's `Buffer.toString('base64')` writes it. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: spreading a whole large update into fromCharCode would overflow the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Standard or URL-alphabet base64, padded or not, to bytes. */
export function fromBase64(text: string): Uint8Array {
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(std.padEnd(std.length + ((4 - (std.length % 4)) % 4), '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
