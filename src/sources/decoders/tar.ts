/**
 * A tar archive recognised by its content: POSIX ustar and GNU tar headers carry `ustar` at offset
 * 257 of the first 512-byte block (POSIX.1-2001 pax, "ustar Interchange Format"), so an archive is
 * opened as one whatever it is named (`artifacts`, `run.bin`, standard input).
 */
import type { Decoder } from './types.js';

const USTAR = [0x75, 0x73, 0x74, 0x61, 0x72];

export const tar: Decoder = {
  name: 'tar',
  magicLength: 262,
  magic: (head) => head.length >= 262 && USTAR.every((b, i) => head[257 + i] === b),
  suffixes: ['.tar'],
  archive: true,
};
