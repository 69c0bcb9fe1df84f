import './refuse-unsupported-node.js';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { createPino, PinoLoggerService } from './common/logging/pino-logger.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { openStandaloneSql, type StandaloneSql } from './database/standalone-sql.js';
import { MIGRATIONS } from './features.js';
import { PasswordHasher } from './auth/password-hasher.js';
import { isRole, type Role, ROLES } from './auth/roles.js';
import { UsersRepository } from './auth/users.repository.js';
import { UserManagementError, UsersService } from './auth/users.service.js';

const USAGE = `Manage the users who may call the service (HTTP Basic credentials).

Usage:
  npm run users -- add <username> [--role viewer|box-office|editor|admin]
                                        create a user (an editor unless --role says
                                        otherwise); asks for the password
  npm run users -- passwd <username>    set a new password; asks for it
  npm run users -- role <username> <viewer|box-office|editor|admin>
                                        change what the user may do
  npm run users -- remove <username>    delete a user
  npm run users -- list [--json]        list users with their roles

Roles: a viewer reads special events and tickets; box-office may also sell tickets and check them
in; an editor may also create, change and delete special events; an admin also manages webhooks
and calendar feed tokens.

The password is read from the terminal (not echoed, asked twice) or, when standard input is not
a terminal, from its first line: never from the command line, where other users of the machine
and the shell history could see it. The database is the one DATABASE_URL names, as for the
service. Running services apply a change (a role too) within about a second: each reads the
credentials epoch every 0.5 s. An instance that cannot read the database meanwhile keeps what it
cached for at most AUTH_CACHE_TTL_SECONDS.

Exit codes: 0 done, 1 refused (exists, not found, invalid), 2 usage error, 3 database error.`;

class UsageError extends Error {}

export async function runUsersCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  let database: StandaloneSql | undefined;
  try {
    const { username, json, role } = parseArguments(command, args);
    const config = loadConfig(env);
    database = await openStandaloneSql(config.database, config.runMigrations, MIGRATIONS);
    const users = new UsersService(new UsersRepository(database.sql), new PasswordHasher());
    switch (command) {
      case 'add':
        await users.add(username, await readPassword(`Password for ${username}: `), role);
        process.stdout.write(`Added user "${username}" (${role ?? 'editor'}).\n`);
        break;
      case 'role':
        await users.setRole(username, role as Role);
        process.stdout.write(`"${username}" is now ${role}.\n`);
        break;
      case 'passwd':
        await users.setPassword(username, await readPassword(`New password for ${username}: `));
        process.stdout.write(`Changed the password of "${username}".\n`);
        break;
      case 'remove':
        await users.remove(username);
        process.stdout.write(`Removed user "${username}".\n`);
        break;
      case 'list': {
        const list = await users.list();
        if (json) {
          process.stdout.write(
            `${JSON.stringify(list.map((user) => ({ ...user, createdAt: user.createdAt.toISOString(), updatedAt: user.updatedAt.toISOString() })))}\n`,
          );
        } else if (list.length === 0) {
          process.stdout.write('No users.\n');
        } else {
          for (const user of list) {
            process.stdout.write(`${user.username}\t${user.role}\t(created ${user.createdAt.toISOString()})\n`);
          }
        }
        break;
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof UserManagementError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return error instanceof ConfigError ? 2 : 1;
    }
    process.stderr.write(`Database error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 3;
  } finally {
    await database?.close();
  }
}

interface Arguments {
  readonly username: string;
  readonly json: boolean;
  readonly role?: Role;
}

function parseArguments(command: string, args: string[]): Arguments {
  if (command === 'list') {
    const unknown = args.filter((arg) => arg !== '--json');
    if (unknown.length > 0) throw new UsageError(`Unexpected argument: ${unknown[0]}`);
    return { username: '', json: args.includes('--json') };
  }
  if (command === 'role') {
    if (args.length !== 2)
      throw new UsageError('role needs a user name and a role (viewer, box-office, editor or admin).');
    return { username: args[0], json: false, role: roleArgument(args[1]) };
  }
  if (command === 'add') {
    const roleAt = args.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
    if (roleAt !== -1) {
      const inline = args[roleAt].startsWith('--role=');
      const value = inline ? args[roleAt].slice('--role='.length) : args[roleAt + 1];
      if (value === undefined) throw new UsageError('--role needs a value: viewer, box-office, editor or admin.');
      const rest = args.filter((_arg, index) => index !== roleAt && (inline || index !== roleAt + 1));
      return { ...parseArguments(command, rest), role: roleArgument(value) };
    }
  }
  if (!['add', 'passwd', 'remove'].includes(command)) throw new UsageError(`Unknown command: ${command}`);
  if (args.length !== 1) {
    throw new UsageError(
      args.length === 0
        ? `${command} needs a user name.`
        : `${command} takes one user name; passwords are never arguments.`,
    );
  }
  return { username: args[0], json: false };
}

function roleArgument(value: string): Role {
  if (!isRole(value))
    throw new UsageError(`Unknown role: ${value}; use ${ROLES.slice(0, -1).join(', ')} or ${ROLES.at(-1)}.`);
  return value;
}

async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLine();
  const first = await askHidden(prompt);
  const second = await askHidden('Again: ');
  if (first !== second) throw new UserManagementError('The two passwords differ.', 'invalid');
  return first;
}

async function readFirstLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const newline = text.search(/\r?\n/);
  return newline === -1 ? text : text.slice(0, newline);
}

function askHidden(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  let muted = true;
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!muted) process.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question('', (answer) => {
      muted = false;
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

// Nest's default logger (used by the TypeORM logger outside an app) would print every query, at
// verbose level, to stdout, in between the CLI's output (and break `list --json`): warnings and
// errors only, as JSON lines on stderr.
Logger.overrideLogger(new PinoLoggerService(createPino('warn', process.stderr)));
process.exitCode = await runUsersCli(process.argv.slice(2), process.env);
