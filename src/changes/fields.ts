// The fields a diff adds to each record (--fields may name them): here alone, so
// that the command definitions, loaded at every start, name them without
// loading the diff.
export const CHANGE_FIELDS = ['change', 'changedFields'] as const;
