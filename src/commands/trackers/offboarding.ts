// `partner trackers offboarding` (run: ./tracker.run.ts).
import { trackerCommand } from './tracker.js';

export const offboarding = trackerCommand('offboarding', {
  summary: 'the offboarding stage and pending documents of each employee currently offboarding',
  details: `Only employees currently in offboarding are listed. The table shows pending documents as a count and their names ("2: Contract, ID copy"); JSON keeps the array; CSV joins the names with "; ".`,
  examples: [
    'partner trackers offboarding',
    'partner trackers offboarding -o csv > offboarding.csv',
    `partner trackers offboarding --jq '[.[] | select(.pendingDocuments | length > 0)] | length'`,
  ],
});
