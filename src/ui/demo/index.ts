import type { AddDocumentInput } from '../../worker/api';
import { BLOG_FULLY_REMOTE } from './blog-fully-remote';
import { REMOTE_WORK_POLICY_V2 } from './remote-work-policy-v2';
import { REMOTE_WORK_POLICY_V3 } from './remote-work-policy-v3';
import { TRAVEL_EXPENSES_POLICY } from './travel-expenses-policy';

/**
 * The demo library the app ingests on first load: written for this project (no third-party text).
 * It is small on purpose but has the traps Evident exists for: a current policy, a superseded
 * version with different numbers (two days vs three, EUR 300 vs EUR 600), a blog post that
 * contradicts both, and an unrelated policy. Each carries the metadata selection reads: source
 * type (internal_policy λ 0.85, blog λ 0.5), status (current / superseded) and effective date.
 */
export const DEMO_DOCUMENTS: readonly AddDocumentInput[] = [
  {
    docId: 'demo-remote-work-v3',
    title: 'Remote Work Policy v3.0',
    text: REMOTE_WORK_POLICY_V3,
    format: 'markdown',
    sourceType: 'internal_policy',
    status: 'current',
    effectiveDate: '2025-03-01',
  },
  {
    docId: 'demo-remote-work-v2',
    title: 'Remote Work Policy v2.1',
    text: REMOTE_WORK_POLICY_V2,
    format: 'markdown',
    sourceType: 'internal_policy',
    status: 'superseded',
    effectiveDate: '2022-06-01',
  },
  {
    docId: 'demo-blog-fully-remote',
    title: 'Why we are going fully remote (blog)',
    text: BLOG_FULLY_REMOTE,
    format: 'markdown',
    sourceType: 'blog',
    status: 'current',
    effectiveDate: '2025-01-15',
  },
  {
    docId: 'demo-travel-expenses',
    title: 'Travel and Expenses Policy v1.4',
    text: TRAVEL_EXPENSES_POLICY,
    format: 'markdown',
    sourceType: 'internal_policy',
    status: 'current',
    effectiveDate: '2024-01-01',
  },
];

/** A question the demo can answer, shown as the search box's example. */
export const DEMO_QUERY = 'How many days a week can I work from home?';

/**
 * The question the Ask page starts with on the demo library: two aspects (rationales), each
 * answered by the current policy, while the superseded version states other figures and the
 * blog post contradicts both — so the answer and its evidence trail show selection at work.
 */
export const DEMO_QUESTION = 'How many days per week can I work remotely, and what is the home-office allowance?';
