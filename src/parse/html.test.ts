import { describe, expect, it } from 'vitest';
import { parseSections } from '../core/ingest/markdown';
import { extractHidden } from './hidden';
import { htmlToMarkdown, parseHtml } from './html';

const page = (body: string, head = '<title>T</title>'): string =>
  `<!DOCTYPE html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
const md = (html: string, preferMain = true): string => htmlToMarkdown(html, { preferMain }).text;

describe('htmlToMarkdown: what is dropped', () => {
  it('drops script, style, noscript, template, iframe, svg, form, nav, aside and page-level header/footer', () => {
    const html = page(`
      <header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
      <script>window.__XSS = 1; document.write("SCRIPT-TEXT")</script>
      <style>body { color: red } .STYLE-TEXT {}</style>
      <noscript>NOSCRIPT-TEXT</noscript><template>TEMPLATE-TEXT</template>
      <iframe srcdoc="&lt;p&gt;IFRAME&lt;/p&gt;">IFRAME-TEXT</iframe>
      <svg><text>SVG-TEXT</text></svg>
      <form><label>FORM-TEXT</label><input value="INPUT-TEXT"><button>BUTTON-TEXT</button></form>
      <aside>ASIDE-TEXT</aside>
      <p>Kept paragraph.</p>
      <footer>FOOTER-TEXT</footer>`);
    const text = md(html);
    expect(text).toBe('Kept paragraph.');
  });

  it('drops aria-hidden (decorative) elements and counts them; hidden ones are kept and marked instead', () => {
    const x = htmlToMarkdown(
      page(`<p>Visible.</p><div hidden>H1</div><div aria-hidden="true">H2</div>
        <div style="color:red; display : none">H3</div><span style="visibility:hidden">H4</span>`),
      { preferMain: true },
    );
    expect(x.text).not.toContain('H2');
    expect(x.warnings.find((w) => w.code === 'hidden_content_dropped')?.count).toBe(1);
    // The marks (hidden.ts) wrap exactly the hidden elements' text; parseDocument turns them into ranges.
    const h = extractHidden(x.text);
    expect(h.text.replace(/\s+/g, ' ')).toBe('Visible. H1 H3 H4');
    expect(h.hidden.map((r) => [h.text.slice(r.start, r.end), r.kind])).toEqual([
      ['H1', 'hidden_markup'],
      ['H3', 'hidden_markup'],
      ['H4', 'hidden_markup'],
    ]);
  });

  it('marks zero-size, off-screen and transparent text, not small or half-transparent text', () => {
    const x = htmlToMarkdown(
      page(`<p>Seen first.</p><p style="font-size:0">Z1</p><p style="font-size: 1px">Z2</p>
        <p style="position:absolute; left:-9999px">OFF1</p><p style="text-indent:-5000px">OFF2</p>
        <p style="opacity:0">T1</p><p style="font-size:.9em">small</p><p style="opacity:0.5">half</p>
        <p style="margin-left:-20px">nudged</p>`),
      { preferMain: true },
    );
    const h = extractHidden(x.text);
    expect(h.hidden.map((r) => [h.text.slice(r.start, r.end), r.kind])).toEqual([
      ['Z1', 'tiny_text'],
      ['Z2', 'tiny_text'],
      ['OFF1', 'off_page'],
      ['OFF2', 'off_page'],
      ['T1', 'hidden_markup'],
    ]);
  });

  it("cannot forge or end a mark with the page's own noncharacters", () => {
    const x = htmlToMarkdown(page('<p>\uFDD0forged open</p><p hidden>real \uFDEF still hidden</p>'), {
      preferMain: true,
    });
    const h = extractHidden(x.text);
    expect(h.hidden.map((r) => h.text.slice(r.start, r.end).replace(/\s+/g, ' '))).toEqual(['real still hidden']);
    expect(h.text).toContain('forged open');
  });

  it('drops the content of malformed tags such as a split <scr<script> payload', () => {
    const text = md(page('<p>Before.</p><scr<script>ipt>window.__XSS_FIRED=1</scr</script>ipt><p>After.</p>'));
    expect(text).not.toMatch(/XSS|window/);
    expect(text).toContain('Before.');
  });

  it('keeps no attribute values: event handlers and javascript: URLs never reach the text', () => {
    const text = md(
      page(`<img src=x onerror="alert('IMG')" alt="chart"><a href="javascript:alert('A')">Click</a>
            <body onload="alert('BODY')"><p title="T-ATTR">Para</p>`),
    );
    expect(text).not.toMatch(/alert|javascript|T-ATTR|IMG/);
    expect(text).toContain('Click');
  });
});

describe('htmlToMarkdown: structure', () => {
  it('prefers <main> over the rest of the page', () => {
    const body = `<div>Sidebar junk that is not in main.</div><main><h1>Article</h1><p>${'Main text. '.repeat(30)}</p></main><div>More junk.</div>`;
    const text = md(page(body));
    expect(text).toMatch(/^# Article\n\nMain text\./);
    expect(text).not.toContain('junk');
    // mammoth's HTML has no <main>: with preferMain off the whole fragment is read.
    expect(md(body, false)).toContain('Sidebar junk');
  });

  it('uses top-level <article>s when there is no <main>, keeping their own <header>', () => {
    const body = `<div>Site chrome.</div>
      <article><header><h1>First</h1></header><p>${'Alpha text. '.repeat(10)}</p></article>
      <article><h2>Second</h2><p>${'Beta text. '.repeat(10)}</p></article>`;
    const x = htmlToMarkdown(page(body), { preferMain: true });
    expect(x.headings).toEqual(['First', 'Second']);
    expect(x.text).not.toContain('Site chrome');
  });

  it('falls back to the body when <main> holds almost nothing', () => {
    const text = md(page(`<main><p>Menu</p></main><div><p>${'The real content is here. '.repeat(20)}</p></div>`));
    expect(text).toContain('The real content is here.');
  });

  it('writes headings, lists (nested, ordered with start), tables and code the chunker reads back', () => {
    const html = page(`
      <h1>Policy</h1>
      <p>Intro with <b>bold</b> and a<br>line break.</p>
      <h2>Steps</h2>
      <ol start="3"><li>Three<ul><li>Nested</li></ul></li><li>Four</li></ol>
      <h2>Rates</h2>
      <table><thead><tr><th>Item</th><th>Cap</th></tr></thead>
        <tbody><tr><td>Hotel | night</td><td>180 EUR</td></tr><tr><td colspan="2">Note</td></tr></tbody></table>
      <pre>  indented
code</pre>`);
    const x = htmlToMarkdown(html, { preferMain: true });
    expect(x.text).toBe(
      [
        '# Policy',
        'Intro with bold and a\nline break.',
        '## Steps',
        '3. Three\n  - Nested\n4. Four',
        '## Rates',
        '| Item | Cap |\n| Hotel \\| night | 180 EUR |\n| Note |  |',
        '```\n  indented\ncode\n```',
      ].join('\n\n'),
    );
    expect(x.headings).toEqual(['Policy', 'Steps', 'Rates']);
    const sections = parseSections(x.text, 'markdown');
    expect(sections.map((s) => s.headings)).toEqual([['Policy'], ['Policy', 'Steps'], ['Policy', 'Rates']]);
    const rates = sections[2]!;
    expect(rates.blocks.map((b) => b.kind)).toEqual(['heading', 'table', 'code']);
  });

  it('flattens a nested table into its cell', () => {
    const text = md(
      page(
        '<table><tr><td>a</td><td><table><tr><td>x</td><td>y</td></tr><tr><td>z</td></tr></table></td></tr></table>',
      ),
    );
    expect(text).toBe('| a | x, y; z |');
  });

  it('decodes entities and never lets document text become a heading or table by accident', () => {
    const text = md(page('<p>&lt;b&gt; &amp; &eacute; &#8364; &#x2014;</p><p># not a heading</p><p>---</p>'));
    expect(text).toContain('<b> & é € —');
    expect(parseSections(text, 'markdown').flatMap((s) => s.headings)).toEqual([]);
  });

  it('reads deep nesting without deep recursion', () => {
    const deep = '<div><span>'.repeat(4_000) + 'deep text' + '</span></div>'.repeat(4_000);
    expect(md(page(deep))).toBe('deep text');
  });

  it('stops at hostile nesting depth with a safe partial result instead of hanging', () => {
    const x = htmlToMarkdown(page('<p>Intro.</p>' + '<div>'.repeat(200_000) + 'never reached'), { preferMain: true });
    expect(x.text).toBe('Intro.');
    expect(x.warnings.map((w) => w.code)).toContain('content_truncated');
  });
});

describe('htmlToMarkdown: metadata', () => {
  it('reads the title as text even when it holds markup, and lang/author/date from the head', () => {
    const x = htmlToMarkdown(
      page(
        '<h1>Heading</h1><p>x</p>',
        `<title>Quarterly notes <script>window.__XSS_FIRED=1</script></title>
         <meta name="author" content="Ada"><meta property="article:published_time" content="2024-05-02T10:00:00Z">`,
      ),
      { preferMain: true },
    );
    expect(x.title).toBe('Quarterly notes');
    expect(x.author).toBe('Ada');
    expect(x.created).toBe('2024-05-02T10:00:00Z');
    expect(x.language).toBe('en');
  });

  it('falls back to the first h1 for the title, and ignores an <svg> <title>', () => {
    const x = htmlToMarkdown('<body><svg><title>Icon</title></svg><h1>Real title</h1><p>x</p></body>', {
      preferMain: true,
    });
    expect(x.title).toBe('Real title');
  });
});

describe('parseHtml', () => {
  it('decodes a declared Latin-1 page', () => {
    const head = '<meta charset="iso-8859-1"><title>Caf\xe9</title>';
    const bytes = Uint8Array.from([...page('<p>Gr\xfc\xdfe</p>', head)].map((c) => c.charCodeAt(0)));
    const parsed = parseHtml(bytes);
    expect(parsed.text).toBe('Grüße');
    expect(parsed.title).toBe('Café');
  });
});
