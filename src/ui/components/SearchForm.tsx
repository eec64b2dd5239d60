import { useState, type FormEvent } from 'react';

interface Props {
  readonly disabled: boolean;
  readonly placeholder: string;
  readonly onSearch: (query: string) => void;
}

/** A labelled search box; Enter or the button submits. */
export function SearchForm({ disabled, placeholder, onSearch }: Props) {
  const [query, setQuery] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(query);
  };
  return (
    <form role="search" className="search-form" onSubmit={submit}>
      <label htmlFor="query">Search your documents</label>
      <div className="search-row">
        <input
          id="query"
          type="search"
          value={query}
          placeholder={placeholder}
          onChange={(e) => setQuery(e.target.value)}
          aria-describedby="query-hint"
          autoComplete="off"
        />
        <button type="submit" disabled={disabled}>
          Search
        </button>
      </div>
      <p id="query-hint" className="muted">
        {disabled
          ? 'Search is available once the library is indexed.'
          : 'Results are ranked by BM25 and embeddings, fused.'}
      </p>
    </form>
  );
}
