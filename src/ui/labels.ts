/** Words the UI shows for the pipeline's codes. */
import type { DocumentFormat } from '../core/library-format';
import type { DocStatus, SourceType } from '../core/types';
import type { AskOutcome, FilePhase } from '../worker/ask-api';
import type { ProfileName } from '../models/manifest';

export const SOURCE_TYPE_LABEL: Readonly<Record<SourceType, string>> = Object.freeze({
  peer_reviewed: 'Peer-reviewed',
  government: 'Government',
  official_filing: 'Official filing',
  internal_policy: 'Internal policy',
  established_news: 'Established news',
  blog: 'Blog',
  user_generated: 'User-generated',
  ai_generated: 'AI-generated',
  unknown: 'Unknown',
});

export const STATUS_LABEL: Readonly<Record<DocStatus, string>> = Object.freeze({
  current: 'Current',
  superseded: 'Superseded',
  draft: 'Draft',
});

export const FORMAT_LABEL: Readonly<Record<DocumentFormat, string>> = Object.freeze({
  pdf: 'PDF',
  docx: 'Word',
  html: 'HTML',
  markdown: 'Markdown',
  text: 'Text',
});

export const PROFILE_LABEL: Readonly<Record<ProfileName, string>> = Object.freeze({
  embedded: 'Embedded',
  enhanced: 'Enhanced',
  tiny: 'Tiny test models',
});

export const OUTCOME_LABEL: Readonly<Record<AskOutcome, string>> = Object.freeze({
  supported: 'Supported',
  partial: 'Partially supported',
  conflict: 'The sources conflict',
  abstain: "The documents don't support an answer",
});

export const FILE_PHASE_LABEL: Readonly<Record<FilePhase, string>> = Object.freeze({
  parse: 'Reading the file',
  ocr: 'Reading scanned pages (OCR)',
  chunk: 'Splitting into chunks',
  index: 'Building the word index',
  embed: 'Meaning vectors',
  done: 'Done',
});

/** What each selection stage does, for the trail. */
export const STAGE_LABEL: Readonly<Record<string, string>> = Object.freeze({
  bm25: 'BM25',
  dense: 'Dense',
  fusion: 'Fusion',
  pool: 'Pool',
  rerank: 'Rerank',
  priors: 'Priors',
  subject: 'Subject',
  cutoff: 'Cutoff',
  expand: 'Expand',
  dedup: 'Dedup',
  mmr: 'Diversity (MMR)',
  verify: 'Verify',
  pack: 'Budget',
  outcome: 'Kept',
});

export function stageLabel(stage: string): string {
  return STAGE_LABEL[stage] ?? stage;
}
