/**
 * TREC formats, so runs can be checked with trec_eval / pytrec_eval and fused with Pyserini:
 * - run lines `qid Q0 docid rank score tag` (whitespace separated, rank 1-based);
 * - qrels either as TREC lines `qid iter docid grade` or as the BEIR TSV with a header
 *   `query-id\tcorpus-id\tscore`.
 */
import { EvidentError } from '../errors';
import type { Hit } from '../types';
import type { Qrels, Run } from './metrics';

const WS = /\s+/;

/** Formats one query's hits (in the given order) as TREC run lines, ranks from 1. */
export function formatRunLines(qid: string, hits: readonly Hit[], tag: string): string[] {
  if (WS.test(tag) || tag === '')
    throw new EvidentError('invalid_input', `trec: run tag must be one non-empty word, got "${tag}".`);
  return hits.map((h, i) => {
    if (WS.test(h.id) || WS.test(qid))
      throw new EvidentError('invalid_input', `trec: ids cannot contain whitespace ("${qid}", "${h.id}").`);
    return `${qid} Q0 ${h.id} ${i + 1} ${h.score.toFixed(6)} ${tag}`;
  });
}

/** Formats a whole run (queries in insertion order) as a TREC run file with a trailing newline. */
export function formatRun(run: Run, tag: string): string {
  const lines: string[] = [];
  for (const [qid, hits] of run) lines.push(...formatRunLines(qid, hits, tag));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Parses a TREC run file. Hits keep the file's order within a query; blank lines are skipped. */
export function parseRun(text: string): Map<string, Hit[]> {
  const run = new Map<string, Hit[]>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const cols = line.trim().split(WS);
    const score = Number(cols[4]);
    if (cols.length !== 6 || !Number.isFinite(score)) {
      throw new EvidentError(
        'invalid_input',
        `trec: run line ${i + 1} is not "qid Q0 docid rank score tag": "${line}".`,
      );
    }
    const qid = cols[0] as string;
    let hits = run.get(qid);
    if (!hits) run.set(qid, (hits = []));
    hits.push({ id: cols[2] as string, score });
  });
  return run;
}

/**
 * Parses qrels: BEIR TSV (`query-id corpus-id score`, header optional) or TREC
 * (`qid iter docid grade`). A repeated (qid, docid) pair keeps the last grade.
 */
export function parseQrels(text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const cols = line.trim().split(WS);
    if (i === 0 && cols[0] === 'query-id') return;
    let qid: string;
    let docid: string;
    let grade: number;
    if (cols.length === 3) [qid, docid, grade] = [cols[0] as string, cols[1] as string, Number(cols[2])];
    else if (cols.length === 4) [qid, docid, grade] = [cols[0] as string, cols[2] as string, Number(cols[3])];
    else
      throw new EvidentError(
        'invalid_input',
        `trec: qrels line ${i + 1} has ${cols.length} columns, expected 3 (BEIR) or 4 (TREC).`,
      );
    if (!Number.isInteger(grade))
      throw new EvidentError('invalid_input', `trec: qrels line ${i + 1} has a non-integer grade: "${line}".`);
    let judged = qrels.get(qid);
    if (!judged) qrels.set(qid, (judged = new Map()));
    judged.set(docid, grade);
  });
  return qrels;
}

/** Formats qrels as TREC lines `qid 0 docid grade`. */
export function formatQrels(qrels: Qrels): string {
  const lines: string[] = [];
  for (const [qid, judged] of qrels) for (const [docid, grade] of judged) lines.push(`${qid} 0 ${docid} ${grade}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
