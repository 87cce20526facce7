import { defineGroup } from '../../command.js';
import { offboarding } from './offboarding.js';
import { onboarding } from './onboarding.js';

export const trackers = defineGroup({
  name: 'trackers',
  summary: 'onboarding and offboarding stages of your employees',
  section: 'Lookups',
  examples: ['partner trackers onboarding', 'partner trackers offboarding -o json'],
  commands: [onboarding, offboarding],
});
