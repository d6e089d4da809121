// How many alerts the wall display holds (the server sends the same number): the lists
// page through all of them, so this is a safety cap, not what fits on a screen.
export const DISPLAY_ALERT_ROWS = 200;
