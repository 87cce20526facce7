// The rows' own JSON text: kept where pages are parsed (json/raw-rows.ts), re-exported for the writer.
export { rawRows, rememberRawRows } from '../json/raw-rows.js';
