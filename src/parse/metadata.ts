/**
 * Guesses about a document from its name, metadata and first page: title, source type, status
 * and effective date. They seed the library's editable fields (the priors stage reads source
 * type and status); a wrong guess costs one click, so the rules are few, ordered and readable.
 */
import type { DocStatus, SourceType } from '../core/types';

export interface GuessSignals {
  readonly fileName: string;
  readonly title?: string;
  readonly author?: string;
  /** PDF Subject/Keywords, HTML description and the like. */
  readonly extra?: string;
  /** The start of the text (the first page of a PDF). */
  readonly firstPage?: string;
  readonly created?: string;
  readonly modified?: string;
}

/** The file name without folders and extension, separators turned into spaces. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const stem = base.replace(/\.[A-Za-z0-9]{1,8}$/, '');
  const spaced = stem.replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return spaced === '' ? base : spaced;
}

/**
 * A metadata title worth showing, or undefined: drops placeholders ("Untitled", "Document1"),
 * file names and paths, and the "Microsoft Word - " prefix.
 */
export function cleanMetadataTitle(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const t = raw
    .replace(/^Microsoft (?:Word|PowerPoint|Excel) - /i, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.length < 2 || t.length > 300) return undefined;
  if (/^(?:untitled|document\d*|title|slide \d+|no title|none|unknown)$/i.test(t)) return undefined;
  // A filing's letterhead is no title: every SEC filing starts with it.
  if (/^(?:united states\s+)?securities and exchange commission$|^form\s+\S+$/i.test(t)) return undefined;
  if (/\.(?:docx?|pdf|wpd|tex|dvi|indd|rtf|odt|pages|txt|qxd|pm\d)$/i.test(t)) return undefined;
  if (/^[a-z]:[\\/]|^\//i.test(t)) return undefined;
  if (!/\p{L}/u.test(t)) return undefined;
  return t;
}

const SEC_FORM = /\bFORM\s+(10-K(?:405|T)?|10-Q|8-K|20-F|40-F|6-K|S-1|S-4|DEF 14A|11-K|10-KT)\b/i;
const FILING_PERIOD =
  /\bfor the (fiscal year|quarterly period|year|(?:three|six|nine|twelve) months|period) ended\s+([A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4})/i;
const REGISTRANT = /\(?\s*exact name of (?:the )?registrant as specified in its charter\s*\)?/i;
const ANNUAL_REPORT = /^annual report pursuant to section 13 or 15\(d\)/i;

/**
 * The registrant's name as the filing prints it in its text: a cover page sets "MGM RESORTS
 * INTERNATIONAL" or "PEPSICO, INC." in capitals while the text says "MGM Resorts International" and
 * "PepsiCo, Inc.". The most frequent spelling in mixed case among the first `PRINTED_SCAN` characters
 * of `text`; else the name in title case (`titleCase`).
 */
export function nameAsPrinted(name: string, text: string): string {
  const words = name
    .trim()
    .split(/\s+/u)
    .filter((w) => w.length > 0);
  if (words.length === 0 || /\p{Ll}/u.test(name)) return titleCase(name);
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escaped.join('\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
  const counts = new Map<string, number>();
  for (const m of text.slice(0, PRINTED_SCAN).matchAll(re)) {
    const spelled = m[0].replace(/\s+/gu, ' ');
    if (/\p{Ll}/u.test(spelled)) counts.set(spelled, (counts.get(spelled) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [spelled, n] of counts) if (best === undefined || n > (counts.get(best) ?? 0)) best = spelled;
  return best ?? titleCase(name);
}

/** How much of a filing's text is searched for its name as printed (the first pages name it often). */
const PRINTED_SCAN = 200_000;

/** "MGM RESORTS INTERNATIONAL" → "MGM Resorts International"; short all-capital words stay. */
function titleCase(name: string): string {
  if (/\p{Ll}/u.test(name)) return name;
  return name.replace(/\p{L}[\p{L}'’]*/gu, (w) =>
    w.length <= 3 && !/^(?:AND|THE|OF|INC|CO)$/.test(w) ? w : w[0] + w.slice(1).toLowerCase(),
  );
}

/** The registrant's name: the line next to "(Exact name of registrant as specified in its charter)". */
function registrantName(lines: readonly string[]): string | undefined {
  const at = lines.findIndex((l) => REGISTRANT.test(l));
  if (at < 0) return undefined;
  const same = lines[at]!.replace(REGISTRANT, '').trim();
  if (same.length >= 3 && /\p{L}/u.test(same)) return same;
  const plausible = (l: string | undefined): l is string =>
    l !== undefined &&
    l.length >= 3 &&
    l.length <= 90 &&
    /\p{L}/u.test(l) &&
    !/commission file|^\(|^\d|^for the |\bform\b|pursuant|exchange commission/i.test(l);
  const above = lines[at - 1];
  if (plausible(above)) return above;
  const below = lines[at + 1];
  return plausible(below) ? below : undefined;
}

/**
 * A title a person recognises for an official filing, from its first pages' lines:
 * "MGM Resorts International — Form 10-K, fiscal year ended December 31, 2018", the registrant
 * named as `documentText` prints it (`nameAsPrinted`). Undefined when the lines do not name an SEC form
 * with its registrant.
 */
export function filingTitle(lines: readonly string[], documentText = ''): string | undefined {
  const head = lines.slice(0, 120);
  const text = head.join('\n');
  const form = SEC_FORM.exec(text)?.[1] ?? (head.some((l) => ANNUAL_REPORT.test(l)) ? '10-K' : undefined);
  const name = registrantName(head);
  if (form === undefined || name === undefined) return undefined;
  const period = FILING_PERIOD.exec(text);
  const when =
    period === null
      ? ''
      : `, ${period[1]!.toLowerCase().replace(/^year$/, 'fiscal year')} ended ${period[2]!.replace(/\s+/g, ' ')}`;
  return `${nameAsPrinted(name.replace(/\s+/g, ' ').trim(), documentText)} — Form ${form.toUpperCase()}${when}`;
}

interface Rule {
  readonly type: SourceType;
  /** Matched against file name, title, author and metadata text. */
  readonly names: RegExp;
  /** Matched against the first page only: markers precise enough not to fire on a mention. */
  readonly firstPage?: RegExp;
}

/**
 * First match wins; official filings first (an SEC filing names "Securities and Exchange
 * Commission" and would otherwise read as government), government before policy, so a
 * government handbook is government.
 */
const SOURCE_RULES: readonly Rule[] = [
  {
    type: 'official_filing',
    names: /\b(?:10-?K|10-?Q|8-?K|20-?F|annual report|sec filing|form 10)\b/i,
    firstPage:
      /\bsecurities and exchange commission\b|\bcommission file (?:number|no\.?)|\bform (?:10-K|10-Q|8-K|20-F)\b|\bannual report pursuant to section 13\b|\bexact name of registrant\b/i,
  },
  {
    type: 'government',
    names:
      /\b(?:gov|irs|doj|government|copyright office|department of|ministry of|federal|congress|senate|parliament|white house|bundes\w*|u\.?s\.? code|cfr|gao|nist|fda|cdc|nhs|european commission|official journal)\b/i,
    firstPage:
      /\b(?:internal revenue service|department of the treasury|united states (?:copyright office|department|government)|u\.s\. government printing office|www\.\w+\.gov\b)/i,
  },
  {
    type: 'peer_reviewed',
    // Venue names may carry a year: "pldi09", "ICML 2023".
    names:
      /\b(?:arxiv|doi|journal|proceedings|pldi|popl|oopsla|sigplan|sigmod|vldb|neurips|nips|icml|iclr|acl|emnlp|ieee|acm)(?:\s?'?\d{2,4})?\b/i,
    firstPage:
      /\barxiv:\s?\d{4}\.\d{4,5}|\bdoi(?:\.org\/|:\s?)10\.\d{4,}|\bproceedings of\b|\bjournal of\b|\bpermission to make digital or hard copies\b/i,
  },
  {
    type: 'internal_policy',
    names:
      /\b(?:polic(?:y|ies)|handbook|guidelines?|procedures?|sop|code of conduct|manual|playbook|runbook|employee)\b/i,
  },
  { type: 'blog', names: /\b(?:blog|substack|medium\.com|wordpress|blogspot|newsletter)\b/i },
  {
    type: 'established_news',
    names: /\b(?:reuters|associated press|bbc|new york times|nytimes|washington post|the guardian|financial times)\b/i,
  },
  { type: 'user_generated', names: /\b(?:forum|reddit|stack ?overflow|stackexchange|comments?|wiki)\b/i },
  { type: 'ai_generated', names: /\b(?:chatgpt|gpt-\d|ai[- ]generated|generated by ai|llm output)\b/i },
];

/** File names use "-", "_" and "." as word separators; regex word boundaries need spaces. */
function nameWords(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/[-_.]+/g, ' ');
}

export function guessSourceType(s: GuessSignals): SourceType {
  const names = [nameWords(s.fileName), s.title, s.author, s.extra].filter((x) => x !== undefined).join(' \n ');
  const first = (s.firstPage ?? '').slice(0, 5000);
  for (const rule of SOURCE_RULES) {
    if (rule.names.test(names)) return rule.type;
    if (rule.firstPage !== undefined && rule.firstPage.test(first)) return rule.type;
  }
  return 'unknown';
}

export function guessStatus(s: GuessSignals): DocStatus {
  const names = [nameWords(s.fileName), s.title].filter((x) => x !== undefined).join(' \n ');
  if (/\bdraft\b/i.test(names)) return 'draft';
  if (/\b(?:superseded|obsolete|deprecated|old|archived?|outdated|retired)\b/i.test(names)) return 'superseded';
  return 'current';
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;

function plausibleYear(y: number): boolean {
  return y >= 1900 && y <= new Date().getUTCFullYear() + 5;
}

/** YYYY-MM-DD for a valid calendar date in a plausible year, else undefined. */
export function isoDate(y: number, m: number, d: number): string | undefined {
  if (!plausibleYear(y) || m < 1 || m > 12 || d < 1) return undefined;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function monthNumber(name: string): number {
  return MONTHS[name.toLowerCase().slice(0, 3)] ?? 0;
}

/** The first full date in `text`: ISO (2024-03-01), "March 1, 2024", "1 March 2024". */
export function findDate(text: string): string | undefined {
  const patterns: readonly [RegExp, (m: RegExpExecArray) => string | undefined][] = [
    [/\b((?:19|20)\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/, (m) => isoDate(+m[1]!, +m[2]!, +m[3]!)],
    [
      new RegExp(String.raw`\b${MONTH}\s+(\d{1,2}),?\s+((?:19|20)\d{2})\b`, 'i'),
      (m) => isoDate(+m[3]!, monthNumber(m[1]!), +m[2]!),
    ],
    [
      new RegExp(String.raw`\b(\d{1,2})\s+${MONTH},?\s+((?:19|20)\d{2})\b`, 'i'),
      (m) => isoDate(+m[3]!, monthNumber(m[2]!), +m[1]!),
    ],
  ];
  let best: { at: number; date: string } | undefined;
  for (const [re, toDate] of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    const date = toDate(m);
    if (date !== undefined && (best === undefined || m.index < best.at)) best = { at: m.index, date };
  }
  return best?.date;
}

/** "December 1998" → 1998-12-01. */
function findMonthYear(text: string): string | undefined {
  const m = new RegExp(String.raw`\b${MONTH}\s+((?:19|20)\d{2})\b`, 'i').exec(text);
  return m ? isoDate(+m[2]!, monthNumber(m[1]!), 1) : undefined;
}

/** A date in a file name: 2024-03-01, 2024_03_01, 20240301. */
export function dateInFileName(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const m = /(?:^|\D)((?:19|20)\d{2})[-_.]?(0[1-9]|1[0-2])[-_.]?(0[1-9]|[12]\d|3[01])(?:\D|$)/.exec(base);
  return m ? isoDate(+m[1]!, +m[2]!, +m[3]!) : undefined;
}

/** The date part of an ISO timestamp, when plausible. */
function datePart(iso: string | undefined): string | undefined {
  if (iso === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? isoDate(+m[1]!, +m[2]!, +m[3]!) : undefined;
}

/**
 * In order: a date in the file name (the user put it there), an "effective …" date on the first
 * page, the metadata creation date, the first full date on the first page, a "Month YYYY" there,
 * the metadata modification date (often just the last re-save).
 */
export function guessEffectiveDate(s: GuessSignals): string | undefined {
  const first = (s.firstPage ?? '').slice(0, 5000);
  const effective = /\beffective(?:\s+date)?\s*(?:as of|from|on)?\s*:?\s*([^\n]{0,40})/i.exec(first);
  return (
    dateInFileName(s.fileName) ??
    (effective ? (findDate(effective[1] as string) ?? findMonthYear(effective[1] as string)) : undefined) ??
    datePart(s.created) ??
    findDate(first) ??
    findMonthYear(first) ??
    datePart(s.modified)
  );
}

/**
 * An ISO 8601 timestamp from a PDF date ("D:20090401163925-07'00'"), an ISO string or an HTTP
 * date; undefined when absent, unparsable or implausible (PDF writers emit "D:00000101000000Z").
 */
export function normalizeDate(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const s = raw.trim();
  const pdf = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(Z|[+-]\d{2}'?\d{2}'?)?/.exec(s);
  if (pdf && (s.startsWith('D:') || /^\d{8,14}/.test(s))) {
    const [, y, mo = '01', d = '01', h = '00', mi = '00', se = '00', tz] = pdf;
    if (isoDate(+y!, +mo, +d) === undefined || +h > 23 || +mi > 59 || +se > 59) return undefined;
    const zone = tz === undefined || tz === 'Z' ? 'Z' : `${tz.slice(0, 3)}:${tz.replace(/'/g, '').slice(3, 5) || '00'}`;
    return `${y}-${mo}-${d}T${h}:${mi}:${se}${zone}`;
  }
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  const date = new Date(t);
  return plausibleYear(date.getUTCFullYear()) ? date.toISOString() : undefined;
}
