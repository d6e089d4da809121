// A user's picture, or their initials on a colour picked from their id (stable per person),
// dark enough for white text to pass WCAG AA contrast at any hue.
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  return (parts[0]![0]! + (parts.length > 1 ? parts.at(-1)![0]! : '')).toUpperCase();
}

export function hueOf(id: string): number {
  let hash = 0;
  for (const c of id) hash = (hash * 31 + c.charCodeAt(0)) % 360;
  return hash;
}

export function UserAvatar({
  id,
  name,
  avatar,
  size = 44,
}: {
  id: string;
  name: string;
  avatar: string | null;
  size?: number;
}) {
  if (avatar) return <img className="user-avatar" src={avatar} alt="" width={size} height={size} />;
  return (
    <span
      className="user-avatar"
      style={{ width: size, height: size, background: `hsl(${hueOf(id)} 50% 29%)` }}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}
