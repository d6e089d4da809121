// The landing page's four feature cards.
import type { IconName } from '../../../components/icons';

export const FEATURES: { title: string; text: string; icon: IconName }[] = [
  {
    title: 'Real-time inventory tracking',
    text: 'Every sale, restock and count updates stock levels on every screen the moment it happens.',
    icon: 'zap',
  },
  {
    title: 'Role-based user access',
    text: 'Permissions for managers and staff: staff update stock, managers edit items and manage the team.',
    icon: 'shield',
  },
  {
    title: 'Low-stock alerts',
    text: 'Set a threshold per item and get alerted as soon as stock falls to it, before customers notice.',
    icon: 'bell',
  },
  {
    title: 'Activity and change logs',
    text: 'See who changed what and when, with a field-by-field history for every item.',
    icon: 'history',
  },
];
