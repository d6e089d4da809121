// The white Google button used on both sign-in forms.
import { GoogleLogo } from '../../../components/icons';

export function GoogleButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <button type="button" className="btn btn-google btn-block" onClick={onClick} disabled={disabled}>
      <GoogleLogo />
      <span>{label}</span>
    </button>
  );
}
