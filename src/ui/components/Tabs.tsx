import { useRef, type KeyboardEvent } from 'react';

export interface TabSpec<T extends string> {
  readonly id: T;
  readonly label: string;
}

interface Props<T extends string> {
  readonly tabs: readonly TabSpec<T>[];
  readonly selected: T;
  readonly onSelect: (id: T) => void;
  readonly label: string;
}

/** `id` of a tab's button; its panel is `panelId(id)` (ARIA tabs pattern). */
export const tabId = (id: string): string => `tab-${id}`;
export const panelId = (id: string): string => `panel-${id}`;

/**
 * A tab list following the WAI-ARIA tabs pattern: one tab in the focus order (roving tabindex),
 * arrow keys move between tabs and select them (automatic activation), Home and End jump to the
 * first and last.
 */
export function Tabs<T extends string>({ tabs, selected, onSelect, label }: Props<T>) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const move = (e: KeyboardEvent<HTMLButtonElement>, index: number): void => {
    const last = tabs.length - 1;
    const to =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (to === null) return;
    e.preventDefault();
    const tab = tabs[to];
    if (!tab) return;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="tabs">
      {tabs.map((t, i) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) refs.current.set(t.id, el);
            else refs.current.delete(t.id);
          }}
          type="button"
          role="tab"
          id={tabId(t.id)}
          aria-selected={t.id === selected}
          aria-controls={panelId(t.id)}
          tabIndex={t.id === selected ? 0 : -1}
          className="tab"
          onClick={() => onSelect(t.id)}
          onKeyDown={(e) => move(e, i)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
