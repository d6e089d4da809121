// The inventory feature's routed screens, loaded together as one lazy chunk.
export { InventoryPage } from './components/inventory-page';
export { CategoryPage } from './components/category-page';
export { ItemDetailPage } from './components/item-detail-page';
export { AddItemPage } from './components/add-item-page';
export { EditItemPage } from './components/edit-item-page';
export { ChangesPage } from './components/changes-page';
