// Frames a text message for the wire (RFC 6455: FIN + text opcode, unmasked as servers
// send, 7/16/64-bit length). The feed frames each message once and writes the same bytes to
// every client's socket, instead of letting `ws` build a header and two writes per client.
// That is sound because permessage-deflate is off on the feed: `ws` then writes every frame
// of its own synchronously, so our writes and its (hello, pong, ping, close) stay in order.

export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, headerLength);
  return frame;
}
