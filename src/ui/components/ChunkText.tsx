import { displayBlocks } from '../chunk-text';

/** A chunk's text as paragraphs. Rendered as text nodes (React escapes them), never as HTML. */
export function ChunkText({ text, headings }: { readonly text: string; readonly headings: readonly string[] }) {
  const blocks = displayBlocks(text, headings);
  return (
    <div className="result-text">
      {blocks.map((b, i) => (
        <p key={i} className={b.preserveLines ? 'lines' : undefined}>
          {b.text}
        </p>
      ))}
    </div>
  );
}
