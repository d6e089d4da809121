// The loading screen: a small truck driving along a road (the drawing is
// truck-scene.ts, shared with the copy index.html shows before any script has run).
import { TRUCK_SCENE_HTML } from './truck-scene';

const scene = { __html: TRUCK_SCENE_HTML };

export function TruckLoader({ label = 'Loading...', fullScreen = true }: { label?: string; fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'truck-loader truck-loader-full' : 'truck-loader'} role="status" aria-live="polite">
      {/* A fixed drawing of our own (truck-scene.ts), never user content. */}
      <div className="truck-scene" aria-hidden="true" dangerouslySetInnerHTML={scene} />
      <span className="truck-label">{label}</span>
    </div>
  );
}
