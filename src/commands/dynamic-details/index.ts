import { defineGroup } from '../../command.js';
import { submit } from './submit.js';

export const dynamicDetails = defineGroup({
  name: 'dynamic-details',
  summary: "submit the dynamic sections of a GP employee's form (legal details, custom fields)",
  section: 'Onboarding',
  examples: ['partner dynamic-details submit ACME-00042', 'partner dynamic-details submit ACME-00042 --from-file legal.json --dry-run'],
  commands: [submit],
});
