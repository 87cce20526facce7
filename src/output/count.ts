// Counts in messages: below the output layer (text/count.ts), re-exported for its callers.
export { countOf, formatCount } from '../text/count.js';
