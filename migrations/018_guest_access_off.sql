-- Guest (anonymous) sign-in is off unless a manager turned it on, because anyone with the
-- public web API key can sign in anonymously. The default in shared/accounts.ts is now off; a
-- settings row written under the old default (on) carries that default as if chosen, so it is
-- turned off here unless a SettingsChanged event ever set allowGuests: then the row already
-- holds the manager's last choice. A rebuild of the projection from events gives the same row.
update settings set allow_guests = false
where id = 1
  and not exists (
    select 1 from events
    where stream_id = 'settings' and type = 'SettingsChanged' and (data -> 'changes') ? 'allowGuests'
  );
