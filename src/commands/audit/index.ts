import { defineGroup } from '../../command.js';
import { list } from './list.js';

export const audit = defineGroup({
  name: 'audit',
  summary: 'the local audit log of every write partner sent from this machine',
  section: 'Setup',
  examples: ['partner audit list --since 7d'],
  commands: [list],
});
