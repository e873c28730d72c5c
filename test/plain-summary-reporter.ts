// Plain summary reporter: ends a vitest run with the line `N passed, N failed[, N skipped]` that CI reads.
import type { Reporter, TestModule } from 'vitest/node';

export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      // A file that fails to load has no tests but still fails the run.
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed++;
      for (const testCase of testModule.children.allTests()) {
        const { state } = testCase.result();
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  }
}
