// An export button with a format menu beside it: the button saves the
// file in the store's remembered format at once; the menu shows that format checked and
// offers the others: the standard CSV (comma, UTF-8), Excel (UTF-8 with a BOM and this
// computer's list separator), and the imported file's own delimiter and encoding. Picking
// one saves the file in it; a manager's pick (Manage settings) becomes the store's format
// for everyone, anyone else's is for that download only, and the menu says which.
// The store's choice is read when the button or the menu is used, never on page load.
import { useEffect, useId, useRef, useState } from 'react';
import { describeCsvFormat, type CsvEncoding, type CsvFormat, type CsvFormatChoice } from '../../shared/csv-format';
import { errorMessage } from '../lib/api-client';
import {
  excelFormat,
  formatOfChoice,
  rememberExportFormat,
  storeCsvFormats,
  type StoreCsvFormats,
} from '../lib/csv-export-format';
import { useCan } from '../lib/session-context';
import { toast } from '../lib/toasts';
import { Icon } from './icons';
import './csv-export-button.css';

export interface CsvExportButtonProps {
  label: string;
  busyLabel?: string;
  /** The format when the store has not chosen one: 'standard' for the exports, 'file' for the rejected rows. */
  defaultChoice?: CsvFormatChoice;
  /** The file the export comes from (the rejected rows: the imported file); else the store's last import is offered. */
  file?: { name: string; format: CsvFormat };
  /** Saves the file in the format; answers the encoding the bytes really have when it may differ. */
  onExport: (format: CsvFormat) => Promise<CsvEncoding | void>;
  onDone?: () => void;
  disabled?: boolean;
  /** A choice of the file's shape, shown above the formats (the items export: one row per location). */
  shape?: ExportShapeOption;
}

/** A checkbox in the menu that changes what the file holds (not its format). */
export interface ExportShapeOption {
  label: string;
  hint?: string;
  checked: boolean;
  /** Set by the screen (a list filtered by location exports by location): shown, not changeable. */
  fixed?: boolean;
  onChange: (checked: boolean) => void;
}

/** The panel's widest (csv-export-button.css). */
const PANEL_MAX_WIDTH = 320;
const NOTHING_CHOSEN: StoreCsvFormats = { exportFormat: null, importFormat: null };

interface Option {
  choice: CsvFormatChoice;
  title: string;
  format: CsvFormat;
}

function optionsFor(fileFormat: CsvFormat | null, fileName: string | undefined): Option[] {
  const options: Option[] = [
    { choice: 'standard', title: 'Standard CSV', format: formatOfChoice('standard', null) },
    { choice: 'excel', title: 'Excel', format: excelFormat() },
  ];
  if (fileFormat)
    options.push({
      choice: 'file',
      title: fileName ? `Like ${fileName}` : 'Like the imported file',
      format: fileFormat,
    });
  return options;
}

export function CsvExportButton({
  label,
  busyLabel = 'Exporting...',
  defaultChoice = 'standard',
  file,
  onExport,
  onDone,
  disabled,
  shape,
}: CsvExportButtonProps) {
  const canRemember = useCan('settings:manage');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const [store, setStore] = useState<StoreCsvFormats | null>(null);
  /** The panel opens to the right of a button too near the left edge (a phone) to open leftwards. */
  const [openRight, setOpenRight] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const noteId = useId();

  const loadStore = () => storeCsvFormats().catch(() => NOTHING_CHOSEN);
  const fileFormat = (s: StoreCsvFormats) => file?.format ?? s.importFormat;

  const save = async (pick?: CsvFormatChoice) => {
    setOpen(false);
    setBusy(true);
    try {
      const known = pick && store ? store : await loadStore();
      if (pick && canRemember && pick !== known.exportFormat) {
        // The store's format for every session from now on; a failure does not stop the download.
        await rememberExportFormat(pick).catch((e: unknown) =>
          toast.error(`Could not remember the format: ${errorMessage(e, 'Network error')}`),
        );
      }
      const format = formatOfChoice(pick ?? known.exportFormat ?? defaultChoice, fileFormat(known));
      const written = await onExport(format);
      if (format.encoding === 'windows-1252' && written === 'utf-8-bom') {
        toast.info('Saved as UTF-8 with BOM: some text has characters Windows-1252 cannot hold');
      }
      onDone?.();
    } catch (e) {
      toast.error(`Export failed: ${errorMessage(e, 'Network error')}`);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!open) return;
    let current = true;
    setStore(null);
    void loadStore().then((s) => current && setStore(s));
    const onClick = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onClick);
    return () => {
      current = false;
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  useEffect(() => {
    if (open && store)
      (
        ref.current?.querySelector<HTMLElement>('[aria-checked="true"]') ??
        ref.current?.querySelector<HTMLElement>('[role="menuitemradio"]')
      )?.focus();
  }, [open, store]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
      toggleRef.current?.focus();
      return;
    }
    if (!open || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
    event.preventDefault();
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    items[event.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length]?.focus();
  };

  const chosen = store ? (store.exportFormat ?? defaultChoice) : null;
  const options = store ? optionsFor(fileFormat(store), file?.name) : [];

  return (
    <div className="csv-export" ref={ref} onKeyDown={onKeyDown}>
      <button
        type="button"
        className="btn btn-secondary csv-export-main"
        onClick={() => void save()}
        disabled={busy || disabled}
      >
        <Icon name="arrow-right" size={18} className="export-icon" /> {busy ? busyLabel : label}
      </button>
      <button
        ref={toggleRef}
        type="button"
        className="btn btn-secondary csv-export-toggle"
        // Not "<label>: ...": a search for the button by its label must find the button alone.
        aria-label="Choose the file format"
        title="File format"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          setOpenRight((ref.current?.getBoundingClientRect().right ?? Infinity) < PANEL_MAX_WIDTH + 16);
          setOpen((o) => !o);
        }}
        disabled={busy || disabled}
      >
        <Icon name="chevron-down" size={16} />
      </button>
      {open ? (
        <div className={openRight ? 'csv-export-panel csv-export-panel-right' : 'csv-export-panel'}>
          {shape ? (
            <label className="csv-export-shape">
              <input
                type="checkbox"
                checked={shape.checked}
                disabled={shape.fixed}
                onChange={(event) => shape.onChange(event.target.checked)}
              />
              <span>
                <span className="csv-export-title">{shape.label}</span>
                {shape.hint ? <span className="csv-export-detail">{shape.hint}</span> : null}
              </span>
            </label>
          ) : null}
          <div
            id={menuId}
            role="menu"
            aria-label="File format"
            aria-busy={!store}
            aria-describedby={store ? noteId : undefined}
          >
            {options.map((option) => (
              <button
                key={option.choice}
                type="button"
                role="menuitemradio"
                aria-checked={option.choice === chosen}
                className="action-menu-item csv-export-option"
                onClick={() => void save(option.choice)}
              >
                <Icon name="check" size={16} className="csv-export-check" />
                <span>
                  <span className="csv-export-title">{option.title}</span>
                  <span className="csv-export-detail">{describeCsvFormat(option.format)}</span>
                </span>
              </button>
            ))}
          </div>
          <p className="csv-export-note" id={noteId}>
            {!store
              ? 'Loading the store’s format...'
              : canRemember
                ? 'Your pick becomes the store’s format for everyone.'
                : 'Your pick is for this download; a manager sets the store’s format.'}
          </p>
        </div>
      ) : null}
    </div>
  );
}
