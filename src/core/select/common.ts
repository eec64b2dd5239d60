/**
 * What only the selection stages share: the work's name and the stage names in pipeline order.
 * The plumbing every stage shares (lookup, trace helpers, option checks, text utilities) lives in
 * util/stage.ts and is re-exported here for the selection stages.
 */
export * from '../util/stage';

/** What a cancelled selection says it stopped ("Evidence selection was cancelled."). */
export const SELECTION_WORK = 'Evidence selection';

/** Stage names as they appear in `TraceEntry.stage`, in pipeline order. */
export const SELECTION_STAGES = [
  'pool',
  'rerank',
  'subject',
  'priors',
  'cutoff',
  'expand',
  'dedup',
  'mmr',
  'pack',
  'outcome',
] as const;
export type SelectionStage = (typeof SELECTION_STAGES)[number];
