// The Export CSV button of the Inventory and Category pages: downloads what the screen's
// filters show in the store's format (or one picked from its menu), says so while it
// runs, and says why when it fails (client/components/csv-export-button.tsx). Its menu
// offers a row per location (Site, Location, Quantity there), which a list filtered by a
// site or location always gets.
import { useState } from 'react';
import { CsvExportButton } from '../../../components/csv-export-button';
import { csvByLocation, downloadItemsCsv, type ItemsCsvFilter } from '../items-csv';

export function ExportCsvButton({ filter, label = 'Export CSV' }: { filter: ItemsCsvFilter; label?: string }) {
  const [byLocation, setByLocation] = useState(false);
  const fixed = csvByLocation({ ...filter, byLocation: false });
  const shape = {
    label: 'One row per location',
    hint: 'Site, Location and the quantity there',
    checked: fixed || byLocation,
    fixed,
    onChange: setByLocation,
  };
  return (
    <CsvExportButton
      label={label}
      shape={shape}
      onExport={(format) => downloadItemsCsv({ ...filter, byLocation: shape.checked }, format)}
    />
  );
}
