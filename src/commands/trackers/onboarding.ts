// `partner trackers onboarding` (run: ./tracker.run.ts).
import { trackerCommand } from './tracker.js';

export const onboarding = trackerCommand('onboarding', {
  summary: 'the onboarding stage of each employee currently onboarding',
  details: `Only employees currently in onboarding are listed. JSON is the server's array; CSV has the columns id, employeeCode, stage.`,
  examples: [
    'partner trackers onboarding',
    'partner trackers onboarding --employee-code ACME-00003 -o json',
    `partner trackers onboarding --jq '.[] | select(.stage == "DOCUMENTS_PENDING") | .employeeCode'`,
    'partner trackers onboarding -q | xargs -n1 partner profile get',
  ],
});
