/** Deterministic identifiers for the model: digests, commits and UIDs derived from names, never random. */
import { createHash } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export function md5Hex(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** A UUID-shaped id derived from `text` (same text, same uid, in every run). */
export function uidFor(text: string): string {
  const h = md5Hex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
