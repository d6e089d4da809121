// Which item field each column of a file fills, guessed from the header (case, spaces,
// underscores and accents ignored; common synonyms accepted). The user can change it.
import { IMPORT_FIELDS, type ImportField } from '../../../shared/import';

/** Column index -> field; a column left out is not imported. */
export type ColumnMapping = Array<ImportField | null>;

const SYNONYMS: Record<ImportField, string[]> = {
  name: [
    'name',
    'item',
    'item name',
    'product',
    'product name',
    'title',
    'article',
    'nom',
    'designation',
    'bezeichnung',
  ],
  sku: [
    'sku',
    'item code',
    'code',
    'product code',
    'part number',
    'part no',
    'article number',
    'reference',
    'ref',
    'artikelnummer',
  ],
  barcode: ['barcode', 'bar code', 'ean', 'ean13', 'ean 13', 'upc', 'gtin', 'code barre', 'code barres', 'code-barres'],
  category: ['category', 'categories', 'group', 'department', 'type', 'family', 'categorie', 'kategorie'],
  site: ['site', 'site code', 'site name', 'store', 'shop', 'branch', 'warehouse', 'magasin', 'filiale'],
  location: [
    'location',
    'location code',
    'location name',
    'bin',
    'shelf',
    'storage location',
    'place',
    'emplacement',
    'lagerort',
    'lagerplatz',
  ],
  quantity: ['quantity', 'qty', 'stock', 'on hand', 'in stock', 'count', 'units', 'quantite', 'menge', 'bestand'],
  price: ['price', 'unit price', 'cost', 'unit cost', 'sale price', 'retail price', 'prix', 'prix unitaire', 'preis'],
  threshold: [
    'threshold',
    'min',
    'minimum',
    'min stock',
    'minimum stock',
    'reorder level',
    'reorder point',
    'low stock',
    'alert level',
    'seuil',
  ],
  description: ['description', 'details', 'notes', 'note', 'comment', 'comments', 'beschreibung'],
  expiry_date: [
    'expiry date',
    'expiry',
    'expires',
    'expiration',
    'expiration date',
    'best before',
    'use by',
    'date de peremption',
  ],
  image_url: ['image url', 'image', 'image link', 'picture', 'photo', 'photo url', 'img'],
};

/** "Unit_Price " -> "unit price"; "Quantité" -> "quantite". */
export function normalizeHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[_\-./()#:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const LOOKUP = new Map<string, ImportField>(
  IMPORT_FIELDS.flatMap((field) => SYNONYMS[field].map((synonym) => [normalizeHeader(synonym), field] as const)),
);

/** The first column that names a field gets it; later ones are left out. */
export function guessMapping(header: string[]): ColumnMapping {
  const taken = new Set<ImportField>();
  return header.map((title) => {
    const field = LOOKUP.get(normalizeHeader(title));
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/** The fields a new item needs a column for (quantity and threshold default to 0 when absent). */
export const REQUIRED_FIELDS: ImportField[] = ['name', 'sku', 'category', 'price'];

export function missingFields(mapping: ColumnMapping): ImportField[] {
  return REQUIRED_FIELDS.filter((field) => !mapping.includes(field));
}

/** The mapped fields, in column order, and a row's cells in the same order (what the API takes). */
export function mappedColumns(mapping: ColumnMapping): { fields: ImportField[]; indexes: number[] } {
  const fields: ImportField[] = [];
  const indexes: number[] = [];
  mapping.forEach((field, i) => {
    if (field) {
      fields.push(field);
      indexes.push(i);
    }
  });
  return { fields, indexes };
}
