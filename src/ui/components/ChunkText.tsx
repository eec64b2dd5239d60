import { displayBlocks, type DisplayTable } from '../chunk-text';
import { inlineSegments, type Segment } from '../rich-text';

/** A chunk's text as paragraphs and tables. Rendered as text nodes (React escapes them), never as HTML. */
export function ChunkText({
  text,
  headings,
  context,
}: {
  readonly text: string;
  readonly headings: readonly string[];
  /** A table chunk's context: its column header when the text does not hold it. */
  readonly context?: string | undefined;
}) {
  const blocks = displayBlocks(text, headings, context);
  return (
    <div className="result-text">
      {blocks.map((b, i) =>
        b.table ? (
          <ChunkTable key={i} table={b.table} cell={inlineSegments} />
        ) : (
          <p key={i} className={b.preserveLines ? 'lines' : undefined}>
            <Segments segments={inlineSegments(b.text)} />
          </p>
        ),
      )}
    </div>
  );
}

/**
 * A table of a chunk (a filing's statement, a policy's rates): its header once, its rows whole, in
 * a box that scrolls sideways on its own when it is wider than the screen. `cell` turns a cell's
 * text into segments (bold, or the cited passage's highlights).
 */
export function ChunkTable({
  table,
  cell,
}: {
  readonly table: DisplayTable;
  readonly cell: (text: string) => readonly Segment[];
}) {
  const width = Math.max(0, ...table.header.map((r) => r.length), ...table.rows.map((r) => r.length));
  const pad = (row: readonly string[]): string[] => [
    ...row,
    ...Array<string>(Math.max(0, width - row.length)).fill(''),
  ];
  return (
    <div className="table-scroll chunk-table-box" tabIndex={0} role="region" aria-label="Table">
      <table className="chunk-table">
        {table.header.length > 0 && (
          <thead>
            {table.header.map((row, r) => (
              <tr key={r}>
                {pad(row).map((c, j) => (
                  <th key={j} scope="col">
                    <Segments segments={cell(c)} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
        )}
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {pad(row).map((c, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    <Segments segments={cell(c)} />
                  </th>
                ) : (
                  <td key={j}>
                    <Segments segments={cell(c)} />
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
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
