// Pages of a wall list: as many whole rows as its box holds, measured (ResizeObserver) rather
// than guessed, so no row is ever cut at the bottom whatever the screen. Rows have one fixed
// height each (display.css), so one row tells the size of all. The list's box gets its size
// from the layout, not from its rows, so measuring cannot feed back into what is measured.
import { useLayoutEffect, useRef, useState } from 'react';

export interface FittedPages {
  listRef: React.RefObject<HTMLUListElement | null>;
  /** Rows on one page. */
  perPage: number;
  /** The page on view, 0-based. */
  page: number;
  pages: number;
  /** Whether row `index` is on the page on view. */
  onPage: (index: number) => boolean;
}

/** Whole rows of height `row` with `gap` between them in `box` pixels; at least one. */
export function rowsThatFit(box: number, row: number, gap: number): number {
  if (!(row > 0)) return 1;
  // Half a pixel of slack for sub-pixel rounding of the boxes.
  return Math.max(1, Math.floor((box + gap + 0.5) / (row + gap)));
}

export function useFittedPages(count: number, tick: number): FittedPages {
  const listRef = useRef<HTMLUListElement>(null);
  // Until measured, every row is on the one page (the list clips them).
  const [perPage, setPerPage] = useState(Math.max(1, count));
  const hasRows = count > 0;

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !hasRows) return;
    const measure = () => {
      const row = list.querySelector<HTMLElement>(':scope > li:not([hidden])');
      if (!row) return;
      const gap = parseFloat(getComputedStyle(list).rowGap) || 0;
      setPerPage(rowsThatFit(list.clientHeight, row.getBoundingClientRect().height, gap));
    };
    measure();
    // The list changes size with the screen, and the rows' em-based height with it.
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [hasRows]);

  const pages = Math.max(1, Math.ceil(count / perPage));
  const page = tick % pages;
  return { listRef, perPage, page, pages, onPage: (index) => Math.floor(index / perPage) === page };
}
