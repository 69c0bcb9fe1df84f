import { execFileSync, spawn } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { ProcessRun } from './service-process.js';

export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';
const SST_SCRIPT = '/usr/bin/wsrep_sst_rsync';
const RSYNC = '/usr/bin/rsync';

/**
 * Null when this machine can run a local Galera cluster, else why not: the provider, the server,
 * rsync for state transfers, the `mysql` user the servers run as, and root to switch to it.
 */
export function galeraProblem(): string | null {
  if (process.env.GALERA_TESTS === 'off') return 'GALERA_TESTS=off';
  for (const [file, what] of [
    [GALERA_PROVIDER, 'galera-4 (apt-get install galera-4)'],
    [MARIADBD, 'mariadbd (apt-get install mariadb-server)'],
    [INSTALL_DB, 'mariadb-install-db (apt-get install mariadb-server)'],
    [SST_SCRIPT, 'wsrep_sst_rsync (apt-get install mariadb-server)'],
    [RSYNC, 'rsync (apt-get install rsync)'],
  ] as const) {
    try {
      accessSync(file, constants.R_OK);
    } catch {
      return `${file} is missing: ${what}`;
    }
  }
  if (process.getuid?.() !== 0) return 'not running as root: mariadbd --user=mysql needs root to switch to that user';
  if (mysqlIds() === undefined) return 'there is no mysql user to run mariadbd as';
  return null;
}

export function mysqlIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * `count` distinct ports free on 127.0.0.1 right now, drawn at random below Linux's ephemeral
 * range (32768-60999): a port taken from that range can be handed to an outgoing connection
 * before the server that is meant to listen on it starts.
 */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (ports.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) ports.add(port);
  }
  return [...ports];
}

export interface GaleraNode {
  readonly index: number;
  readonly dir: string;
  readonly sqlPort: number;
  readonly groupPort: number;
  readonly istPort: number;
  readonly sstPort: number;
}

export interface NodeStatus {
  readonly ready: string;
  readonly state: string;
  readonly clusterSize: number;
}

/** Galera's view of the server, from its status variables. */
async function nodeStatus(connection: Connection): Promise<NodeStatus> {
  const [rows] = await connection.query<RowDataPacket[]>(
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state_comment', 'wsrep_cluster_size')",
  );
  const value = (name: string): string => String(rows.find((row) => row.Variable_name === name)?.Value ?? '');
  return {
    ready: value('wsrep_ready'),
    state: value('wsrep_local_state_comment'),
    clusterSize: Number(value('wsrep_cluster_size')),
  };
}

/**
 * A multi-primary MariaDB Galera cluster on loopback, for tests: each node a `mariadbd` of its
 * own (its own process group, data folder and ports, all under one temporary folder), running as
 * the `mysql` user, with state transfers by rsync. The system MariaDB is never touched.
 *
 * Should the test runner die without calling stop(), a watchdog shell started with the cluster
 * kills the servers and removes the folder once the runner's process is gone.
 */
export class GaleraCluster {
  readonly nodes: GaleraNode[];
  private readonly servers = new Map<number, ProcessRun>();
  private readonly onExit = (): void => this.killAllNow();
  private stopped = false;

  private constructor(
    readonly root: string,
    nodes: GaleraNode[],
    private readonly settings: readonly string[],
  ) {
    this.nodes = nodes;
  }

  /**
   * Creates, bootstraps and joins `size` nodes (`settings`: more lines for every node's
   * [mysqld] section), and resolves once every node is Synced in a
   * cluster of `size`. On failure, everything started is stopped and removed before rejecting.
   */
  static async start(size: number, timeoutMs: number, settings: readonly string[] = []): Promise<GaleraCluster> {
    const root = mkdtempSync(join(tmpdir(), 'museum-galera-'));
    // The servers run as mysql: they must be able to reach their folders below this one.
    chmodSync(root, 0o755);
    const ports = await freePorts(size * 4);
    const nodes = Array.from({ length: size }, (_, index) => ({
      index,
      dir: join(root, `node${index}`),
      sqlPort: ports[index * 4] as number,
      groupPort: ports[index * 4 + 1] as number,
      istPort: ports[index * 4 + 2] as number,
      sstPort: ports[index * 4 + 3] as number,
    }));
    const cluster = new GaleraCluster(root, nodes, settings);
    process.once('exit', cluster.onExit);
    cluster.startWatchdog();
    try {
      const ids = mysqlIds() as { uid: number; gid: number };
      for (const node of nodes) {
        for (const sub of ['data', 'tmp']) {
          mkdirSync(join(node.dir, sub), { recursive: true });
          chownSync(join(node.dir, sub), ids.uid, ids.gid);
        }
        chownSync(node.dir, ids.uid, ids.gid);
        writeFileSync(cluster.configFile(node), cluster.config(node));
      }
      // Only the first node gets a system schema; the others receive the whole of it by SST.
      // root may log in without a password, from 127.0.0.1 only (bind-address below).
      const first = nodes[0] as GaleraNode;
      execFileSync(
        INSTALL_DB,
        [
          `--defaults-file=${cluster.configFile(first)}`,
          '--user=mysql',
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
        ],
        { stdio: 'pipe' },
      );
      const deadline = Date.now() + timeoutMs;
      cluster.startServer(0, true);
      await cluster.waitUntilSynced(0, 1, deadline - Date.now());
      for (let index = 1; index < size; index += 1) cluster.startServer(index, false);
      await Promise.all(nodes.map((node) => cluster.waitUntilSynced(node.index, size, deadline - Date.now())));
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** A DATABASE_URL for the service on `node`. */
  url(node: number, user: string, password: string, database: string, port = this.node(node).sqlPort): string {
    return `mysql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  }

  node(index: number): GaleraNode {
    const node = this.nodes[index];
    if (!node) throw new Error(`no node ${index}`);
    return node;
  }

  /** A connection as root to `node` (the caller ends it). */
  connect(node: number, database?: string): Promise<Connection> {
    return createConnection({
      host: '127.0.0.1',
      port: this.node(node).sqlPort,
      user: 'root',
      database,
      charset: 'utf8mb4',
      connectTimeout: 3000,
    });
  }

  /** Runs statements as root on `node`, one after the other, and returns the last one's rows. */
  async query<T = RowDataPacket[]>(node: number, ...statements: string[]): Promise<T> {
    const connection = await this.connect(node);
    try {
      let rows: unknown;
      for (const statement of statements) [rows] = await connection.query(statement);
      return rows as T;
    } finally {
      await connection.end();
    }
  }

  async status(node: number): Promise<NodeStatus> {
    const connection = await this.connect(node);
    try {
      return await nodeStatus(connection);
    } finally {
      await connection.end();
    }
  }

  /**
   * Resolves once `node` answers as Synced, ready, in a cluster of `clusterSize`; rejects after
   * `timeoutMs` with the last state seen and the end of the node's error log.
   */
  async waitUntilSynced(node: number, clusterSize: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + Math.max(timeoutMs, 0);
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      const server = this.servers.get(node);
      if (server === undefined) throw new Error(`node ${node} is not running`);
      try {
        const status = await this.status(node);
        if (status.ready === 'ON' && status.state === 'Synced' && status.clusterSize === clusterSize) return;
        last = `wsrep_ready=${status.ready}, state ${status.state}, cluster size ${status.clusterSize}`;
      } catch (error) {
        last = (error as { code?: string }).code ?? String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(
      `Galera node ${node} not Synced in a cluster of ${clusterSize} within ${timeoutMs} ms (last: ${last})\n` +
        `--- end of its error log ---\n${this.errorLog(node).split('\n').slice(-40).join('\n')}`,
    );
  }

  /** SIGKILL to the node's server (and any state-transfer helper it runs); resolves once gone. */
  async kill(node: number): Promise<void> {
    const server = this.servers.get(node);
    if (server === undefined) return;
    server.kill();
    await server.closed;
    this.servers.delete(node);
    this.writeProcessGroups();
  }

  /** Starts a node's server again with its own data folder: it rejoins the others (IST or SST). */
  restart(node: number): void {
    this.startServer(node, false);
  }

  /**
   * Cuts the node off from the rest of the cluster (`gmcast.isolate`), as a network partition
   * would: it leaves the primary component and refuses writes, while its SQL port stays open.
   */
  async isolate(node: number, isolated: boolean): Promise<void> {
    await this.query(node, `SET GLOBAL wsrep_provider_options = 'gmcast.isolate=${isolated ? 1 : 0}'`);
  }

  errorLog(node: number): string {
    const file = join(this.node(node).dir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '(no error log)';
  }

  /** Kills every server and removes the folder. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([...this.servers.keys()].map((node) => this.kill(node)));
    rmSync(this.root, { recursive: true, force: true });
    process.removeListener('exit', this.onExit);
  }

  private configFile(node: GaleraNode): string {
    return join(node.dir, 'my.cnf');
  }

  private config(node: GaleraNode): string {
    const members = this.nodes.map((member) => `127.0.0.1:${member.groupPort}`).join(',');
    return [
      '[mysqld]',
      `datadir=${join(node.dir, 'data')}`,
      `socket=${join(node.dir, 'mysqld.sock')}`,
      `pid-file=${join(node.dir, 'mysqld.pid')}`,
      `log-error=${join(node.dir, 'error.log')}`,
      // Its own: a starting server deletes every #sql* file in its tmpdir, and /tmp holds the
      // live temporary tables of the machine's MariaDB that the other test files query.
      `tmpdir=${join(node.dir, 'tmp')}`,
      `port=${node.sqlPort}`,
      'bind-address=127.0.0.1',
      // Small: three servers share a 2-core machine with the rest of the test suite.
      'innodb_buffer_pool_size=32M',
      'innodb_log_file_size=16M',
      'performance_schema=OFF',
      'max_connections=200',
      // What Galera requires of every node.
      'binlog_format=ROW',
      'default_storage_engine=InnoDB',
      'innodb_autoinc_lock_mode=2',
      'wsrep_on=ON',
      `wsrep_provider=${GALERA_PROVIDER}`,
      'wsrep_cluster_name=museum-test',
      `wsrep_cluster_address=gcomm://${members}`,
      `wsrep_node_name=node${node.index}`,
      `wsrep_node_address=127.0.0.1:${node.groupPort}`,
      `wsrep_node_incoming_address=127.0.0.1:${node.sqlPort}`,
      'wsrep_sst_method=rsync',
      `wsrep_sst_receive_address=127.0.0.1:${node.sstPort}`,
      `wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:${node.groupPort};ist.recv_addr=127.0.0.1:${node.istPort};gcache.size=32M"`,
      // Read-your-writes across nodes for the service's DELETE (and reads): it waits until the
      // node has applied everything the cluster committed before it (docs: Galera).
      'wsrep_sync_wait=3',
      ...this.settings,
      '',
    ].join('\n');
  }

  private startServer(node: number, bootstrap: boolean): void {
    const args = [`--defaults-file=${this.configFile(this.node(node))}`, '--user=mysql'];
    if (bootstrap) args.push('--wsrep-new-cluster');
    this.servers.set(
      node,
      new ProcessRun(MARIADBD, args, { cwd: this.root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }),
    );
    this.writeProcessGroups();
  }

  /** The process groups the watchdog kills if the runner dies. */
  private writeProcessGroups(): void {
    if (existsSync(this.root))
      writeFileSync(join(this.root, 'pgids'), [...this.servers.values()].map((run) => run.pid).join(' '));
  }

  private startWatchdog(): void {
    const script = [
      `while kill -0 ${process.pid} 2>/dev/null && [ -d "$1" ]; do sleep 1; done`,
      '[ -d "$1" ] || exit 0',
      'for group in $(cat "$1/pgids" 2>/dev/null); do kill -9 "-$group" 2>/dev/null; done',
      'sleep 1',
      'rm -rf "$1"',
    ].join('\n');
    spawn('/bin/sh', ['-c', script, 'galera-watchdog', this.root], { detached: true, stdio: 'ignore' }).unref();
  }

  /** The runner's own process is exiting: nothing asynchronous runs any more. */
  private killAllNow(): void {
    for (const server of this.servers.values()) server.kill();
    rmSync(this.root, { recursive: true, force: true });
  }
}
