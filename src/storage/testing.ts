/**
 * Records the storage tests write (not shipped: only tests import this file): a document record,
 * its chunks (valid for the export format: offsets, links, hash) and a queued text.
 */
import type { DocumentRecord } from '../core/library-format';
import type { Chunk } from '../core/types';
import { fnv1a64 } from '../core/util/hash';
import type { QueueEntry } from './schema';

/** A document record as Evident writes it; `extra` overrides any field. */
export function documentRecord(
  id: string,
  chunkCount: number,
  addedAt = 1000,
  extra: Partial<DocumentRecord> = {},
): DocumentRecord {
  return {
    id,
    title: `Doc ${id}`,
    sourceType: 'internal_policy',
    status: 'current',
    fileName: `${id}.md`,
    format: 'markdown',
    size: 10,
    bytesHash: fnv1a64(id).repeat(4),
    addedAt,
    updatedAt: addedAt,
    chunkCount,
    pageCount: null,
    vectorState: 'pending',
    ...extra,
  };
}

/** `count` chunks of a document in reading order, linked to each other, with the text `text(i)`. */
export function chunksOf(
  docId: string,
  count: number,
  text: (ordinal: number) => string = (i) => `chunk ${i} of ${docId} about remote work`,
): Chunk[] {
  let at = 0;
  return Array.from({ length: count }, (_, i) => {
    const body = text(i);
    const c: Chunk = {
      id: `${docId}#${i}`,
      docId,
      ordinal: i,
      text: body,
      headings: ['H'],
      start: at,
      end: at + body.length,
      prevId: i > 0 ? `${docId}#${i - 1}` : null,
      nextId: i < count - 1 ? `${docId}#${i + 1}` : null,
      hash: fnv1a64(body),
      tokens: 7,
    };
    at += body.length + 2;
    return c;
  });
}

/** A queued text file whose title is the id in capitals and whose text is the id. */
export function queueEntry(docId: string): QueueEntry {
  return {
    docId,
    title: docId.toUpperCase(),
    fileName: `${docId}.txt`,
    source: { kind: 'text', text: docId, format: 'text' },
    queuedAt: 1,
  };
}
