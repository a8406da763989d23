import type { Command } from '@commander-js/extra-typings';
import type { ExitBox } from './main.js';

// Placeholder until the release command lands; it is owned by its own issue.
export function registerRelease(program: Command, _exit: ExitBox): void {
  void program;
}
