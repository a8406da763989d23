/**
 * A scratch PostgreSQL database for one benchmark, on the server ATLEVEL_PG_URL names: created before
 * `body`, dropped after it whatever happens. `body` gets its URL and an admin client on the server.
 */
import pg from 'pg';

export async function withScratchDatabase<T>(
  serverUrl: string,
  label: string,
  body: (url: string, admin: pg.Client, name: string) => Promise<T>,
): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const name = `atlevel_bench_${label}_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    return await body(u.toString(), admin, name);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
