// A transfer's status as a badge ("In transit" stands out: stock that is nowhere on a shelf),
// and the route line "Warehouse → Main store".
import { TRANSFER_STATUS_LABELS, type TransferStatus } from '../../../../shared/transfers';
import { Icon } from '../../../components/icons';

export function TransferStatusBadge({ status }: { status: TransferStatus }) {
  return <span className={`badge transfer-status transfer-status-${status}`}>{TRANSFER_STATUS_LABELS[status]}</span>;
}

export function TransferRoute({ from, to }: { from: string; to: string }) {
  return (
    <span className="transfer-route">
      <span>{from}</span>
      <Icon name="arrow-right" size={14} className="transfer-route-arrow" />
      <span>{to}</span>
    </span>
  );
}

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
