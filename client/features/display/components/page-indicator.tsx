// "Page 2 of 3" under a rotating list, with a dot per page and a thin bar that fills until
// the next page, so a passer-by knows there is more and when it comes. Nothing when the
// list fits on one page (the line keeps its height so the list never jumps). Dots only up to a dozen pages.
// Past this many pages dots stop telling anything; the label still does.
const MAX_DOTS = 12;

export function PageIndicator({
  page,
  pages,
  everyMs,
  testId,
}: {
  page: number;
  pages: number;
  everyMs: number;
  testId: string;
}) {
  return (
    <div className="display-pages">
      {pages > 1 ? (
        <>
          {pages <= MAX_DOTS ? (
            <span className="display-pages-dots" aria-hidden="true">
              {Array.from({ length: pages }, (_, i) => (
                <span key={i} className={i === page ? 'display-pages-dot display-pages-dot-on' : 'display-pages-dot'} />
              ))}
            </span>
          ) : null}
          <span className="display-pages-label" data-testid={testId}>
            Page {page + 1} of {pages}
          </span>
          {/* Restarted on every page (key), it runs on the compositor (transform only). */}
          <span className="display-pages-progress" aria-hidden="true">
            <span key={page} className="display-pages-progress-fill" style={{ animationDuration: `${everyMs}ms` }} />
          </span>
        </>
      ) : null}
    </div>
  );
}
