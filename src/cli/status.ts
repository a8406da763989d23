import type { Command } from '@commander-js/extra-typings';
import type { ExitBox } from './main.js';

// Placeholder until the status command lands; it is owned by its own issue.
export function registerStatus(program: Command, _exit: ExitBox): void {
  void program;
}
