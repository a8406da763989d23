import type { Command } from '@commander-js/extra-typings';
import type { ExitBox } from './main.js';

export function registerAnalyze(program: Command, _exit: ExitBox): void {
  void program;
}
