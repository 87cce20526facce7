import { defineGroup } from '../../command.js';
import { list } from './list.js';

export const employees = defineGroup({
  name: 'employees',
  summary: 'search and export the employees of your company',
  section: 'Lookups',
  examples: ['partner employees list --status ACTIVE', 'partner employees list --all -o csv > employees.csv'],
  commands: [list],
});
