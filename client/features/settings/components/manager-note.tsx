// What everyone but a store manager sees where settings can't be changed by them.
import { Icon } from '../../../components/icons';

export function ManagerNote() {
  return (
    <p className="manager-note" role="note">
      <Icon name="lock" size={16} /> These settings can only be modified by store managers.
    </p>
  );
}
