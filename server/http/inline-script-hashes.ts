// The Content-Security-Policy sources for the client's inline scripts. The build inlines the
// tiny theme script into index.html (a separate file was one more request holding back a
// phone's first paint), and a strict script-src allows an inline script only by its hash:
// each one is hashed here from the index.html actually served, so the policy always
// matches the build.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `'sha256-...'` for each inline script of `html`. */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!, 'utf8').digest('base64')}'`,
  );
}

/** The sources for the inline scripts of the client build's index.html (none without a build). */
export function clientInlineScriptSources(clientDir: string | undefined): string[] {
  if (!clientDir) return [];
  try {
    return inlineScriptSources(readFileSync(path.join(clientDir, 'index.html'), 'utf8'));
  } catch {
    return [];
  }
}
