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
 *
 * Hidden text: mammoth does not read `w:vanish` (Word's hidden-text formatting) and would write
 * vanished runs as ordinary text. A run with `w:vanish` or `w:specVanish`, or a white
 * (`w:color FFFFFF`) run with no shading or highlight of its own, gets a run style of ours
 * (`hiddenRuns`), the package is rebuilt around that document.xml (stored entries; only when such
 * a run exists), and the style map turns those runs into the classes `htmlToMarkdown` marks
 * hidden (`DOCX_HIDDEN_CLASS`). Hidden text set by a style definition, or white text on a shaded
 * paragraph or table cell, is not seen.
 */
import { Parser } from 'htmlparser2';
import { EvidentError } from '../core/errors';
import { htmlToMarkdown } from './html';
import { stripSentinels } from './hidden';
import { cleanMetadataTitle, normalizeDate } from './metadata';
import { newNormalizeStats, normalizeWarnings, plural } from './normalize';
import type { ParseProgress, ParseWarning, RawParse } from './types';
import {
  checkZipLimits,
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  readZipDirectory,
  verifyDeclaredSizes,
  storedZip,
  ZipEntryError,
  type ZipEntry,
  type ZipLimits,
} from './zip-guard';

export interface DocxOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: ParseProgress) => void;
  readonly zipLimits?: ZipLimits;
}

/** Run style ids given to hidden runs (never defined in the package: mammoth's warning about that is dropped). */
const HIDDEN_STYLE_ID = { vanish: 'EvidentHiddenVanish', white: 'EvidentHiddenWhite' } as const;

const RUN = /<w:r(?:\s[^>]*)?>[\s\S]*?<\/w:r>/g;
const RUN_PROPS = /<w:rPr>([\s\S]*?)<\/w:rPr>/;
const VANISH = /<w:(?:spec)?[vV]anish(?:\s+w:val="([^"]*)")?\s*\/>/;
const WHITE = /<w:color\s+(?:[^>]*\s)?w:val="(?:FFFFFF|ffffff)"/;
const BACKDROP = /<w:(?:shd|highlight)\b/;
const OFF = /^(?:0|false|off)$/i;

/** document.xml with each hidden run restyled (see the file comment), and how many there were. */
export function hiddenRuns(xml: string): { xml: string; count: number } {
  let count = 0;
  const out = xml.replace(RUN, (run) => {
    const props = RUN_PROPS.exec(run);
    if (props === null) return run;
    const p = props[1] as string;
    const vanish = VANISH.exec(p);
    const kind =
      vanish !== null && !OFF.test(vanish[1] ?? '') ? 'vanish' : WHITE.test(p) && !BACKDROP.test(p) ? 'white' : null;
    if (kind === null) return run;
    count++;
    const restyled = `<w:rPr><w:rStyle w:val="${HIDDEN_STYLE_ID[kind]}"/>${p.replace(/<w:rStyle\b[^>]*\/>/g, '')}</w:rPr>`;
    return run.slice(0, props.index) + restyled + run.slice(props.index + props[0].length);
  });
  return { xml: out, count };
}

/** The package mammoth reads: as given, or rebuilt around a document.xml with hidden runs restyled. */
async function withHiddenRunsStyled(bytes: Uint8Array, entries: readonly ZipEntry[]): Promise<Uint8Array> {
  const main = entries.find((e) => e.name === 'word/document.xml');
  if (main === undefined) return bytes;
  const xml = new TextDecoder('utf-8').decode(await inflateEntry(bytes, main));
  if (!VANISH.test(xml) && !WHITE.test(xml)) return bytes;
  const styled = hiddenRuns(xml);
  if (styled.count === 0) return bytes;
  const enc = new TextEncoder();
  const parts: { name: string; data: Uint8Array }[] = [];
  for (const e of entries) {
    if (e.name.endsWith('/')) continue;
    // Images and other binary parts are never read by mammoth here (see the file comment): left empty.
    const data =
      e === main ? enc.encode(styled.xml) : readByMammoth(e) ? await inflateEntry(bytes, e) : new Uint8Array(0);
    parts.push({ name: e.name, data });
  }
  return storedZip(parts);
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
  // Runs `hiddenRuns` restyled: mammoth writes them as spans `htmlToMarkdown` marks hidden.
  `r.${HIDDEN_STYLE_ID.vanish} => span.evident-hidden-vanish`,
  `r.${HIDDEN_STYLE_ID.white} => span.evident-hidden-white`,
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

  let pkg: Uint8Array;
  try {
    pkg = await withHiddenRunsStyled(bytes, dir.entries);
  } catch (err) {
    if (err instanceof ZipEntryError) throw notDocx(`the package is damaged (${err.message})`);
    throw err;
  }
  if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');
  const mammoth = await loadMammoth();
  const copy: Uint8Array<ArrayBuffer> = pkg === bytes ? bytes.slice() : new Uint8Array(pkg);
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
    // mammoth's own messages are parser internals ("[xmldom error] element parse error … line:undefined"):
    // the user is told what is wrong with the file, not what the XML library said (found by `npm run fuzz`).
    throw notDocx(
      /xml|parse|attribute|tag|entity|unexpected|end of/i.test(message)
        ? 'the Word XML inside it is damaged'
        : 'its contents are damaged and could not be read',
    );
  }
  if (signal?.aborted) throw new EvidentError('aborted', 'Reading the file was cancelled.');
  onProgress?.({ phase: 'convert', done: 1, total: 2 });

  const stats = newNormalizeStats();
  // The document's own text may not carry marks (hidden.ts); mammoth's HTML is all document text here.
  const x = htmlToMarkdown(stripSentinels(result.value), { preferMain: false, stats, docxClasses: true });
  onProgress?.({ phase: 'convert', done: 2, total: 2 });

  const warnings: ParseWarning[] = [...x.warnings, ...normalizeWarnings(stats)];
  const notes = result.messages.filter(
    (m) => (m.type === 'warning' || m.type === 'error') && !m.message.includes('EvidentHidden'),
  );
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
