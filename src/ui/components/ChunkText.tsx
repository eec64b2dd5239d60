import { displayBlocks } from '../chunk-text';
import { inlineSegments, type Segment } from '../rich-text';

/** A chunk's text as paragraphs. Rendered as text nodes (React escapes them), never as HTML. */
export function ChunkText({ text, headings }: { readonly text: string; readonly headings: readonly string[] }) {
  const blocks = displayBlocks(text, headings);
  return (
    <div className="result-text">
      {blocks.map((b, i) => (
        <p key={i} className={b.preserveLines ? 'lines' : undefined}>
          <Segments segments={inlineSegments(b.text)} />
        </p>
      ))}
    </div>
  );
}

/**
 * Display segments as React text nodes: bold, marks and citation buttons. `onCite` turns a
 * citation into a button that opens its passage; `citeLabel` names it for screen readers.
 */
export function Segments({
  segments,
  onCite,
  citeLabel,
}: {
  readonly segments: readonly Segment[];
  readonly onCite?: (id: string) => void;
  readonly citeLabel?: (id: string) => string;
}) {
  return (
    <>
      {segments.map((s, i) => {
        switch (s.kind) {
          case 'text':
            return <span key={i}>{s.text}</span>;
          case 'strong':
            return <strong key={i}>{s.text}</strong>;
          case 'mark':
            return <mark key={i}>{s.text}</mark>;
          case 'cite':
            return onCite ? (
              <CiteButton key={i} id={s.id} onCite={onCite} label={citeLabel?.(s.id)} />
            ) : (
              <span key={i} className="cite-text">
                [{s.id}]
              </span>
            );
        }
      })}
    </>
  );
}

/** A citation id as a button that opens its passage; `label` names it for screen readers. */
export function CiteButton({
  id,
  onCite,
  label,
}: {
  readonly id: string;
  readonly onCite: (id: string) => void;
  readonly label?: string;
}) {
  return (
    <button
      type="button"
      className="cite"
      data-citation={id}
      aria-label={label ?? `Open source ${id}`}
      onClick={() => onCite(id)}
    >
      {id}
    </button>
  );
}
