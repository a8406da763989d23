import type { Command } from '@commander-js/extra-typings';
import type { ExitBox } from './main.js';

// Placeholder until the simulate command lands; it is owned by its own issue.
export function registerSimulate(program: Command, _exit: ExitBox): void {
  void program;
}
