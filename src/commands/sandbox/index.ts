import { defineGroup } from '../../command.js';
import { emit } from './emit.js';
import { start } from './start.js';

export const sandbox = defineGroup({
  name: 'sandbox',
  summary: 'the embedded mock of the whole API, for demos, tests and integration work',
  section: 'Setup',
  examples: ['partner sandbox start --port 8080', 'partner --sandbox employees list'],
  commands: [start, emit],
});
