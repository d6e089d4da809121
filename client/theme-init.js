/* global localStorage, window, document */
// Sets the theme class before the first paint, so a dark-theme user never sees a white flash.
// Same rule as client/lib/theme.ts: stored light/dark, else the OS preference, else light.
(function () {
  var theme = null;
  try {
    var stored = localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark') theme = stored;
  } catch {
    /* storage blocked: fall through */
  }
  if (!theme && window.matchMedia) {
    if (window.matchMedia('(prefers-color-scheme: dark)').matches) theme = 'dark';
    else if (window.matchMedia('(prefers-color-scheme: light)').matches) theme = 'light';
  }
  theme = theme || 'light';
  document.documentElement.classList.add(theme);
  document.documentElement.style.colorScheme = theme;
})();
