// Name / Price / Stock sort buttons: the same button again flips the order, a new column
// starts ascending.
import { Icon } from '../../../components/icons';
import type { ItemSort, SortOrder } from '../api';

const COLUMNS: { key: ItemSort; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'price', label: 'Price' },
  { key: 'stock', label: 'Stock' },
];

export function nextSort(
  current: { sort: ItemSort; order: SortOrder },
  clicked: ItemSort,
): { sort: ItemSort; order: SortOrder } {
  if (current.sort === clicked) return { sort: clicked, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { sort: clicked, order: 'asc' };
}

export function SortBar({
  sort,
  order,
  onSort,
}: {
  sort: ItemSort;
  order: SortOrder;
  onSort: (sort: ItemSort) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label="Sort items">
      <span className="segmented-label">Sort by</span>
      {COLUMNS.map((column) => {
        const active = column.key === sort;
        return (
          <button
            key={column.key}
            type="button"
            className={active ? 'segmented-button active' : 'segmented-button'}
            aria-pressed={active}
            aria-label={
              active
                ? `Sort by ${column.label}, ${order === 'asc' ? 'ascending' : 'descending'}`
                : `Sort by ${column.label}`
            }
            onClick={() => onSort(column.key)}
          >
            {column.label}
            {active ? <Icon name={order === 'asc' ? 'chevron-up' : 'chevron-down'} size={14} /> : null}
          </button>
        );
      })}
    </div>
  );
}
