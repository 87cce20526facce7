// What the forms use of a command's context. The context (context.ts) stands
// above forms/ and satisfies this; forms name only the parts they touch.
import type { ErrorFormat } from '../output/error-format.js';
import type { Colors } from '../output/colors.js';
import type { RunBasics } from '../run-basics.js';

export interface FormContext extends Pick<RunBasics, 'io' | 'signal' | 'clock' | 'log' | 'globals'> {
  /** How this run's errors are printed: text, or one JSON object. */
  errors: ErrorFormat;
  /** Colours for what goes to stderr (prompts, notes, messages). */
  errColors: Colors;
}
