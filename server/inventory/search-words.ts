// The search dictionary (migrations/007_search_words.sql): every word items can be found by,
// so a misspelt query word is matched against a short list instead of every item's text.
import { sql } from 'kysely';
import type { Transaction } from '../eventstore/types.js';

/** Shortest word kept; words are letters only, as the migration splits them ('usb-c' gives 'usb'). */
const MIN_WORD = 3;

/**
 * Adds the words of the given texts. One statement with the words in order, so concurrent
 * writers adding the same new word wait for each other but can never deadlock.
 */
export async function rememberWords(trx: Transaction, ...texts: Array<string | null | undefined>): Promise<void> {
  const text = texts.filter(Boolean).join(' ');
  if (!text) return;
  await sql`insert into search_words (word)
    select distinct w from regexp_split_to_table(lower(${text}), '[^[:alpha:]]+') w
    where length(w) between ${MIN_WORD} and 40 order by w
    on conflict do nothing`.execute(trx);
}

/** Edit distance, for a handful of candidate words. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Known words a misspelt `word` may have meant: close by trigrams (a loose first cut the
 * index answers), then at most one edit for short words and two for longer ones, nearest
 * first. Empty for words too short to correct.
 */
export async function correctionsOf(trx: Transaction, word: string, most = 5): Promise<string[]> {
  if (word.length < MIN_WORD || !/^\p{L}+$/u.test(word)) return [];
  // Low on purpose: 'lmp' and 'lamp' share only 2 of 7 trigrams (0.29).
  await sql`set local pg_trgm.similarity_threshold = 0.2`.execute(trx);
  const rows = await sql<{ word: string }>`select word from search_words
    where word operator(public.%) ${word} and word <> ${word}
    order by public.similarity(word, ${word}) desc, word limit 50`.execute(trx);
  const allowed = word.length <= 4 ? 1 : 2;
  return rows.rows
    .map((r) => ({ word: r.word, distance: editDistance(word, r.word) }))
    .filter((c) => c.distance <= allowed)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, most)
    .map((c) => c.word);
}
