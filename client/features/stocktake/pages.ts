// The stocktake feature's routed screens: /stocktake and /stocktake/:id.
export { StocktakeListPage } from './components/stocktake-list-page';
export { StocktakeSessionPage } from './components/stocktake-session-page';
