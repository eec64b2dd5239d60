import type { StatusLine } from '../status-line';

/**
 * One strip under the tabs, on every page and kept in view (sticky), with the work in progress:
 * the model loading, a file being read, meaning vectors being computed and the time left. Nothing
 * is shown when nothing is in progress. Its lines come from `statusLines`, from the same state as
 * the library's list and the files' rows, so they agree with them.
 */
export function StatusStrip({ lines }: { readonly lines: readonly StatusLine[] }) {
  return (
    // A labelled region, not a live one: its counts change every second, which a screen reader
    // would read out each time; the files' rows announce when a file becomes searchable.
    <section
      className="status-strip"
      aria-label={lines.length > 0 ? 'Work in progress' : undefined}
      data-testid="status-strip"
      data-busy={lines.length > 0 ? 'yes' : 'no'}
    >
      {lines.length > 0 && (
        <ul>
          {lines.map((line) => (
            <li
              key={line.kind}
              data-kind={line.kind}
              data-doc-id={line.docId}
              data-vectors={line.vectors}
              data-chunks={line.chunks}
            >
              <span className="status-dot" aria-hidden="true" />
              {line.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
