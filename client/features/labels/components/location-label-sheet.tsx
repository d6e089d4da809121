// A location's printed label, on the same pages as item labels (LabelPages): its QR code, its
// name, its code, its site (and the places it is inside), and a Code 128 of the QR's text
// under it, for hand scanners. Black on white whatever the theme; unchanged when printed.
import { LabelPages, mm } from './label-sheet';
import type { LabelPreset } from '../label-presets';
import type { LocationCodes, LocationLabel } from '../location-labels';

export function LocationLabelSheet({
  preset,
  labels,
  codes,
}: {
  preset: LabelPreset;
  labels: readonly LocationLabel[];
  codes: Record<string, LocationCodes>;
}) {
  return (
    <LabelPages preset={preset} labels={labels} keyOf={(label) => label.id}>
      {(label, layout) => {
        const drawn = codes[label.id];
        return (
          <>
            {drawn ? (
              <img
                className="label-qr"
                src={drawn.qrSvg}
                alt={`QR code: ${label.text}`}
                style={{ width: mm(layout.qr), height: mm(layout.qr) }}
              />
            ) : null}
            <div className="label-info">
              <p className="label-name" style={{ fontSize: mm(layout.nameSize * 1.15) }}>
                {label.name}
              </p>
              <p className="label-location-code" style={{ fontSize: mm(layout.nameSize * 1.05) }}>
                {label.code}
              </p>
              <p className="label-location-site" style={{ fontSize: mm(layout.codeSize) }}>
                {label.siteName} ({label.siteCode})
              </p>
              {label.within ? (
                <p className="label-location-site" style={{ fontSize: mm(layout.codeSize) }}>
                  in {label.within}
                </p>
              ) : null}
              {drawn ? (
                <div className="label-barcode">
                  <img src={drawn.linearSvg} alt={`Code 128: ${label.text}`} style={{ height: mm(layout.barHeight) }} />
                  <span style={{ fontSize: mm(layout.codeSize) }}>{label.text}</span>
                </div>
              ) : null}
            </div>
          </>
        );
      }}
    </LabelPages>
  );
}
