import { useId, useState, type FormEvent } from 'react';
import type { DocumentMetaPatch } from '../../core/library-format';
import { DOC_STATUSES, SOURCE_TYPES, type DocStatus, type SourceType } from '../../core/types';
import type { LibraryDocument } from '../../worker/api';
import { FORMAT_LABEL, SOURCE_TYPE_LABEL, STATUS_LABEL } from '../labels';

interface Props {
  readonly doc: LibraryDocument;
  /** Saves edited details; resolves to an error message, or null when saved. */
  readonly onSave: (docId: string, patch: DocumentMetaPatch) => Promise<string | null>;
  readonly onPreview: (docId: string) => void;
}

/**
 * Per document: its details (title, source type, status, effective date and language — what
 * selection's priors read — all editable) and a preview of its text.
 */
export function DocumentActions({ doc, onSave, onPreview }: Props) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="doc-actions">
      <span className="doc-facts muted">
        {doc.format ? FORMAT_LABEL[doc.format] : 'Text'}
        {typeof doc.pageCount === 'number' && ` · ${doc.pageCount} page${doc.pageCount === 1 ? '' : 's'}`}
        {doc.effectiveDate && ` · effective ${doc.effectiveDate}`}
        {doc.language && ` · ${doc.language}`}
      </span>
      <span className="doc-buttons">
        <button
          type="button"
          className="secondary small"
          onClick={() => onPreview(doc.docId)}
          aria-label={`Preview “${doc.title}”`}
        >
          Preview
        </button>
        <button
          type="button"
          className="secondary small"
          aria-expanded={open}
          aria-controls={`${id}-details`}
          aria-label={`Details of “${doc.title}”`}
          onClick={() => setOpen((o) => !o)}
        >
          Details
        </button>
      </span>
      {open && <DetailsForm id={`${id}-details`} doc={doc} onSave={onSave} onDone={() => setOpen(false)} />}
    </div>
  );
}

function DetailsForm({
  id,
  doc,
  onSave,
  onDone,
}: {
  readonly id: string;
  readonly doc: LibraryDocument;
  readonly onSave: Props['onSave'];
  readonly onDone: () => void;
}) {
  const [title, setTitle] = useState(doc.title);
  const [language, setLanguage] = useState(doc.language ?? '');
  const [sourceType, setSourceType] = useState<SourceType>(doc.sourceType);
  const [status, setStatus] = useState<DocStatus>(doc.status);
  const [date, setDate] = useState(doc.effectiveDate ?? '');
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (title.trim() === '') {
      setMessage('The title cannot be empty.');
      return;
    }
    setSaving(true);
    const patch: DocumentMetaPatch = {
      ...(title.trim() !== doc.title ? { title: title.trim() } : {}),
      ...(language.trim() !== (doc.language ?? '')
        ? { language: language.trim() === '' ? null : language.trim() }
        : {}),
      ...(sourceType !== doc.sourceType ? { sourceType } : {}),
      ...(status !== doc.status ? { status } : {}),
      ...(date !== (doc.effectiveDate ?? '') ? { effectiveDate: date === '' ? null : date } : {}),
    };
    const error = Object.keys(patch).length === 0 ? null : await onSave(doc.docId, patch);
    setSaving(false);
    if (error) setMessage(error);
    else onDone();
  };
  return (
    <form id={id} className="details-form" onSubmit={(e) => void submit(e)} aria-label={`Details of “${doc.title}”`}>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input id={`${id}-title`} type="text" value={title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-type`}>Source type</label>
        <select id={`${id}-type`} value={sourceType} onChange={(e) => setSourceType(e.target.value as SourceType)}>
          {SOURCE_TYPES.map((t) => (
            <option key={t} value={t}>
              {SOURCE_TYPE_LABEL[t]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={status} onChange={(e) => setStatus(e.target.value as DocStatus)}>
          {DOC_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-date`}>Effective date</label>
        <input id={`${id}-date`} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-lang`}>Language</label>
        <input
          id={`${id}-lang`}
          type="text"
          value={language}
          placeholder="e.g. en, fr, ja"
          autoComplete="off"
          onChange={(e) => setLanguage(e.target.value)}
        />
      </div>
      <div className="field field-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      {doc.fileName && <p className="muted">File: {doc.fileName}</p>}
    </form>
  );
}
