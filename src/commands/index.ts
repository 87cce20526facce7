// Every top-level entry of `partner`, with its place in the help. Adding a
// command: a definition file (flags, help) and a run module beside it, listed
// in its group's index.ts.
import type { TopLevel } from '../command.js';
import { api } from './api/api.js';
import { mcp } from './mcp/mcp.js';
import { audit } from './audit/index.js';
import { auth } from './auth/index.js';
import { complete, completion } from './completion/completion.js';
import { doctor } from './doctor/doctor.js';
import { dynamicDetails } from './dynamic-details/index.js';
import { drafts } from './drafts/index.js';
import { employees } from './employees/index.js';
import { gp } from './gp/index.js';
import { profile } from './profile/index.js';
import { sandbox } from './sandbox/index.js';
import { trackers } from './trackers/index.js';
import { version } from './version/version.js';
import { webhook } from './webhook/index.js';

export const TOP_LEVEL: TopLevel[] = [
  employees,
  trackers,
  profile,
  gp,
  dynamicDetails,
  drafts,
  webhook,
  { ...api, section: 'Scripting' },
  { ...mcp, section: 'Scripting' },
  auth,
  audit,
  { ...doctor, section: 'Setup' },
  sandbox,
  { ...completion, section: 'Setup' },
  { ...version, section: 'Setup' },
  { ...complete, section: 'Setup' },
];
