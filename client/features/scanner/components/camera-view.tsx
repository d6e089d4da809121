// The live camera preview with a frame to aim at. Decoding happens in the camera actor on
// its own copy of the stream; this only shows it.
import { useEffect, useRef } from 'react';

export function CameraView({ stream }: { stream: MediaStream | null }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    element.srcObject = stream;
    if (stream) element.play().catch(() => undefined);
  }, [stream]);

  return (
    <div className="scanner-camera">
      <video ref={video} muted playsInline aria-label="Camera preview" />
      <div className="scanner-aim" aria-hidden="true" />
      {stream ? null : <p className="scanner-camera-status">Starting the camera…</p>}
    </div>
  );
}
