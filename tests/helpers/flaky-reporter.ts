// Lists every test that passed only on a retry (browser tests get one: see BROWSER_TESTS in
// browser.ts), with what the failed attempt said, at the end of the run and in
// test-results/flaky.json. A retry keeps one slow moment on a loaded CI machine from failing
// the landing; this list keeps the moment from going unnoticed.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

interface FlakyTest {
  file: string;
  name: string;
  retries: number;
  firstError: string | undefined;
}

export default class FlakyReporter implements Reporter {
  private flaky: FlakyTest[] = [];

  onTestCaseResult(test: TestCase): void {
    const diagnostic = test.diagnostic();
    if (!diagnostic?.flaky) return;
    // A test that passed on a retry still reports the failed attempt's errors.
    const errors = test.result().errors ?? [];
    this.flaky.push({
      file: test.module.relativeModuleId,
      name: test.fullName,
      retries: diagnostic.retryCount,
      firstError: errors[0]?.message?.split('\n')[0],
    });
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/flaky.json', JSON.stringify(this.flaky, null, 2));
    const lines = this.flaky.map(
      (t) =>
        `  ${t.file} > ${t.name} (passed on retry ${t.retries})${t.firstError ? `\n      first attempt: ${t.firstError}` : ''}`,
    );
    process.stdout.write(`\nFlaky: ${this.flaky.length} test(s) passed only on a retry:\n${lines.join('\n')}\n\n`);
  }
}
