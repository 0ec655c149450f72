// Placeholder: implemented in library-stats.ts.
export {}
