import { defineGroup } from '../../command.js';
import { get } from './get.js';

export const profile = defineGroup({
  name: 'profile',
  summary: "read employees' profile sections (personal, bank, employment …)",
  section: 'Lookups',
  examples: ['partner profile get ACME-00007', 'partner profile get ACME-00007 personal employment -o json'],
  commands: [get],
});
