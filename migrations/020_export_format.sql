-- CSV export formats: the format a manager picked for the store's exports
-- ('standard', 'excel' or 'file'; null until one is picked) and the delimiter and encoding
-- of the store's last imported file ({"delimiter": "semicolon", "encoding": "windows-1252"},
-- null before any import). Both come from SettingsChanged events, like every settings column.
alter table settings add column export_format text;
alter table settings add column import_format jsonb;
