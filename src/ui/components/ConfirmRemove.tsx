import { useEffect, useId, useRef } from 'react';

interface Props {
  /** The document to remove (its title is named), or null when nothing is asked. */
  readonly doc: { readonly docId: string; readonly title: string } | null;
  readonly onConfirm: (docId: string) => void;
  readonly onCancel: () => void;
}

/**
 * Asks before a document is removed, naming it: removing cannot be undone (its chunks, vectors,
 * stored file and feedback go). A modal `<dialog>`: Esc or "Keep it" cancels, focus starts on
 * "Keep it" so Enter never removes by accident, and returns to the Remove button when closed.
 */
export function ConfirmRemove({ doc, onConfirm, onCancel }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (doc && !dialog.open) {
      dialog.showModal();
      keepRef.current?.focus();
    }
    if (!doc && dialog.open) dialog.close();
  }, [doc]);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      data-testid="confirm-remove"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {doc && (
        <>
          <h2 id={`${id}-title`}>Remove “{doc.title}”?</h2>
          <p id={`${id}-text`}>
            Its passages, meaning vectors and stored file leave this browser. To have it back, add the file again.
          </p>
          <div className="inline-row dialog-buttons">
            <button type="button" className="danger" onClick={() => onConfirm(doc.docId)}>
              Remove
            </button>
            <button ref={keepRef} type="button" className="secondary" onClick={onCancel}>
              Keep it
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
