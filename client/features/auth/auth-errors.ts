// The messages sign-in flows show, mapped from Firebase error codes: one plain sentence
// per cause, never Firebase's own code. Pure functions: the auth machine calls them with
// the code and, where a flow looks them up, the email's registered sign-in methods.

export type AuthFlow = 'login' | 'signup' | 'google-login' | 'google-signup' | 'guest' | 'logout' | 'session';

export const AUTH_MESSAGES = {
  invalidCredential: 'Invalid email or password',
  userNotFound: 'No account found with this email',
  wrongPassword: 'Incorrect password',
  tooManyRequests: 'Too many failed login attempts. Please try again later',
  googleAccountLogin: 'This email is associated with a Google account. Please sign in with Google.',
  loginDefault: 'Failed to login',
  googleAccountSignup: 'This email is already registered with Google. Please sign in with Google.',
  alreadyExists: 'An account already exists with this email. Please sign in instead.',
  otherMethodSignup: 'An account already exists with this email using a different sign-in method.',
  weakPassword: 'Password is too weak. Please use a stronger password',
  invalidEmail: 'Invalid email address',
  signupDefault: 'Failed to signup',
  createAccountFallback: 'Failed to create account',
  googleSignupDefault: 'Failed to sign up with Google',
  cancelled: 'Sign in was cancelled',
  popupBlocked: 'Pop-up was blocked by the browser',
  otherMethodGoogle: 'An account already exists with this email using a different sign-in method',
  googleDefault: 'Failed to login with Google',
  guestDefault: 'Failed to login anonymously',
  logoutDefault: 'Failed to logout',
  passwordsDiffer: 'Passwords do not match',
  userDisabled: 'This account has been disabled. Ask your store manager to re-enable it.',
  networkFailed: 'Network error',
} as const;

/** 'auth/invalid-credential' -> 'invalid-credential'; '' when the error carries no code. */
export function authErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code.replace(/^auth\//, '') : '';
}

const onlyGoogle = (methods: readonly string[]) => methods.includes('google.com') && !methods.includes('password');

/** Login with email and password; `methods` are the email's sign-in methods (looked up on a credential error). */
export function loginErrorMessage(code: string, methods: readonly string[] = []): string {
  switch (code) {
    case 'invalid-credential':
    case 'invalid-login-credentials':
      return onlyGoogle(methods) ? AUTH_MESSAGES.googleAccountLogin : AUTH_MESSAGES.invalidCredential;
    case 'user-not-found':
      return AUTH_MESSAGES.userNotFound;
    case 'wrong-password':
      return onlyGoogle(methods) ? AUTH_MESSAGES.googleAccountLogin : AUTH_MESSAGES.wrongPassword;
    case 'too-many-requests':
      return AUTH_MESSAGES.tooManyRequests;
    case 'invalid-email':
      return AUTH_MESSAGES.invalidEmail;
    case 'user-disabled':
      return AUTH_MESSAGES.userDisabled;
    case 'network-request-failed':
      return AUTH_MESSAGES.networkFailed;
    default:
      return AUTH_MESSAGES.loginDefault;
  }
}

/** Sign-up with email and password; `methods` are the email's existing sign-in methods. */
export function signupErrorMessage(code: string, methods: readonly string[] = []): string {
  switch (code) {
    case 'email-already-in-use':
      if (onlyGoogle(methods)) return AUTH_MESSAGES.googleAccountSignup;
      if (methods.length === 0 || methods.includes('password')) return AUTH_MESSAGES.alreadyExists;
      return AUTH_MESSAGES.otherMethodSignup;
    case 'account-exists-with-different-credential':
      return AUTH_MESSAGES.otherMethodSignup;
    case 'weak-password':
      return AUTH_MESSAGES.weakPassword;
    case 'invalid-email':
      return AUTH_MESSAGES.invalidEmail;
    case 'network-request-failed':
      return AUTH_MESSAGES.networkFailed;
    default:
      return AUTH_MESSAGES.signupDefault;
  }
}

export function googleErrorMessage(code: string, mode: 'login' | 'signup'): string {
  switch (code) {
    case 'popup-closed-by-user':
    case 'cancelled-popup-request':
    case 'user-cancelled':
      return AUTH_MESSAGES.cancelled;
    case 'popup-blocked':
      return AUTH_MESSAGES.popupBlocked;
    case 'account-exists-with-different-credential':
    case 'credential-already-in-use':
      return AUTH_MESSAGES.otherMethodGoogle;
    case 'user-disabled':
      return AUTH_MESSAGES.userDisabled;
    case 'network-request-failed':
      return AUTH_MESSAGES.networkFailed;
    default:
      return mode === 'signup' ? AUTH_MESSAGES.googleSignupDefault : AUTH_MESSAGES.googleDefault;
  }
}

export function guestErrorMessage(code: string): string {
  if (code === 'operation-not-allowed' || code === 'admin-restricted-operation')
    return 'Guest sign-in is turned off for this store';
  if (code === 'network-request-failed') return AUTH_MESSAGES.networkFailed;
  return AUTH_MESSAGES.guestDefault;
}
