// The Export CSV button of the Inventory and Category pages: downloads what the screen's
// filters show, says so while it runs, and says why when it fails.
import { useState } from 'react';
import { Icon } from '../../../components/icons';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toasts';
import { downloadItemsCsv, type ItemsCsvFilter } from '../items-csv';

export function ExportCsvButton({ filter, label = 'Export CSV' }: { filter: ItemsCsvFilter; label?: string }) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      await downloadItemsCsv(filter);
    } catch (e) {
      toast.error(`Export failed: ${errorMessage(e, 'Network error')}`);
    } finally {
      setExporting(false);
    }
  };
  return (
    <button type="button" className="btn btn-secondary" onClick={run} disabled={exporting}>
      <Icon name="arrow-right" size={18} className="export-icon" /> {exporting ? 'Exporting...' : label}
    </button>
  );
}
