// How differences read: +2, −3, 0 (a real minus sign), and money the same way.
import type { MoneyFormat } from '../../../../shared/money-format';
import { formatPrice } from '../../../lib/format';

export const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
export const signedMoney = (n: number, money: MoneyFormat) =>
  n > 0 ? `+${formatPrice(n, money)}` : n < 0 ? `−${formatPrice(-n, money)}` : formatPrice(0, money);
