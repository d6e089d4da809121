// The printable labels: pages of the chosen label stock, each label at its exact place in
// millimetres (LabelPages, whatever the label shows), and an item's label: its QR code, name,
// price (in the store's currency) and linear code (EAN-13 or Code 128). Used for the
// on-screen preview and, unchanged, for printing.
import type { ReactNode } from 'react';
import type { Item } from '../../../../shared/inventory';
import { formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { symbologyName, type LabelCodes } from '../label-codes';
import { labelPosition, paginate, type LabelPreset } from '../label-presets';

export const mm = (value: number) => `${value}mm`;

/** Sizes inside a label, from its height, so every stock keeps the same proportions. */
export function labelLayout(preset: LabelPreset) {
  const { width, height } = preset.label;
  const padding = Math.min(2.5, height * 0.07);
  const qr = Math.min(height - 2 * padding, width * 0.4);
  return {
    padding,
    qr,
    nameSize: Math.max(2.4, height * 0.085),
    barHeight: height * 0.28,
    codeSize: Math.max(1.9, height * 0.07),
  };
}

export type LabelLayout = ReturnType<typeof labelLayout>;

/** Pages of the stock with one label per entry, each drawn by `children` inside its die-cut. */
export function LabelPages<T>({
  preset,
  labels,
  keyOf,
  children,
}: {
  preset: LabelPreset;
  labels: readonly T[];
  keyOf: (label: T) => string;
  children: (label: T, layout: LabelLayout) => ReactNode;
}) {
  const layout = labelLayout(preset);
  return (
    <div className="label-sheet">
      {paginate(preset, labels).map((page, pageIndex) => (
        <section
          key={pageIndex}
          className="label-page"
          aria-label={`Label sheet ${pageIndex + 1}`}
          style={{ width: mm(preset.page.width), height: mm(preset.page.height) }}
        >
          {page.map((label, index) => {
            const position = labelPosition(preset, index);
            return (
              <div
                key={keyOf(label)}
                className="label"
                style={{
                  left: mm(position.left),
                  top: mm(position.top),
                  width: mm(preset.label.width),
                  height: mm(preset.label.height),
                  padding: mm(layout.padding),
                  gap: mm(layout.padding),
                }}
              >
                {children(label, layout)}
              </div>
            );
          })}
        </section>
      ))}
    </div>
  );
}

export function LabelSheet({
  preset,
  items,
  codes,
}: {
  preset: LabelPreset;
  items: readonly Item[];
  codes: Record<string, LabelCodes>;
}) {
  const money = useStoreMoney();
  return (
    <LabelPages preset={preset} labels={items} keyOf={(item) => item.id}>
      {(item, layout) => {
        const itemCodes = codes[item.id];
        return (
          <>
            {itemCodes ? (
              <img
                className="label-qr"
                src={itemCodes.qrSvg}
                alt={`QR code: ${itemCodes.url}`}
                style={{ width: mm(layout.qr), height: mm(layout.qr) }}
              />
            ) : null}
            <div className="label-info">
              <p className="label-name" style={{ fontSize: mm(layout.nameSize) }}>
                {item.name}
              </p>
              <p className="label-price" style={{ fontSize: mm(layout.nameSize * 1.1) }}>
                {formatPrice(item.price, money)}
              </p>
              {itemCodes ? (
                <div className="label-barcode">
                  <img
                    src={itemCodes.linearSvg}
                    alt={`${symbologyName(itemCodes.symbology)}: ${itemCodes.code}`}
                    style={{ height: mm(layout.barHeight) }}
                  />
                  <span style={{ fontSize: mm(layout.codeSize) }}>{itemCodes.code}</span>
                </div>
              ) : null}
            </div>
          </>
        );
      }}
    </LabelPages>
  );
}
