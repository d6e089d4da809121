// Step 1: choose or drop a CSV file.
import { useState, type DragEvent } from 'react';
import { Icon } from '../../../components/icons';

export function UploadStep({ onFile, busy }: { onFile: (file: File) => void; busy: boolean }) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <label
      className={`import-drop card${over ? ' import-drop-over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <Icon name="list" size={32} />
      <strong>{busy ? 'Reading the file…' : 'Drop a CSV file here, or choose one'}</strong>
      <span className="muted">
        Comma, semicolon or tab separated; UTF-8 or Windows (ANSI) text. The first row names the columns.
      </span>
      <input
        type="file"
        accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values"
        aria-label="CSV file"
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
          event.target.value = '';
        }}
      />
    </label>
  );
}
