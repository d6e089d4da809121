// A burst of low-stock alerts (an import sending hundreds of items low) shows the first few
// one by one and sums up the rest in one message, instead of a toast per item.
import { describe, expect, it } from 'vitest';
import { createBurstGate } from '../../client/features/alerts/alert-burst.js';

function gateWithClock() {
  const timers: Array<() => void> = [];
  const shown: number[] = [];
  const summaries: number[] = [];
  const gate = createBurstGate({
    max: 3,
    windowMs: 2000,
    onSummary: (held) => summaries.push(held),
    schedule: (run) => timers.push(run),
  });
  return { gate, shown, summaries, endWindow: () => timers.splice(0).forEach((run) => run()) };
}

describe('alert bursts', () => {
  it('shows three of 500 alerts and sums up the other 497 in one message', () => {
    const { gate, shown, summaries, endWindow } = gateWithClock();
    for (let i = 0; i < 500; i++) gate(() => shown.push(i));
    expect(shown).toEqual([0, 1, 2]);
    endWindow();
    expect(summaries).toEqual([497]);
  });

  it('shows a few alerts one by one with no summary, and starts afresh after the window', () => {
    const { gate, shown, summaries, endWindow } = gateWithClock();
    gate(() => shown.push(1));
    gate(() => shown.push(2));
    endWindow();
    gate(() => shown.push(3));
    gate(() => shown.push(4));
    gate(() => shown.push(5));
    gate(() => shown.push(6));
    endWindow();
    expect(shown).toEqual([1, 2, 3, 4, 5]);
    expect(summaries).toEqual([1]);
  });
});
