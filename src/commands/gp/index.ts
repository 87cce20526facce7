import { defineGroup } from '../../command.js';
import { create } from './create.js';
import { schema } from './schema.js';
import { template } from './template.js';

export const gp = defineGroup({
  name: 'gp',
  summary: "onboard Global Payroll (GP) employees from the server's form schema",
  section: 'Onboarding',
  examples: ['partner gp schema --entity "Acme Deutschland GmbH"', 'partner gp create --entity "Acme Deutschland GmbH"'],
  commands: [create, schema, template],
});
