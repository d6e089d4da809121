-- Item barcodes: EAN-13, UPC-A, EAN-8 or Code 128 text, checked by
-- shared/barcode.ts. A barcode names one item per store, so a scan has one answer: the
-- unique index is the last word when two writers race (item-service.ts checks first, for a
-- message naming the item). Case matters: Code 128 'ab1' and 'AB1' are different labels.
-- Existing items have none, so their search text (which ends with the barcode) is unchanged.
alter table items add column barcode text;
create unique index items_barcode_unique on items (barcode);
