// How many alert rows the wall shows (the server sends the same number).
export const DISPLAY_ALERT_ROWS = 12;
