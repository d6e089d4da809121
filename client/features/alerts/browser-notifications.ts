// The browser's Notification API behind three small functions, so the rest of the feature
// (and its tests) never touch the global directly.
export type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

export function notificationPermission(): NotificationPermissionState {
  if (typeof window === 'undefined' || !('Notification' in window)) return 'unsupported';
  return Notification.permission;
}

export async function requestNotificationPermission(): Promise<NotificationPermissionState> {
  if (notificationPermission() === 'unsupported') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return notificationPermission();
  }
}

/** Shows a notification; the tag makes several open tabs show one, not one each. */
export function showBrowserNotification(title: string, body: string, tag: string, onClick: () => void): boolean {
  if (notificationPermission() !== 'granted') return false;
  try {
    const notification = new Notification(title, { body, tag, icon: '/favicon.svg' });
    notification.onclick = () => {
      window.focus();
      onClick();
      notification.close();
    };
    return true;
  } catch {
    // Some browsers only allow notifications from a service worker; the toast still shows.
    return false;
  }
}
