/**
 * DOCX → structured text: the ZIP is inspected before anything is inflated (`zip-guard.ts`),
 * then mammoth converts the document to semantic HTML (headings, lists, tables, footnotes) and
 * `htmlToMarkdown` turns that into the Markdown-like text the chunker reads.
 *
 * mammoth is told never to read images (we index text; image bytes would be inflated and
 * base64-encoded for nothing) and never to follow external file links. Its input is given both
 * ways it accepts bytes: `arrayBuffer` (its browser build) and `buffer` (its Node build; JSZip
 * takes a Uint8Array there), so the same call works in the worker and in Node.
 *
 * Title, author, dates and language come from `docProps/core.xml`, inflated with a 1 MB cap.
 */
import { Parser } from 'htmlparser2';
import { EvidentError } from '../core/errors';
import { htmlToMarkdown } from './html';
import { cleanMetadataTitle, normalizeDate } from './metadata';
import { newNormalizeStats, normalizeWarnings, plural } from './normalize';
import type { ParseProgress, ParseWarning, RawParse } from './types';
import {
  checkZipLimits,
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  readZipDirectory,
  verifyDeclaredSizes,
  ZipEntryError,
  type ZipEntry,
  type ZipLimits,
} from './zip-guard';

export interface DocxOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: ParseProgress) => void;
  readonly zipLimits?: ZipLimits;
}

/**
 * Word's built-in styles that mammoth's default map leaves out. Headings 1–6, numbered and
 * bulleted lists (from numbering, at every level), tables and footnotes are in its defaults;
 * list styles are deliberately not mapped here, since a style mapping would override the
 * numbering and flatten nested lists. Common body styles map to plain paragraphs so they do not
 * produce "unrecognised style" warnings.
 */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  "p[style-name='Heading 7'] => h6:fresh",
  "p[style-name='Heading 8'] => h6:fresh",
  "p[style-name='Heading 9'] => h6:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  ...[
    'Body Text',
    'Body Text 2',
    'Body Text 3',
    'Body Text Indent',
    'No Spacing',
    'Normal (Web)',
    'Plain Text',
    'Caption',
    'Compact',
    'First Paragraph',
  ].map((name) => `p[style-name='${name}'] => p:fresh`),
];

const CORE_PROPERTIES = 'docProps/core.xml';
const CORE_MAX_BYTES = 1024 * 1024;

interface MammothMessage {
  readonly type: string;
  readonly message: string;
}
interface MammothLike {
  convertToHtml(
    input: { arrayBuffer: ArrayBuffer; buffer: Uint8Array },
    options: Record<string, unknown>,
  ): Promise<{ value: string; messages: readonly MammothMessage[] }>;
  images: { imgElement(f: (image: unknown) => Promise<{ src: string }>): unknown };
}

async function loadMammoth(): Promise<MammothLike> {
  const mod = (await import('mammoth')) as unknown as { default?: MammothLike } & MammothLike;
  return mod.default ?? mod;
}

function notDocx(detail: string): EvidentError {
  return new EvidentError(
    'not_docx',
    `This is not a Word .docx file: ${detail}. Open it in Word, save it as .docx, and add it again.`,
  );
}

interface CoreProperties {
  title?: string;
  author?: string;
  created?: string;
  modified?: string;
  language?: string;
  extra?: string;
}

/** dc:title, dc:creator, dcterms:created/modified, dc:language, dc:subject, cp:keywords. */
function readCoreProperties(xml: string): CoreProperties {
  const fields: Record<string, string> = {};
  let current: string | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        current = name.toLowerCase();
      },
      ontext(text) {
        if (current !== null) fields[current] = (fields[current] ?? '') + text;
      },
      onclosetag() {
        current = null;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  const get = (k: string): string | undefined => {
    const v = fields[k]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const extra = [get('dc:subject'), get('cp:keywords'), get('dc:description')].filter((s) => s !== undefined).join(' ');
  const out: CoreProperties = {};
  const title = cleanMetadataTitle(get('dc:title'));
  if (title !== undefined) out.title = title;
  const author = get('dc:creator');
  if (author !== undefined) out.author = author;
  const created = normalizeDate(get('dcterms:created'));
  if (created !== undefined) out.created = created;
  const modified = normalizeDate(get('dcterms:modified'));
  if (modified !== undefined) out.modified = modified;
  const language = get('dc:language');
  if (language !== undefined) out.language = language;
  if (extra !== '') out.extra = extra;
  return out;
}

/** Parts mammoth (through JSZip) inflates: XML and relationship files. Images are never read. */
function readByMammoth(e: ZipEntry): boolean {
  return /\.(?:xml|rels)$/i.test(e.name);
}

/** Reads a .docx. Throws `not_docx` or `zip_bomb` with plain messages. */
export async function parseDocx(bytes: Uint8Array, options: DocxOptions = {}): Promise<RawParse> {
  const { signal, onProgress } = options;
  const limits = options.zipLimits ?? DEFAULT_ZIP_LIMITS;
  const dir = readZipDirectory(bytes);
  if (!dir.ok) throw notDocx(`it is not a ZIP package (${dir.reason})`);
  if (dir.entries.length === 0) {
    throw new EvidentError(
      'not_docx',
      'This is not a Word .docx file: it is an empty ZIP archive with no document inside.',
    );
  }
  checkZipLimits(dir.entries, limits);
  for (const e of dir.entries) {
    if ((e.flags & 1) !== 0) throw notDocx('its parts are encrypted');
    if (e.method !== 0 && e.method !== 8) throw notDocx(`it uses a compression Word does not (method ${e.method})`);
  }
  if (!dir.entries.some((e) => e.name === 'word/document.xml' || /^word\/[^/]+\.xml$/.test(e.name))) {
    throw new EvidentError(
      'not_docx',
      'This is not a Word .docx file: the ZIP package has no Word document inside (word/document.xml is missing).',
    );
  }
  try {
    await verifyDeclaredSizes(bytes, dir.entries, readByMammoth, signal);
  } catch (err) {
    if (err instanceof ZipEntryError) throw notDocx(`the package is damaged (${err.message})`);
    throw err;
  }

  let core: CoreProperties = {};
  const coreEntry = dir.entries.find((e) => e.name === CORE_PROPERTIES);
  if (coreEntry !== undefined && coreEntry.uncompressedSize <= CORE_MAX_BYTES) {
    try {
      core = readCoreProperties(new TextDecoder('utf-8').decode(await inflateEntry(bytes, coreEntry)));
    } catch {
      core = {}; // metadata is optional; a damaged core.xml must not stop the text
    }
  }
  if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');

  const mammoth = await loadMammoth();
  const copy = bytes.slice();
  let result: { value: string; messages: readonly MammothMessage[] };
  try {
    result = await mammoth.convertToHtml(
      { arrayBuffer: copy.buffer, buffer: copy },
      {
        styleMap: STYLE_MAP,
        includeDefaultStyleMap: true,
        ignoreEmptyParagraphs: true,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
      },
    );
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    if (/main document part/i.test(message)) {
      throw new EvidentError('not_docx', 'This is not a Word .docx file: the package has no main Word document part.');
    }
    throw notDocx(`it could not be converted (${message})`);
  }
  if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');
  onProgress?.({ phase: 'convert', done: 1, total: 2 });

  const stats = newNormalizeStats();
  const x = htmlToMarkdown(result.value, { preferMain: false, stats });
  onProgress?.({ phase: 'convert', done: 2, total: 2 });

  const warnings: ParseWarning[] = [...x.warnings, ...normalizeWarnings(stats)];
  const notes = result.messages.filter((m) => m.type === 'warning' || m.type === 'error');
  if (notes.length > 0) {
    const distinct = [...new Set(notes.map((m) => m.message))];
    warnings.push({
      code: 'docx_conversion',
      message: `${notes.length} part${plural(notes.length)} of this document could not be converted exactly (${distinct.slice(0, 3).join('; ')}${distinct.length > 3 ? '; …' : ''}).`,
      count: notes.length,
    });
  }
  const title = core.title ?? x.title;
  return {
    format: 'docx',
    text: x.text,
    headings: x.headings,
    warnings,
    ...(title !== undefined ? { title } : {}),
    ...(core.author !== undefined ? { author: core.author } : {}),
    ...(core.created !== undefined ? { created: core.created } : {}),
    ...(core.modified !== undefined ? { modified: core.modified } : {}),
    ...(core.language !== undefined ? { language: core.language } : {}),
    ...(core.extra !== undefined ? { extra: core.extra } : {}),
  };
}
