// A field to type (or hand-scan) a code, for when the camera is missing, denied, or just
// cannot read a worn label.
import { useId, useState } from 'react';

export function CodeEntryForm({
  onSubmit,
  autoFocus = false,
}: {
  onSubmit: (code: string) => void;
  autoFocus?: boolean;
}) {
  const [code, setCode] = useState('');
  const id = useId();
  return (
    <form
      className="scanner-code-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (code.trim()) onSubmit(code.trim());
      }}
    >
      <label htmlFor={id}>Type the code instead</label>
      <div className="scanner-code-row">
        <input
          id={id}
          className="input"
          inputMode="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="e.g. 4006381333931"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoFocus={autoFocus}
        />
        <button type="submit" className="btn btn-primary btn-lg" disabled={!code.trim()}>
          Look up
        </button>
      </div>
    </form>
  );
}
