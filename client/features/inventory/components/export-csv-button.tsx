// The Export CSV button of the Inventory and Category pages: downloads what the screen's
// filters show in the store's format (or one picked from its menu), says so while it
// runs, and says why when it fails (client/components/csv-export-button.tsx).
import { CsvExportButton } from '../../../components/csv-export-button';
import { downloadItemsCsv, type ItemsCsvFilter } from '../items-csv';

export function ExportCsvButton({ filter, label = 'Export CSV' }: { filter: ItemsCsvFilter; label?: string }) {
  return <CsvExportButton label={label} onExport={(format) => downloadItemsCsv(filter, format)} />;
}
