import { Chalk } from 'chalk';
import type { IO } from '../io.js';
import { wrapMessage } from '../text/wrap.js';

export interface Colors {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

/** Colour helpers that are plain identity functions when colour is off. */
export function colors(enabled: boolean): Colors {
  const chalk = new Chalk({ level: enabled ? 1 : 0 });
  return {
    bold: (s) => chalk.bold(s),
    dim: (s) => chalk.dim(s),
    red: (s) => chalk.red(s),
    green: (s) => chalk.green(s),
    yellow: (s) => chalk.yellow(s),
    cyan: (s) => chalk.cyan(s),
  };
}

/** The one warning line on stderr (coloured by whether stderr is a terminal): the logger's and the output layer's. */
export function writeWarning(io: Pick<IO, 'stderr' | 'stderrColor' | 'stderrColumns'>, message: string): void {
  io.stderr.write(`${wrapMessage(`${colors(io.stderrColor).yellow('warning:')} ${message}`, io.stderrColumns)}\n`);
}
