// /stocktake and /stocktake/:id, with the scanner feature's camera given to the count page
// (features meet here, not in each other).
import { StocktakeListPage, StocktakeSessionPage } from '../features/stocktake/pages';
import { StocktakeScanButton } from './stocktake-camera';

export function StocktakeListRoute() {
  return <StocktakeListPage />;
}

export function StocktakeSessionRoute() {
  return <StocktakeSessionPage ScanButton={StocktakeScanButton} />;
}
