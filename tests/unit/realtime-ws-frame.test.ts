// The feed frames its messages itself; the `ws` library's own frame parser must read them
// back exactly, at every length encoding (7-bit, 16-bit and 64-bit).
import { describe, expect, it } from 'vitest';
import type { Writable } from 'node:stream';
import * as ws from 'ws';
import { textFrame } from '../../server/realtime/ws-frame.js';

// ws exports its frame parser (Receiver) but @types/ws does not declare it.
const Receiver = (ws as unknown as { Receiver: new (options: object) => Writable }).Receiver;

function parse(frames: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const messages: string[] = [];
    const receiver = new Receiver({ isServer: false, maxPayload: 0 });
    receiver.on('message', (data: Buffer, isBinary: boolean) => {
      expect(isBinary).toBe(false);
      messages.push(data.toString());
    });
    receiver.on('error', reject);
    receiver.write(frames, () => resolve(messages));
  });
}

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 65_535, 65_536, 200_000])('frames a %i-byte message that ws reads back', async (length) => {
    const text = 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
    expect(await parse(textFrame(Buffer.from(text)))).toEqual([text]);
  });

  it('frames several messages written as one chunk', async () => {
    const chunk = Buffer.concat(['{"a":1}', 'x'.repeat(300), '{"b":2}'].map((m) => textFrame(Buffer.from(m))));
    expect(await parse(chunk)).toEqual(['{"a":1}', 'x'.repeat(300), '{"b":2}']);
  });
});
