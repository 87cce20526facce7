import { defineGroup } from '../../command.js';
import { discard } from './discard.js';
import { list } from './list.js';

export const drafts = defineGroup({
  name: 'drafts',
  summary: 'list and discard the saved drafts of `gp create` and `dynamic-details submit`',
  section: 'Onboarding',
  examples: ['partner drafts list', 'partner drafts discard 1a2b3c4d'],
  commands: [list, discard],
});
