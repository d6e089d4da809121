// Headless Chromium for end-to-end tests: the system browser (CHROMIUM_PATH or
// /usr/bin/chromium) driven by playwright-core. No browser is ever downloaded.
import { chromium, type Browser } from 'playwright-core';

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', ...extraArgs],
  });
}
