// The bulk flags' bounds, shared by the command definition (loaded for help
// and completion, so nothing heavy here) and the run.

/** Rows in flight with --concurrency: the default, and the ceiling. */
export const BULK_DEFAULT_CONCURRENCY = 4;
export const BULK_MAX_CONCURRENCY = 16;

/** --encoding of --from-csv: how the file's bytes are read. */
export const CSV_ENCODINGS = ['utf-8', 'windows-1252', 'latin1'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];
