// How the import screens name item fields.
import type { ImportField } from '../../../../shared/import';

export const FIELD_LABELS: Record<ImportField, string> = {
  name: 'Name',
  sku: 'SKU',
  barcode: 'Barcode',
  category: 'Category',
  site: 'Site',
  location: 'Location',
  quantity: 'Quantity',
  price: 'Price',
  threshold: 'Low-stock threshold',
  description: 'Description',
  expiry_date: 'Expiry date',
  image_url: 'Image URL',
};
