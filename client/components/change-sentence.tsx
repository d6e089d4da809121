// An activity entry's sentence ("-5 (sale) Milk, by Sam, note: table 4") with its numbers,
// names and values emphasised, from the parts the server sends (shared/change-sentence.ts).
// The text is the entry's `details` exactly: only spans are added around parts.
import type { ActivityEntry } from '../../shared/inventory';
import type { SentencePart } from '../../shared/change-sentence';
import './change-sentence.css';

const className = (part: SentencePart) => {
  const tone =
    part.role === 'delta'
      ? part.text.startsWith('-')
        ? ' sentence-delta-down'
        : part.text.startsWith('+')
          ? ' sentence-delta-up'
          : ''
      : '';
  return `sentence-${part.role}${tone}`;
};

export function ChangeSentence({ entry }: { entry: Pick<ActivityEntry, 'details' | 'summary'> }) {
  // An entry from before the server sent parts (a saved copy of the page) is its details, plain.
  const parts = entry.summary && entry.summary.length > 0 ? entry.summary : [{ text: entry.details }];
  return (
    <>
      {parts.map((part, i) =>
        part.role ? (
          <span key={i} className={className(part)}>
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
