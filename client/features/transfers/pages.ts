// The transfers feature's routed screens.
export { TransfersPage } from './components/transfers-page';
export { NewTransferPage } from './components/new-transfer-page';
export { TransferDetailPage } from './components/transfer-detail-page';
