/**
 * report/ turns a command's result into what the user reads: text for a terminal, JSON with a
 * versioned schema, JUnit for CI and the self-contained HTML page. Reporters format and never
 * compute; each command's record of reporters (formats.ts) gives its `-o` choices. The text toolkit
 * (colours, plurals, wrapping, tables) is shared by every text reporter, here and in other folders.
 */
export { type Colours, colours, plural, table, visibleLength, wrap } from './text.js';
