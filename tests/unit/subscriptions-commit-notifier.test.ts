// The after-commit NOTIFY is coalesced: however many commits arrive while one notification
// is in flight, exactly one more follows it; a failed one does not stop the next.
import { describe, expect, it } from 'vitest';
import { createCommitNotifier } from '../../server/subscriptions/commit-notifier.js';

function controlledSend() {
  const pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  return {
    pending,
    send: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('commit notifier', () => {
  it('sends one notification, then exactly one more for all commits that arrived meanwhile', async () => {
    const sender = controlledSend();
    const notifier = createCommitNotifier(sender.send, () => undefined);
    notifier.poke();
    expect(sender.pending).toHaveLength(1);
    for (let i = 0; i < 50; i++) notifier.poke();
    expect(sender.pending).toHaveLength(1); // at most one in flight
    sender.pending[0]!.resolve();
    await tick();
    expect(sender.pending).toHaveLength(2);
    sender.pending[1]!.resolve();
    await notifier.idle();
    expect(sender.pending).toHaveLength(2);
  });

  it('keeps notifying after a failed notification', async () => {
    const sender = controlledSend();
    const errors: unknown[] = [];
    const notifier = createCommitNotifier(sender.send, (e) => errors.push(e));
    notifier.poke();
    notifier.poke();
    sender.pending[0]!.reject(new Error('connection lost'));
    await tick();
    expect(errors).toHaveLength(1);
    expect(sender.pending).toHaveLength(2);
    sender.pending[1]!.resolve();
    await notifier.idle();
    notifier.poke();
    expect(sender.pending).toHaveLength(3);
  });
});
