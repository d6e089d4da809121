// Opens the store the way the server would (DATABASE_URL or PGlite in DATA_DIR), for CLI scripts.
import { ConfigError, loadConfigWithEmulator } from '../config.js';
import { openStore } from '../main.js';
import { DataFolderInUseError } from '../db/data-folder-lock.js';

export async function openConfiguredStore() {
  try {
    // Scripts never touch Firebase: a placeholder emulator host satisfies the demo project check.
    return await openStore(loadConfigWithEmulator('127.0.0.1:9099'));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    if (error instanceof DataFolderInUseError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
