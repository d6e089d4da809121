// A PostgreSQL from testcontainers, only where a Docker engine actually answers.
import { existsSync } from 'node:fs';

export async function startPostgresContainerIfDocker(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const socket = '/var/run/docker.sock';
  if (!existsSync(socket) && !process.env.DOCKER_HOST) return null;
  try {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) };
  } catch (error) {
    console.warn(`Docker found but no PostgreSQL container could start: ${(error as Error).message}`);
    return null;
  }
}
