/**
 * HTML → structured text with htmlparser2, a pure-JavaScript tokenizer: no DOM is ever created
 * from the document, so nothing in it can run or load (scripts, event handlers, `javascript:`
 * URLs, iframes, CSS imports are all just tokens here, and most are dropped unread).
 *
 * - Main content is preferred: the first `<main>` (or `role="main"`), else the top-level
 *   `<article>`s, else `<body>`; when the preferred region holds almost nothing, the body is used.
 * - Dropped with their content: script, style, noscript, template, iframe, object, embed, svg,
 *   canvas, form controls, nav, aside, media, `<head>` (its `<title>` and `<meta>` are read
 *   first), page-level header/footer (kept inside main/article, where they hold the article's
 *   title), `aria-hidden="true"` elements (decorative), and elements with malformed names such
 *   as `<scr<script>` (split-tag payloads).
 * - Kept but marked hidden (`hidden.ts`; the verifier never takes it as evidence): elements a
 *   reader never sees — the `hidden` attribute, and inline styles `display:none`,
 *   `visibility:hidden|collapse`, `opacity:0`, `font-size:0` (or under 2px), and off-screen
 *   positioning (`left`/`top`/`right`/`text-indent` of -500px or more). Styles from `<style>`
 *   sheets and classes are not read (no CSS engine here): a page that hides text by class is not caught.
 * - h1–h6 → `#` headings, lists → `- ` / `1. ` items (nested by indent), tables → `| a | b |`
 *   rows (nested tables flattened into their cell), `<pre>` → fenced code, `<br>` → line break.
 * - Entities are decoded by the tokenizer. Titles go through the same extraction, so a
 *   `<title>` holding markup yields its text only.
 *
 * The same converter reads mammoth's HTML for DOCX (`preferMain: false`).
 */
import { Parser } from 'htmlparser2';
import type { HiddenTextKind } from '../core/types';
import { HIDDEN_CLOSE, hiddenOpen, stripSentinels } from './hidden';
import { collapseSpaces, MarkdownBuilder } from './markdown-builder';
import { normalizeDate } from './metadata';
import { newNormalizeStats, normalizeText, normalizeWarnings, plural, type NormalizeStats } from './normalize';
import { decodeText } from './text';
import type { ParseWarning, RawParse } from './types';

interface El {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: Node[];
}
type Node = El | string;

/** Elements whose whole content is never text for the index. */
const DROP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'canvas',
  'form',
  'button',
  'select',
  'option',
  'optgroup',
  'textarea',
  'input',
  'datalist',
  'nav',
  'aside',
  'head',
  'audio',
  'video',
  'picture',
  'source',
  'track',
  'map',
  'area',
  'link',
  'meta',
  'base',
  'title',
  'img',
]);

/** Elements that end the current paragraph. */
const BLOCK = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'ol',
  'p',
  'section',
  'summary',
  'ul',
  'table',
  'tr',
  'td',
  'th',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

const VALID_NAME = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)?$/;
const HIDDEN_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0*(?:\.0*)?\s*(?:;|$|!))/i;
/** `font-size` of 0, or under 2px/2pt (unreadable). */
const TINY_STYLE =
  /(?:^|;)\s*font-size\s*:\s*(?:(?:0+(?:\.0*)?|\.0+)\s*(?:px|pt|em|rem|%|vw|vh)?|[01](?:\.\d*)?\s*(?:px|pt))\s*(?:;|$|!)/i;
/** Positioned 500px or more off the top or left edge (the classic off-screen hiding). */
const OFF_SCREEN_STYLE =
  /(?:^|;)\s*(?:left|top|right|text-indent|margin-left)\s*:\s*-\s*(?:[5-9]\d{2}|\d{4,})(?:\.\d+)?\s*(?:px|pt)?\s*(?:;|$|!)/i;
/** Classes the DOCX reader gives runs Word hides (`docx.ts`); read only in mammoth's HTML. */
export const DOCX_HIDDEN_CLASS: Readonly<Record<string, HiddenTextKind>> = Object.freeze({
  'evident-hidden-vanish': 'vanish',
  'evident-hidden-white': 'white_text',
});
/** Deeper nesting is flattened into the element at this depth, so rendering never recurses deeper. */
const MAX_DEPTH = 200;
/**
 * Open elements at which reading stops. htmlparser2 keeps its open-element stack with
 * `Array.unshift`, so nesting n deep costs O(n²): 50,000 unclosed <div>s take seconds, a
 * hostile file of millions would hang. No real document comes near this.
 */
const MAX_OPEN_ELEMENTS = 10_000;
const STOP = Symbol('stop parsing');
/** A preferred region with fewer non-space characters than this falls back to the body. */
const MIN_MAIN_CHARS = 200;

const DATE_META = new Set([
  'date',
  'dc.date',
  'dcterms.date',
  'dc.date.issued',
  'dcterms.issued',
  'dcterms.created',
  'article:published_time',
  'citation_publication_date',
  'citation_date',
]);
const MODIFIED_META = new Set(['dcterms.modified', 'article:modified_time', 'last-modified']);

interface Tree {
  readonly root: El;
  readonly mains: El[];
  readonly articles: El[];
  body: El | null;
  title: string | null;
  lang?: string;
  readonly meta: { author?: string; created?: string; modified?: string; description?: string; keywords?: string };
  hidden: number;
  /** Elements kept with their text marked hidden. */
  marked: number;
  malformed: number;
  /** Reading stopped at MAX_OPEN_ELEMENTS. */
  truncated: boolean;
}

function buildTree(html: string, preferMain: boolean, docxClasses = false): Tree {
  const root: El = { name: '#root', attrs: {}, children: [] };
  const tree: Tree = {
    root,
    mains: [],
    articles: [],
    body: null,
    title: null,
    meta: {},
    hidden: 0,
    marked: 0,
    malformed: 0,
    truncated: false,
  };
  // Stack entries: the element that receives children (a detached sink for dropped content).
  const stack: { name: string; el: El; dropped: boolean; content: boolean; article: boolean; marked: boolean }[] = [
    { name: '#root', el: root, dropped: false, content: false, article: false, marked: false },
  ];
  let titleText: string[] | null = null;
  let realDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (stack.length > MAX_OPEN_ELEMENTS) throw STOP;
        const top = stack[stack.length - 1] as (typeof stack)[number];
        readMeta(tree, name, attrs);
        // <title> lives in the dropped <head>; an <svg> <title> is a tooltip, not the page's.
        if (name === 'title' && tree.title === null && titleText === null && !stack.some((e) => e.name === 'svg')) {
          titleText = [];
        }
        const role = attrs.role?.toLowerCase();
        const isMain = preferMain && (name === 'main' || role === 'main');
        const content = top.content || isMain || name === 'article';
        let dropped = top.dropped;
        if (!dropped) {
          if (!VALID_NAME.test(name)) {
            dropped = true;
            tree.malformed++;
          } else if (DROP.has(name) || ((name === 'header' || name === 'footer') && !top.content)) {
            dropped = true;
          } else if (isHidden(attrs)) {
            dropped = true;
            tree.hidden++;
          }
        }
        const kind = dropped || name === 'br' ? null : hiddenKind(attrs, docxClasses);
        let el: El;
        if (dropped) {
          el = { name, attrs: {}, children: [] }; // a sink: never attached to the tree
        } else if (realDepth >= MAX_DEPTH) {
          el = top.el; // too deep: children go to the ancestor
        } else {
          el = { name, attrs, children: [] };
          top.el.children.push(el);
          realDepth++;
          if (isMain) tree.mains.push(el);
          else if (name === 'article' && preferMain && !top.article && !top.content) tree.articles.push(el);
          if (name === 'body' && tree.body === null) tree.body = el;
        }
        if (kind !== null) {
          // The marks are text nodes of their own, so the renderer carries them wherever the text goes.
          el.children.push(hiddenOpen(kind));
          tree.marked++;
        }
        stack.push({ name, el, dropped, content, article: top.article || name === 'article', marked: kind !== null });
      },
      ontext(raw) {
        const text = stripSentinels(raw);
        if (titleText !== null) {
          titleText.push(text);
          return;
        }
        const top = stack[stack.length - 1] as (typeof stack)[number];
        if (top.dropped) return;
        const kids = top.el.children;
        const last = kids[kids.length - 1];
        if (typeof last === 'string') kids[kids.length - 1] = last + text;
        else kids.push(text);
      },
      onclosetag(name) {
        if (name === 'title' && titleText !== null) {
          tree.title = titleText.join('');
          titleText = null;
        }
        // Pop to the matching open element; htmlparser2 already closes implied elements.
        for (let k = stack.length - 1; k > 0; k--) {
          if ((stack[k] as (typeof stack)[number]).name !== name) continue;
          while (stack.length > k) {
            const entry = stack.pop() as (typeof stack)[number];
            const parent = stack[stack.length - 1] as (typeof stack)[number];
            if (entry.marked) entry.el.children.push(HIDDEN_CLOSE);
            if (!entry.dropped && entry.el !== parent.el) realDepth--;
          }
          break;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (err) {
    if (err !== STOP) throw err;
    tree.truncated = true; // keep what was read so far
    if (titleText !== null) tree.title = (titleText as string[]).join('');
  }
  return tree;
}

/** Decorative elements left out: `aria-hidden="true"` (sighted readers see them, but they carry no content). */
function isHidden(attrs: Readonly<Record<string, string>>): boolean {
  return attrs['aria-hidden']?.trim().toLowerCase() === 'true';
}

/** How an element hides its text from a reader, or null when it does not. */
function hiddenKind(attrs: Readonly<Record<string, string>>, docxClasses: boolean): HiddenTextKind | null {
  if ('hidden' in attrs) return 'hidden_markup';
  const style = attrs.style;
  if (style !== undefined) {
    if (HIDDEN_STYLE.test(style)) return 'hidden_markup';
    if (TINY_STYLE.test(style)) return 'tiny_text';
    if (OFF_SCREEN_STYLE.test(style)) return 'off_page';
  }
  if (docxClasses && attrs.class !== undefined) {
    for (const c of attrs.class.split(/\s+/)) {
      const k = DOCX_HIDDEN_CLASS[c];
      if (k !== undefined) return k;
    }
  }
  return null;
}

function readMeta(tree: Tree, name: string, attrs: Readonly<Record<string, string>>): void {
  if (name === 'html' && attrs.lang && tree.lang === undefined) tree.lang = attrs.lang.trim();
  if (name !== 'meta') return;
  const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').trim().toLowerCase();
  const value = (attrs.content ?? '').trim();
  if (key === '' || value === '') return;
  const meta = tree.meta;
  if (key === 'author' || key === 'dc.creator' || key === 'citation_author') meta.author ??= value;
  else if (DATE_META.has(key)) meta.created ??= value;
  else if (MODIFIED_META.has(key)) meta.modified ??= value;
  else if (key === 'description' || key === 'og:description') meta.description ??= value;
  else if (key === 'keywords') meta.keywords ??= value;
}

/** Renders element trees as Markdown-like blocks. */
class Renderer {
  private inline: string[] = [];
  firstH1: string | null = null;

  constructor(
    readonly out: MarkdownBuilder,
    private readonly stats: NormalizeStats,
  ) {}

  private norm(s: string): string {
    return normalizeText(s, this.stats);
  }

  flush(): void {
    if (this.inline.length === 0) return;
    const text = this.inline.join('');
    this.inline = [];
    this.out.paragraph(text);
  }

  render(nodes: readonly Node[]): void {
    for (const node of nodes) this.node(node);
  }

  private node(node: Node): void {
    if (typeof node === 'string') {
      // Source newlines are layout, not breaks; <br> adds the real ones.
      this.inline.push(this.norm(node).replace(/\s+/g, ' '));
      return;
    }
    const { name } = node;
    if (name === 'br') {
      this.inline.push('\n');
      return;
    }
    if (name === 'a' && isBackLink(node)) return;
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      this.flush();
      const title = this.norm(flatText(node));
      this.out.heading(Number(heading[1]), title);
      if (name === 'h1' && this.firstH1 === null && collapseSpaces(title) !== '') this.firstH1 = collapseSpaces(title);
      return;
    }
    switch (name) {
      case 'ul':
      case 'ol': {
        this.flush();
        const items: { depth: number; marker: string; text: string }[] = [];
        collectList(node, 0, items);
        this.out.list(items.map((i) => ({ ...i, text: this.norm(i.text) })));
        return;
      }
      case 'table': {
        this.flush();
        this.out.table(tableRows(node).map((row) => row.map((c) => this.norm(c))));
        return;
      }
      case 'pre': {
        this.flush();
        this.out.code(this.norm(rawText(node)));
        return;
      }
      case 'hr':
        this.flush();
        return;
    }
    const block = BLOCK.has(name);
    if (block) this.flush();
    this.render(node.children);
    if (block) this.flush();
  }
}

/** mammoth's footnote back-link ("↑") adds nothing to the text. */
function isBackLink(el: El): boolean {
  const href = el.attrs.href ?? '';
  return href.startsWith('#footnote-ref-') || href.startsWith('#endnote-ref-');
}

/** All text under `el` on one line: blocks and <br> become spaces, nested tables are flattened. */
function flatText(el: El, skipLists = false): string {
  const parts: string[] = [];
  const walk = (nodes: readonly Node[]): void => {
    for (const n of nodes) {
      if (typeof n === 'string') {
        parts.push(n);
        continue;
      }
      if (n.name === 'br') parts.push(' ');
      else if (n.name === 'a' && isBackLink(n)) continue;
      else if (skipLists && (n.name === 'ul' || n.name === 'ol')) continue;
      else if (n.name === 'table')
        parts.push(
          ' ',
          tableRows(n)
            .map((r) => r.filter((c) => c.trim() !== '').join(', '))
            .join('; '),
          ' ',
        );
      else {
        const block = BLOCK.has(n.name);
        if (block) parts.push(' ');
        walk(n.children);
        if (block) parts.push(' ');
      }
    }
  };
  walk(el.children);
  return collapseSpaces(parts.join(''));
}

/** Text with its whitespace as written (for <pre>). */
function rawText(el: El): string {
  const parts: string[] = [];
  const walk = (nodes: readonly Node[]): void => {
    for (const n of nodes) {
      if (typeof n === 'string') parts.push(n);
      else if (n.name === 'br') parts.push('\n');
      else walk(n.children);
    }
  };
  walk(el.children);
  return parts.join('');
}

function collectList(list: El, depth: number, out: { depth: number; marker: string; text: string }[]): void {
  const ordered = list.name === 'ol';
  let n = ordered ? Number.parseInt(list.attrs.start ?? '1', 10) : 1;
  if (!Number.isFinite(n)) n = 1;
  for (const child of list.children) {
    if (typeof child === 'string') continue;
    if (child.name === 'ul' || child.name === 'ol') {
      collectList(child, depth + 1, out); // a list directly inside a list
      continue;
    }
    const marker = ordered ? `${n++}.` : '-';
    out.push({ depth, marker, text: flatText(child, true) });
    const nested = (el: El): void => {
      for (const g of el.children) {
        if (typeof g === 'string') continue;
        if (g.name === 'ul' || g.name === 'ol') collectList(g, depth + 1, out);
        else if (g.name !== 'table') nested(g);
      }
    };
    nested(child);
  }
}

/** Rows of a table (not of tables nested in its cells), each a list of cell texts; colspan adds empty cells. */
function tableRows(table: El): string[][] {
  const rows: string[][] = [];
  const visit = (el: El): void => {
    for (const child of el.children) {
      if (typeof child === 'string') continue;
      if (child.name === 'tr') {
        const cells: string[] = [];
        for (const c of child.children) {
          if (typeof c === 'string' || (c.name !== 'td' && c.name !== 'th')) continue;
          cells.push(flatText(c));
          const span = Math.min(Number.parseInt(c.attrs.colspan ?? '1', 10) || 1, 50);
          for (let k = 1; k < span; k++) cells.push('');
        }
        rows.push(cells);
      } else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
        visit(child);
      } else if (child.name === 'caption') {
        const caption = flatText(child);
        if (caption !== '') rows.push([caption]);
      }
    }
  };
  visit(table);
  return rows;
}

function nonSpaceCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x20) n++;
  return n;
}

export interface HtmlExtraction {
  readonly text: string;
  readonly headings: readonly string[];
  /** `<title>` text (markup removed), else the first h1. */
  readonly title?: string;
  readonly language?: string;
  readonly author?: string;
  readonly created?: string;
  readonly modified?: string;
  readonly extra?: string;
  readonly warnings: readonly ParseWarning[];
}

export interface HtmlToMarkdownOptions {
  /** Prefer <main>/<article> over the whole body (web pages: yes; mammoth output: no). */
  readonly preferMain: boolean;
  /** Counts of what normalization removed (shared with the caller's other text). */
  readonly stats?: NormalizeStats;
  /** Read the DOCX reader's hidden-run classes (`DOCX_HIDDEN_CLASS`). Default false. */
  readonly docxClasses?: boolean;
}

/** Text and structure of an HTML document or fragment. */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions): HtmlExtraction {
  const stats = options.stats ?? newNormalizeStats();
  const tree = buildTree(html, options.preferMain, options.docxClasses ?? false);
  const renderAll = (nodes: readonly Node[]): { out: MarkdownBuilder; r: Renderer } => {
    const out = new MarkdownBuilder();
    const r = new Renderer(out, stats);
    r.render(nodes);
    r.flush();
    return { out, r };
  };
  const everything = tree.body ? [tree.body] : tree.root.children;
  const preferred = tree.mains.length > 0 ? tree.mains : tree.articles;
  let result = renderAll(preferred.length > 0 ? preferred : everything);
  let text = result.out.toString();
  if (preferred.length > 0 && nonSpaceCount(text) < MIN_MAIN_CHARS) {
    const whole = renderAll(everything);
    const wholeText = whole.out.toString();
    if (nonSpaceCount(wholeText) > nonSpaceCount(text)) {
      result = whole;
      text = wholeText;
    }
  }

  const warnings: ParseWarning[] = [];
  if (tree.hidden > 0) {
    warnings.push({
      code: 'hidden_content_dropped',
      message: `${tree.hidden} decorative element${plural(tree.hidden)} (aria-hidden) left out.`,
      count: tree.hidden,
    });
  }
  if (tree.malformed > 0) {
    warnings.push({
      code: 'hidden_content_dropped',
      message: `${tree.malformed} malformed tag${plural(tree.malformed)} (such as "<scr<script>") left out with their content.`,
      count: tree.malformed,
    });
  }
  if (tree.truncated) {
    warnings.push({
      code: 'content_truncated',
      message: `This HTML nests elements more than ${MAX_OPEN_ELEMENTS.toLocaleString('en')} levels deep; reading stopped there, and only the text before that point was kept.`,
    });
  }
  const title = tree.title !== null ? titleText(tree.title) : '';
  const extra = [tree.meta.description, tree.meta.keywords].filter((s) => s !== undefined).join(' ');
  return {
    text,
    headings: result.out.headings,
    warnings,
    ...(title !== '' ? { title } : result.r.firstH1 !== null ? { title: result.r.firstH1 } : {}),
    ...(tree.lang ? { language: tree.lang } : {}),
    ...(tree.meta.author ? { author: tree.meta.author } : {}),
    ...(tree.meta.created ? { created: tree.meta.created } : {}),
    ...(tree.meta.modified ? { modified: tree.meta.modified } : {}),
    ...(extra !== '' ? { extra } : {}),
  };
}

/** A `<title>`'s text: it is raw text to the tokenizer, so markup inside is parsed once more and dropped. */
function titleText(raw: string): string {
  if (!raw.includes('<')) return collapseSpaces(normalizeText(raw, newNormalizeStats()));
  const tree = buildTree(raw, false);
  return collapseSpaces(normalizeText(flatText(tree.root), newNormalizeStats()));
}

/** The charset an HTML file declares in its first 1024 bytes (`<meta charset>` or http-equiv). */
export function declaredCharset(bytes: Uint8Array): string | null {
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i.exec(head);
  return m ? (m[1] as string).toLowerCase() : null;
}

/** Reads an HTML file. */
export function parseHtml(bytes: Uint8Array): RawParse {
  const declared = declaredCharset(bytes);
  const decoded = decodeText(bytes, declared);
  const stats = newNormalizeStats();
  const x = htmlToMarkdown(decoded.text, { preferMain: true, stats });
  const created = normalizeDate(x.created);
  const modified = normalizeDate(x.modified);
  return {
    format: 'html',
    text: x.text,
    headings: x.headings,
    warnings: [...decoded.warnings, ...x.warnings, ...normalizeWarnings(stats)],
    ...(x.title !== undefined ? { title: x.title } : {}),
    ...(x.language !== undefined ? { language: x.language } : {}),
    ...(x.author !== undefined ? { author: x.author } : {}),
    ...(created !== undefined ? { created } : {}),
    ...(modified !== undefined ? { modified } : {}),
    ...(x.extra !== undefined ? { extra: x.extra } : {}),
  };
}
