// Label stock the app prints on: page size, grid and margins in millimetres, as the label
// makers publish them. A sheet is printed at 100% with no printer margins (@page margin 0),
// so each label lands on its die-cut.

export type LabelPresetId = 'a4-3x8' | 'letter-30' | 'roll-62x29';

export interface LabelPreset {
  id: LabelPresetId;
  name: string;
  /** Page size in mm (the CSS @page size). */
  page: { width: number; height: number };
  columns: number;
  rows: number;
  /** One label, in mm. */
  label: { width: number; height: number };
  /** From the page's top-left corner to the first label, in mm. */
  margin: { top: number; left: number };
  /** Between neighbouring labels, in mm. */
  gap: { x: number; y: number };
}

const INCH = 25.4;

export const LABEL_PRESETS: readonly LabelPreset[] = [
  {
    // 24 labels of 70 x 37 mm fill the width exactly and leave 1 mm of height, split top and bottom.
    id: 'a4-3x8',
    name: 'A4, 3 × 8 (70 × 37 mm)',
    page: { width: 210, height: 297 },
    columns: 3,
    rows: 8,
    label: { width: 70, height: 37 },
    margin: { top: 0.5, left: 0 },
    gap: { x: 0, y: 0 },
  },
  {
    // Avery 5160: 2 5/8 x 1 in, 3 columns x 10 rows; 1/2 in top margin, 3/16 in side margin, 1/8 in between columns.
    id: 'letter-30',
    name: 'US Letter, 30 up (Avery 5160)',
    page: { width: 8.5 * INCH, height: 11 * INCH },
    columns: 3,
    rows: 10,
    label: { width: 2.625 * INCH, height: 1 * INCH },
    margin: { top: 0.5 * INCH, left: 0.1875 * INCH },
    gap: { x: 0.125 * INCH, y: 0 },
  },
  {
    // Continuous 62 mm roll (Brother DK-22205 cut at 29 mm, or DK-11209): one label per page.
    id: 'roll-62x29',
    name: 'Roll, 62 × 29 mm',
    page: { width: 62, height: 29 },
    columns: 1,
    rows: 1,
    label: { width: 62, height: 29 },
    margin: { top: 0, left: 0 },
    gap: { x: 0, y: 0 },
  },
];

export const DEFAULT_PRESET: LabelPresetId = 'a4-3x8';

export function presetById(id: string): LabelPreset {
  return LABEL_PRESETS.find((preset) => preset.id === id) ?? LABEL_PRESETS[0]!;
}

export const labelsPerPage = (preset: LabelPreset) => preset.columns * preset.rows;

/** Where label number `index` (0-based, on its page) sits, in mm from the page's corner. */
export function labelPosition(preset: LabelPreset, index: number): { top: number; left: number } {
  const column = index % preset.columns;
  const row = Math.floor(index / preset.columns);
  return {
    left: preset.margin.left + column * (preset.label.width + preset.gap.x),
    top: preset.margin.top + row * (preset.label.height + preset.gap.y),
  };
}

/** The items split into pages of the preset. */
export function paginate<T>(preset: LabelPreset, items: readonly T[]): T[][] {
  const size = labelsPerPage(preset);
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return pages;
}
