/** Evidence selection: the public surface. See select.ts for the pipeline and packet.ts for its output. */
export { selectEvidence, DEFAULT_SELECTION_OPTIONS } from './select';
export type { SelectionInput, SelectionOptions } from './select';
export type { EvidencePacket, RationaleReport, TimedStage } from './packet';
export { outcomeOf, selectedDocIds } from './packet';
export type { AbortSignalLike, EvidenceLookup, SelectionStage } from './common';
export { SELECTION_STAGES } from './common';
export { poolCandidates, poolSize, DEFAULT_POOL_OPTIONS } from './pool';
export type { PoolOptions, PoolResult } from './pool';
export { rerankCandidates, structuredPassage, DEFAULT_RERANK_OPTIONS } from './rerank';
export type { CrossEncoder, RerankOptions, RerankResult } from './rerank';
export {
  applyPriors,
  applyFeedback,
  asksForEarlierVersion,
  createPriorState,
  parsePriorState,
  sourceLambda,
  documentLambda,
  MemoryPriorStore,
  DEFAULT_SOURCE_LAMBDAS,
  DEFAULT_PRIORS_OPTIONS,
  DEFAULT_FEEDBACK_OPTIONS,
  DEFAULT_SMOOTHING_OPTIONS,
} from './priors';
export type {
  Feedback,
  FeedbackOptions,
  PriorState,
  PriorStore,
  PriorsOptions,
  PriorsResult,
  SmoothingOptions,
} from './priors';
export {
  decomposeQuestion,
  makeRationale,
  termsOf,
  pairRationales,
  heuristicRationales,
  DEFAULT_DECOMPOSE_OPTIONS,
  DEFAULT_PAIRING_OPTIONS,
} from './rationales';
export type {
  Rationale,
  RationaleKind,
  RationaleSource,
  RationalePairing,
  DecomposeOptions,
  PairingOptions,
} from './rationales';
export { cutoffCandidates, findElbow, DEFAULT_CUTOFF_OPTIONS } from './cutoff';
export type { CutoffOptions, CutoffResult, CutoffRule } from './cutoff';
export { expandCandidates, DEFAULT_EXPAND_OPTIONS } from './expand';
export type { ExpandOptions, ExpandResult, ExpandMode } from './expand';
export { dedupCandidates, minhashSignature, minhashSimilarity, DEFAULT_DEDUP_OPTIONS } from './dedup';
export type { DedupOptions, DedupResult } from './dedup';
export { diversify, isSingleFactQuestion, DEFAULT_MMR_OPTIONS } from './mmr';
export type { MmrOptions, MmrResult, MmrMode } from './mmr';
export { packEvidence, evidenceBudget, estimateTokens, DEFAULT_PACK_OPTIONS } from './pack';
export type { PackOptions, PackResult, PackedSource, TokenCounter } from './pack';
