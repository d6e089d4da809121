// The camera as an actor of the scanner machine: opens the camera (the back one where
// there is a choice), hands the stream up for the preview, and reads frames with zxing
// until a code shows, then reports it once. Stopping the actor (the machine leaving the
// camera state) turns the camera off.
import { fromCallback } from 'xstate';

export type CameraEvent =
  | { type: 'CAMERA_READY'; stream: MediaStream }
  | { type: 'CAMERA_FAILED'; message: string }
  | { type: 'DETECTED'; text: string };

/** Time between decoding attempts: quick enough to feel instant, light on a phone's battery. */
const SCAN_INTERVAL_MS = 120;
/** Frames are read at most this wide: bigger costs time and gains nothing for a barcode. */
const MAX_FRAME_WIDTH = 1280;

export const CAMERA_DENIED =
  'Camera access was denied. Allow the camera for this site in your browser settings, or type the code below.';
export const NO_CAMERA = 'No camera was found on this device. Type the code below instead.';

function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return CAMERA_DENIED;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return NO_CAMERA;
  if (name === 'NotReadableError')
    return 'The camera is in use by another app. Close it and scan again, or type the code below.';
  return 'The camera could not start. Type the code below instead.';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const cameraScanner = fromCallback<{ type: 'STOP' }, void, CameraEvent>(({ sendBack }) => {
  let stopped = false;
  let stream: MediaStream | null = null;
  const release = () => stream?.getTracks().forEach((track) => track.stop());

  const run = async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      sendBack({ type: 'CAMERA_FAILED', message: NO_CAMERA });
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' } },
        audio: false,
      });
    } catch (error) {
      if (!stopped) sendBack({ type: 'CAMERA_FAILED', message: cameraProblem(error) });
      return;
    }
    if (stopped) return release();
    sendBack({ type: 'CAMERA_READY', stream });

    let decodeFrame: (frame: ImageData) => Promise<string | null>;
    try {
      ({ decodeFrame } = await import('./zxing-reader'));
    } catch {
      if (!stopped)
        sendBack({
          type: 'CAMERA_FAILED',
          message: 'The barcode reader could not load. Check the connection, or type the code below.',
        });
      return;
    }
    // A video element of our own to read frames from, so the preview can come and go.
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    await video.play().catch(() => undefined);
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('No 2D canvas');

    while (!stopped) {
      if (video.videoWidth > 0) {
        const scale = Math.min(1, MAX_FRAME_WIDTH / video.videoWidth);
        canvas.width = Math.round(video.videoWidth * scale);
        canvas.height = Math.round(video.videoHeight * scale);
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
        const text = await decodeFrame(context.getImageData(0, 0, canvas.width, canvas.height));
        if (text && !stopped) {
          sendBack({ type: 'DETECTED', text });
          return;
        }
      }
      await sleep(SCAN_INTERVAL_MS);
    }
  };

  run().catch(() => {
    if (!stopped)
      sendBack({ type: 'CAMERA_FAILED', message: 'The camera could not start. Type the code below instead.' });
  });
  return () => {
    stopped = true;
    release();
  };
});
