/**
 * Display blocks of a chunk's text. The text itself stays the exact source slice (citations point
 * into it); this only decides how to show it:
 * - a leading Markdown heading line equal to the last heading of the trail is dropped, since the
 *   trail already shows it;
 * - blank lines separate blocks; inside a prose block, hard line wraps of the source become
 *   spaces, while table rows, list items and fenced code keep their lines.
 */
export interface DisplayBlock {
  readonly text: string;
  /** Keep line breaks (tables, lists, code). */
  readonly preserveLines: boolean;
}

const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const LINE_STRUCTURED = /^\s*(\||[-*+][ \t]|\d+[.)][ \t]|```|~~~)/;

export function displayBlocks(text: string, headings: readonly string[]): DisplayBlock[] {
  let body = text;
  const firstBreak = body.indexOf('\n');
  const firstLine = firstBreak < 0 ? body : body.slice(0, firstBreak);
  const heading = ATX_HEADING.exec(firstLine);
  if (heading && heading[1]?.trim() === headings.at(-1)?.trim())
    body = firstBreak < 0 ? '' : body.slice(firstBreak + 1);
  return body
    .split(/\n[ \t]*\n/)
    .map((block) => block.replace(/^\s*\n|\s+$/g, ''))
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const preserveLines = lines.length > 1 && lines.some((l) => LINE_STRUCTURED.test(l));
      return { text: preserveLines ? block : lines.map((l) => l.trim()).join(' '), preserveLines };
    });
}
